/// The header the kernel's monitor channel (HCI_CHANNEL_MONITOR, what btmon reads) puts before every
/// packet: opcode, controller index and payload length, each 16-bit little-endian (BlueZ
/// monitor/control.c, struct hci_mon_hdr). The opcodes are those of a Linux monitor capture's records.
public struct MonitorHeader: Hashable, Sendable {
    public var opcode: BtsnoopMonitorOpcode
    /// The controller the packet belongs to; 0xFFFF (HCI_DEV_NONE) for notes that belong to none.
    public var index: UInt16
    /// Bytes of payload after the header.
    public var length: UInt16

    public static let size = 6

    public init(opcode: BtsnoopMonitorOpcode, index: UInt16, length: UInt16) {
        self.opcode = opcode
        self.index = index
        self.length = length
    }

    /// Reads the header at the start of `datagram`; throws when fewer than six bytes are there.
    public static func decode<Bytes: Collection<UInt8>>(_ datagram: Bytes) throws(DecodeError) -> MonitorHeader {
        guard datagram.count >= size else {
            throw DecodeError(offset: 0, field: "monitor header", needed: size, available: datagram.count)
        }
        var i = datagram.startIndex
        func u16() -> UInt16 {
            let low = datagram[i]
            i = datagram.index(after: i)
            let high = datagram[i]
            i = datagram.index(after: i)
            return UInt16(low) | UInt16(high) << 8
        }
        let opcode = u16()
        let index = u16()
        return MonitorHeader(opcode: BtsnoopMonitorOpcode(rawValue: opcode), index: index, length: u16())
    }

    public var bytes: [UInt8] {
        var writer = ByteWriter(capacity: Self.size)
        writer.u16(opcode.rawValue)
        writer.u16(index)
        writer.u16(length)
        return writer.bytes
    }
}

/// What one monitor-channel datagram means for a listener on one controller.
public enum MonitorDatagram: Equatable, Sendable {
    /// An HCI packet of the controller: its kind and direction, and where its bytes are in the datagram.
    case packet(HCIPacketKind, PacketDirection, payload: Range<Int>)
    /// The controller was removed (Delete Index): nothing more will come from it.
    case controllerRemoved
    /// Another controller's packet, a note, or management traffic.
    case other

    /// Classifies `datagram` for a listener on controller `controller`. A payload shorter than the
    /// header declares throws; bytes past the declared length are not part of the packet.
    public static func classify<Bytes: Collection<UInt8>>(_ datagram: Bytes, controller: UInt16) throws(DecodeError) -> MonitorDatagram
    where Bytes.Index == Int {
        let header = try MonitorHeader.decode(datagram)
        guard header.index == controller else { return .other }
        let start = datagram.startIndex + MonitorHeader.size
        let available = datagram.count - MonitorHeader.size
        guard available >= Int(header.length) else {
            throw DecodeError(offset: MonitorHeader.size, field: "\(header.opcode) payload", needed: Int(header.length), available: available)
        }
        if header.opcode == .deleteIndex { return .controllerRemoved }
        guard let (kind, direction) = header.opcode.hciPacket else { return .other }
        return .packet(kind, direction, payload: start..<start + Int(header.length))
    }
}
