import BeaconCore

/// How a host takes its packets from its transport: `LiveLoop` from a controller, waiting for it between
/// reads; `ReplayLoop` from a capture, reading on without waiting. Each is one loop, run by
/// `HCIHost.forEachPacket` once the backlog of a command's wait is handed on.
protocol HostLoop: AnyObject {
    /// Schedule time now.
    func now(_ host: HCIHost) -> Timestamp
    /// A replay's first capture time that cannot be printed (`HCIHost.firstUnprintableCaptureTime`).
    var firstUnprintableCaptureTime: Timestamp? { get }
    /// As `HCIHost.forEachPacket`, for the packets the transport reads.
    func forEachPacket(_ host: HCIHost, until deadline: Timestamp?, _ handle: PacketHandler) throws(HostError) -> HostEvent
}
