/// The btsnoop capture format (RFC 1761 snoop, as used by BlueZ btmon and Android):
/// a 16-byte file header, then records of a 24-byte big-endian header and the captured bytes.
public enum Btsnoop {
    /// "btsnoop\0", the first eight bytes of every capture.
    public static let magic: [UInt8] = Array("btsnoop".utf8) + [0]
    /// The only version defined.
    public static let version: UInt32 = 1
    /// File header: magic, version, datalink.
    public static let headerLength = 16
    /// Record header: original length, included length, flags, drops, timestamp.
    public static let recordHeaderLength = 24
    /// The btsnoop timestamp of 1970-01-01T00:00:00Z: btsnoop counts microseconds from midnight,
    /// 1 January of year 0, on a scale where this value is the Unix epoch (Android's snoop log,
    /// bumble and Wireshark all use it). BlueZ writes the same scale counting from 2000-01-01 at
    /// `0x00E03AB44A676000`, which is this value plus 946,684,800 s.
    public static let unixEpochOffset: Int64 = 0x00DC_DDB3_0F2F_8000
    /// The controller index of Linux monitor records that belong to no controller (System Notes).
    public static let noControllerIndex: UInt16 = 0xFFFF
    /// Largest included length accepted: an HCI packet (up to 65535 payload bytes plus its header) and slack.
    public static let maximumRecordLength = 65536 + 4

    /// A btsnoop timestamp (µs since 0000-01-01) as Unix microseconds.
    public static func unixTimestamp(fromBtsnoop raw: Int64) -> Timestamp {
        Timestamp(microseconds: raw &- unixEpochOffset)
    }

    /// Unix microseconds as a btsnoop timestamp.
    public static func btsnoopTimestamp(from time: Timestamp) -> Int64 {
        time.microseconds &+ unixEpochOffset
    }
}

/// What the records of a capture contain, from the file header.
public enum BtsnoopDatalink: UInt32, Sendable, CaseIterable, CustomStringConvertible {
    /// HCI packets without the H4 indicator; flags bit 0 = received, bit 1 = command or event (else data).
    case hciUnencapsulated = 1001
    /// H4 UART: each record starts with the packet indicator; flags bit 0 = received.
    case h4 = 1002
    /// BlueZ btmon (Linux monitor): flags = controller index << 16 | monitor opcode.
    case linuxMonitor = 2001

    public var description: String {
        switch self {
        case .hciUnencapsulated: "HCI unencapsulated (1001)"
        case .h4: "HCI UART H4 (1002)"
        case .linuxMonitor: "Linux monitor (2001)"
        }
    }
}

/// The 16-byte file header.
public struct BtsnoopHeader: Hashable, Sendable {
    public var datalink: BtsnoopDatalink

    public init(datalink: BtsnoopDatalink) { self.datalink = datalink }

    /// Decodes the header at the start of `bytes`; errors name the field and its offset in the file.
    public static func decode(_ bytes: ArraySlice<UInt8>) throws(DecodeError) -> BtsnoopHeader {
        try ByteReader.read(bytes) { reader throws(DecodeError) in
            let magic = try reader.bytes(8, "btsnoop header")
            guard magic.elementsEqual(Btsnoop.magic) else {
                let reason = CaptureLookalike.of(bytes).advice.map { "not a btsnoop file: \($0)" }
                    ?? "not a btsnoop file (magic is \(Hex.encode(Array(magic))), expected 6274736E6F6F7000)"
                throw DecodeError(offset: 0, field: "btsnoop magic", needed: 8, available: bytes.count, reason: reason)
            }
            let versionOffset = reader.offset
            let version = try reader.u32BigEndian("btsnoop version")
            guard version == Btsnoop.version else {
                throw DecodeError(offset: versionOffset, field: "btsnoop version", needed: 4, available: 4,
                                  reason: "unsupported version \(version) (only version 1 exists)")
            }
            let datalinkOffset = reader.offset
            let raw = try reader.u32BigEndian("btsnoop datalink")
            guard let datalink = BtsnoopDatalink(rawValue: raw) else {
                throw DecodeError(offset: datalinkOffset, field: "btsnoop datalink", needed: 4, available: 4,
                                  reason: "unknown datalink \(raw) (supported: 1001 HCI, 1002 H4 UART, 2001 Linux monitor)")
            }
            return BtsnoopHeader(datalink: datalink)
        }
    }

    /// The header as bytes.
    public var encoded: [UInt8] {
        var writer = ByteWriter(capacity: Btsnoop.headerLength)
        writer.append(Btsnoop.magic)
        writer.u32BigEndian(Btsnoop.version)
        writer.u32BigEndian(datalink.rawValue)
        return writer.bytes
    }
}

/// Linux monitor (btmon) record opcodes, the low 16 bits of a 2001 record's flags
/// (BlueZ src/shared/btsnoop.h, BTSNOOP_OPCODE_*).
public enum BtsnoopMonitorOpcode: Hashable, Sendable, CustomStringConvertible {
    case newIndex, deleteIndex, commandPacket, eventPacket, aclTransmit, aclReceive, scoTransmit, scoReceive
    case openIndex, closeIndex, indexInfo, vendorDiagnostic, systemNote, userLogging
    case controlOpen, controlClose, controlCommand, controlEvent, isoTransmit, isoReceive
    /// An opcode this reader does not know; its records are skipped.
    case unknown(UInt16)

