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

    /// The one table of H4 packet kinds (inlined into the framing of every packet).
    @inline(__always)
    static func layout(_ kind: HCIPacketKind) -> Layout {
        switch kind {
        case .command: Layout(headerLength: 3, lengthOffset: 2, lengthIsTwoBytes: false, lengthMask: 0xFF)
        case .aclData: Layout(headerLength: 4, lengthOffset: 2, lengthIsTwoBytes: true, lengthMask: 0xFFFF)
        case .scoData: Layout(headerLength: 3, lengthOffset: 2, lengthIsTwoBytes: false, lengthMask: 0xFF)
        case .event: Layout(headerLength: 2, lengthOffset: 1, lengthIsTwoBytes: false, lengthMask: 0xFF)
        case .isoData: Layout(headerLength: 4, lengthOffset: 2, lengthIsTwoBytes: true, lengthMask: 0x3FFF)
        }
    }

    private var buffer = ReadBuffer()

    public init() {}

    /// Bytes received but not yet returned as a packet.
    public var pendingByteCount: Int { buffer.count }

    public mutating func append<C: Collection>(_ bytes: C) where C.Element == UInt8 {
        buffer.append(bytes)
    }

    /// Lets `read` write up to `count` bytes of the stream straight into the framer's buffer (see
    /// `ReadBuffer.fill`); returns what `read` returned.
    public mutating func fill(upTo count: Int, _ read: (UnsafeMutableBufferPointer<UInt8>) -> Int) -> Int {
        buffer.fill(upTo: count, read)
    }

    /// Hands the complete packets received so far to `body` in place, as packets received from the
    /// stream's far end, in order, until it returns false (after taking that one) or more bytes are
    /// needed: a read's packets in one call.
    public mutating func forEachReceived(_ body: (TransportPacket) -> Bool) throws(DecodeError) {
        while let packet = try nextView(), body(TransportPacket(packet, .received)) {}
    }

    /// The next complete packet in place (valid until the next `append` or `fill`), nil when more bytes
    /// are needed. An unknown indicator throws: an H4 stream cannot resynchronise after it, so the
    /// caller ends the stream.
    @inline(__always)
    public mutating func nextView() throws(DecodeError) -> HCIPacketView? {
        let pending = buffer.unconsumedBytes
        guard let indicator = pending.first else { return nil }
        guard let kind = HCIPacketKind(rawValue: indicator) else {
            throw DecodeError(offset: 0, field: "H4 packet indicator", needed: 1, available: pendingByteCount,
                              reason: "unknown packet indicator 0x\(Hex.encode([indicator]))")
        }
        let layout = Self.layout(kind)
        guard pending.count - 1 >= layout.headerLength else { return nil }
        let lengthAt = 1 + layout.lengthOffset
        var length = Int(pending[lengthAt])
        if layout.lengthIsTwoBytes { length |= Int(pending[lengthAt + 1]) << 8 }
        length &= layout.lengthMask
        let end = 1 + layout.headerLength + length
        guard pending.count >= end else { return nil }
        buffer.consume(end)
        return HCIPacketView(kind: kind, payload: UnsafeRawBufferPointer(rebasing: pending[1..<end]))
    }
}
