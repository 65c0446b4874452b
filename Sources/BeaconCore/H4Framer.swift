/// Splits an H4 byte stream (UART, TCP, unix socket) into HCI packets (Core Vol 4 Part A).
/// Datagram transports (the kernel HCI socket) carry one packet per read and skip this.
public struct H4Framer {
    /// Header length after the indicator, and where in it the payload length sits.
    struct Layout {
        let headerLength: Int
        let lengthOffset: Int
        let lengthIsTwoBytes: Bool
        /// Only the low bits of a 16-bit length field count (ISO data uses 14).
        let lengthMask: Int
    }

    /// The one table of H4 packet kinds.
    static func layout(_ kind: HCIPacketKind) -> Layout {
        switch kind {
        case .command: Layout(headerLength: 3, lengthOffset: 2, lengthIsTwoBytes: false, lengthMask: 0xFF)
        case .aclData: Layout(headerLength: 4, lengthOffset: 2, lengthIsTwoBytes: true, lengthMask: 0xFFFF)
        case .scoData: Layout(headerLength: 3, lengthOffset: 2, lengthIsTwoBytes: false, lengthMask: 0xFF)
        case .event: Layout(headerLength: 2, lengthOffset: 1, lengthIsTwoBytes: false, lengthMask: 0xFF)
        case .isoData: Layout(headerLength: 4, lengthOffset: 2, lengthIsTwoBytes: true, lengthMask: 0x3FFF)
        }
    }

    private var buffer: [UInt8] = []
    private var start = 0

    public init() {
        buffer.reserveCapacity(64 * 1024)
    }

    /// Bytes received but not yet returned as a packet.
    public var pendingByteCount: Int { buffer.count - start }

    public mutating func append<C: Collection>(_ bytes: C) where C.Element == UInt8 {
        compactIfWorthwhile()
        buffer.append(contentsOf: bytes)
    }

    /// The next complete packet, nil when more bytes are needed. An unknown indicator throws:
    /// an H4 stream cannot resynchronise after it, so the caller ends the stream.
    public mutating func next() throws(DecodeError) -> HCIPacket? {
        guard start < buffer.count else { return nil }
        guard let kind = HCIPacketKind(rawValue: buffer[start]) else {
            throw DecodeError(offset: 0, field: "H4 packet indicator", needed: 1, available: pendingByteCount,
                              reason: "unknown packet indicator 0x\(Hex.encode([buffer[start]]))")
        }
        let layout = Self.layout(kind)
        let headerStart = start + 1
        guard buffer.count - headerStart >= layout.headerLength else { return nil }
        let lengthAt = headerStart + layout.lengthOffset
        var length = Int(buffer[lengthAt])
        if layout.lengthIsTwoBytes { length |= Int(buffer[lengthAt + 1]) << 8 }
        length &= layout.lengthMask
        let end = headerStart + layout.headerLength + length
        guard buffer.count >= end else { return nil }
        start = end
        return HCIPacket(kind: kind, payload: buffer[headerStart..<end])
    }

    /// Drops consumed bytes once they dominate the buffer, so a long stream does not grow it.
    private mutating func compactIfWorthwhile() {
        guard start > 0 else { return }
        if start == buffer.count {
            buffer.removeAll(keepingCapacity: true)
            start = 0
        } else if start >= 32 * 1024 {
            buffer.removeSubrange(0..<start)
            start = 0
        }
    }
}