    private static let known: [BtsnoopMonitorOpcode] = [
        .newIndex, .deleteIndex, .commandPacket, .eventPacket, .aclTransmit, .aclReceive, .scoTransmit, .scoReceive,
        .openIndex, .closeIndex, .indexInfo, .vendorDiagnostic, .systemNote, .userLogging,
        .controlOpen, .controlClose, .controlCommand, .controlEvent, .isoTransmit, .isoReceive,
    ]

    public init(rawValue: UInt16) {
        self = Int(rawValue) < Self.known.count ? Self.known[Int(rawValue)] : .unknown(rawValue)
    }

    public var rawValue: UInt16 {
        if case .unknown(let raw) = self { return raw }
        for (i, opcode) in Self.known.enumerated() where opcode == self { return UInt16(i) }
        return 0xFFFF
    }

    /// The HCI packet kind and direction a record with this opcode carries, nil for everything else.
    public var hciPacket: (kind: HCIPacketKind, direction: PacketDirection)? {
        switch self {
        case .commandPacket: (.command, .sent)
        case .eventPacket: (.event, .received)
        case .aclTransmit: (.aclData, .sent)
        case .aclReceive: (.aclData, .received)
        case .scoTransmit: (.scoData, .sent)
        case .scoReceive: (.scoData, .received)
        case .isoTransmit: (.isoData, .sent)
        case .isoReceive: (.isoData, .received)
        default: nil
        }
    }

    /// The opcode carrying a packet of `kind` travelling in `direction`.
    public static func carrying(_ kind: HCIPacketKind, _ direction: PacketDirection) -> BtsnoopMonitorOpcode {
        switch (kind, direction) {
        case (.command, _): .commandPacket
        case (.event, _): .eventPacket
        case (.aclData, .sent): .aclTransmit
        case (.aclData, .received): .aclReceive
        case (.scoData, .sent): .scoTransmit
        case (.scoData, .received): .scoReceive
        case (.isoData, .sent): .isoTransmit
        case (.isoData, .received): .isoReceive
        }
    }

    public var description: String {
        switch self {
        case .newIndex: "New Index"
        case .deleteIndex: "Delete Index"
        case .commandPacket: "Command"
        case .eventPacket: "Event"
        case .aclTransmit: "ACL TX"
        case .aclReceive: "ACL RX"
        case .scoTransmit: "SCO TX"
        case .scoReceive: "SCO RX"
        case .openIndex: "Open Index"
        case .closeIndex: "Close Index"
        case .indexInfo: "Index Info"
        case .vendorDiagnostic: "Vendor Diagnostic"
        case .systemNote: "System Note"
        case .userLogging: "User Logging"
        case .controlOpen: "Control Open"
        case .controlClose: "Control Close"
        case .controlCommand: "Control Command"
        case .controlEvent: "Control Event"
        case .isoTransmit: "ISO TX"
        case .isoReceive: "ISO RX"
        case .unknown(let raw): "monitor opcode \(raw)"
        }
    }
}

/// One record exactly as stored, before it is interpreted for its datalink.
public struct BtsnoopRawRecord {
    /// Offset of the record header in the file.
    public var fileOffset: Int
    public var originalLength: UInt32
    public var flags: UInt32
    public var drops: UInt32
    /// Microseconds since 0000-01-01 AD, as stored.
    public var btsnoopTimestamp: Int64
    /// The included bytes, in place in the reader's buffer (valid until it is next filled).
    public var data: UnsafeRawBufferPointer

    public var timestamp: Timestamp { Btsnoop.unixTimestamp(fromBtsnoop: btsnoopTimestamp) }
}

/// One HCI packet of a capture in place: its bytes in the reader's buffer, valid until it is next filled.
public struct BtsnoopRecordView {
    public var packet: HCIPacketView
    public var direction: PacketDirection
    /// Capture time in Unix microseconds.
    public var timestamp: Timestamp
    /// The controller the packet belongs to (Linux monitor captures only).
    public var controllerIndex: UInt16?
    /// Offset of the record header in the file.
    public var fileOffset: Int
    /// True when the capture kept fewer bytes than the packet had (snap length).
    public var isTruncated: Bool
}

/// One HCI packet from a capture.
public struct BtsnoopRecord: Hashable, Sendable {
    public var packet: HCIPacket
    public var direction: PacketDirection
    /// Capture time in Unix microseconds.
    public var timestamp: Timestamp
    /// The controller the packet belongs to (Linux monitor captures only).
    public var controllerIndex: UInt16?
    /// Offset of the record header in the file.
    public var fileOffset: Int
    /// True when the capture kept fewer bytes than the packet had (snap length).
    public var isTruncated: Bool

    public init(packet: HCIPacket, direction: PacketDirection, timestamp: Timestamp,
                controllerIndex: UInt16? = nil, fileOffset: Int, isTruncated: Bool = false) {
        self.packet = packet
        self.direction = direction
        self.timestamp = timestamp
        self.controllerIndex = controllerIndex
        self.fileOffset = fileOffset
        self.isTruncated = isTruncated
    }

    /// The record copied out of the reader's buffer.
    public init(_ view: BtsnoopRecordView) {
        self.init(packet: view.packet.packet, direction: view.direction, timestamp: view.timestamp,
                  controllerIndex: view.controllerIndex, fileOffset: view.fileOffset, isTruncated: view.isTruncated)
    }
}
