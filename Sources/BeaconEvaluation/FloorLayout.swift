/// One floor of rectangular rooms and the gateways on it: what the peers' room rules need to know of a site.
public struct FloorLayout: Sendable {
    public struct Room: Sendable {
        public var name: String
        public var minX: Double, minY: Double, maxX: Double, maxY: Double

        public init(name: String, minX: Double, minY: Double, maxX: Double, maxY: Double) {
            self.name = name
            self.minX = minX
            self.minY = minY
            self.maxX = maxX
            self.maxY = maxY
        }

        /// Edges included.
        public func contains(x: Double, y: Double) -> Bool {
            x >= minX && x <= maxX && y >= minY && y <= maxY
        }
    }

    public struct Gateway: Sendable {
        public var name: String
        /// Position (m); `z` is the height above the floor.
        public var x: Double, y: Double, z: Double
        public var room: String

        public init(name: String, x: Double, y: Double, z: Double, room: String) {
            self.name = name
            self.x = x
            self.y = y
            self.z = z
            self.room = room
        }
    }

    public var rooms: [Room]
    public var gateways: [Gateway]

    public init(rooms: [Room], gateways: [Gateway]) {
        self.rooms = rooms
        self.gateways = gateways
    }

    /// The first room that contains the point (a point on a shared edge is in the room listed first).
    public func room(containingX x: Double, y: Double) -> String? {
        rooms.first { $0.contains(x: x, y: y) }?.name
    }

    public func gateway(named name: String) -> Gateway? {
        gateways.first { $0.name == name }
    }
}
