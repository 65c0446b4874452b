/// Encodes btsnoop captures: the file header and one record per HCI packet.
/// `--record` writes Linux monitor (2001), which keeps every packet kind and carries notes; simulated
/// captures are H4 (1002), what Android and bumble write; 1001 exists for tests and tools.
public struct BtsnoopWriter: Sendable {
    public var datalink: BtsnoopDatalink

    public init(datalink: BtsnoopDatalink = .h4) { self.datalink = datalink }

    /// The 16-byte file header.
    public var header: [UInt8] { BtsnoopHeader(datalink: datalink).encoded }

    /// Appends one record for `packet` to `out` (no intermediate arrays). In 1001 captures SCO and ISO
    /// data read back as ACL data (the format cannot tell them apart).
    public func appendRecord(_ packet: HCIPacket, direction: PacketDirection, timestamp: Timestamp,
                             controllerIndex: UInt16 = 0, to out: inout [UInt8]) {
        appendRecord(packet.kind, packet.payload, direction: direction, timestamp: timestamp,
                     controllerIndex: controllerIndex, to: &out)
    }

    /// The same for a packet in place.
    public func appendRecord(_ packet: HCIPacketView, direction: PacketDirection, timestamp: Timestamp,
                             controllerIndex: UInt16 = 0, to out: inout [UInt8]) {
        appendRecord(packet.kind, packet.payload, direction: direction, timestamp: timestamp,
                     controllerIndex: controllerIndex, to: &out)
    }

    private func appendRecord<Payload: Collection>(_ kind: HCIPacketKind, _ payload: Payload, direction: PacketDirection,
                                                   timestamp: Timestamp, controllerIndex: UInt16,
                                                   to out: inout [UInt8]) where Payload.Element == UInt8 {
        let flags: UInt32
        var length = payload.count
        switch datalink {
        case .hciUnencapsulated, .h4:
            let directionBit: UInt32 = direction == .received ? 0x01 : 0x00
            let commandOrEventBit: UInt32 = kind == .command || kind == .event ? 0x02 : 0x00
            flags = directionBit | commandOrEventBit
            if datalink == .h4 { length += 1 }
        case .linuxMonitor:
            flags = UInt32(controllerIndex) << 16 | UInt32(BtsnoopMonitorOpcode.carrying(kind, direction).rawValue)
        }
        Self.appendRecordHeader(originalLength: UInt32(length), includedLength: UInt32(length), flags: flags,
                                drops: 0, timestamp: timestamp, to: &out)
        if datalink == .h4 { out.append(kind.rawValue) }
        out.append(contentsOf: payload)
    }

    /// Appends a Linux monitor record that carries no HCI packet (a System Note, a New Index) to `out`.
    public static func appendMonitorRecord(_ opcode: BtsnoopMonitorOpcode, controllerIndex: UInt16, data: [UInt8],
                                           timestamp: Timestamp, to out: inout [UInt8]) {
        let length = UInt32(data.count)
        appendRecordHeader(originalLength: length, includedLength: length,
                           flags: UInt32(controllerIndex) << 16 | UInt32(opcode.rawValue), drops: 0, timestamp: timestamp, to: &out)
        out.append(contentsOf: data)
    }

    private static func appendRecordHeader(originalLength: UInt32, includedLength: UInt32, flags: UInt32,
                                           drops: UInt32, timestamp: Timestamp, to out: inout [UInt8]) {
        func u32(_ v: UInt32) { for shift in stride(from: 24, through: 0, by: -8) { out.append(UInt8(truncatingIfNeeded: v >> UInt32(shift))) } }
        u32(originalLength)
        u32(includedLength)
        u32(flags)
        u32(drops)
        let raw = UInt64(bitPattern: Btsnoop.btsnoopTimestamp(from: timestamp))
        for shift in stride(from: 56, through: 0, by: -8) { out.append(UInt8(truncatingIfNeeded: raw >> UInt64(shift))) }
    }
}
