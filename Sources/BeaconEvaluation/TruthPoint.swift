import BeaconCore

/// Where a beacon really was at one time.
public struct TruthPoint: Equatable, Sendable {
    public var time: Timestamp
    public var x: Double
    public var y: Double
    /// The room containing the point; nil outside every room.
    public var room: String?

    public init(time: Timestamp, x: Double, y: Double, room: String?) {
        self.time = time
        self.x = x
        self.y = y
        self.room = room
    }
}
