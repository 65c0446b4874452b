/// One packet from a transport, in place in its buffer. The capture reader and the H4 framer hand their
/// packets on in this form, so a transport passes a read's packets to the host with no step between.
public struct TransportPacket {
    public var packet: HCIPacketView
    public var direction: PacketDirection
    /// The capture's time (replay); nil for live packets, which the host stamps with its clock.
    public var captureTime: Timestamp?
    /// Set on a recording's note of its wall clock (`WallClockNote`), which carries no packet (`packet`
    /// is empty): from `captureTime` on, lines are printed this much later than the records.
    public var recordedWallOffset: Micros?
    /// What the host does with it: a controller's packet is heard and recorded. mgmt:N hands on the
    /// reports it rebuilds as heard only (they are not the controller's bytes) and, with `--record`,
    /// the controller's traffic from the monitor channel as recorded only.
    public var use: Use = .heardAndRecorded

    public enum Use: Sendable {
        case heardAndRecorded, heard, recorded
    }

    public init(_ packet: HCIPacketView, _ direction: PacketDirection, captureTime: Timestamp? = nil,
                use: Use = .heardAndRecorded) {
        self.packet = packet
        self.direction = direction
        self.captureTime = captureTime
        self.use = use
    }

    /// A recording's note of its wall clock at `captureTime`.
    public init(recordedWallOffset: Micros, captureTime: Timestamp) {
        self.init(HCIPacketView(kind: .event, payload: UnsafeRawBufferPointer(start: nil, count: 0)), .received,
                  captureTime: captureTime)
        self.recordedWallOffset = recordedWallOffset
    }
}
