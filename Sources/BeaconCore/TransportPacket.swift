/// One packet from a transport, in place in its buffer. The capture reader and the H4 framer hand their
/// packets on in this form, so a transport passes a read's packets to the host with no step between.
public struct TransportPacket {
    public var packet: HCIPacketView
    public var direction: PacketDirection
    /// The capture's time (replay); nil for live packets, which the host stamps with its clock.
    public var captureTime: Timestamp?

    public init(_ packet: HCIPacketView, _ direction: PacketDirection, captureTime: Timestamp? = nil) {
        self.packet = packet
        self.direction = direction
        self.captureTime = captureTime
    }
}
