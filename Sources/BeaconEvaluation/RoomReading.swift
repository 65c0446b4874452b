import BeaconCore

/// One gateway's distance estimate of one beacon, as the peers' room rules take it.
public struct RoomReading: Equatable, Sendable {
    public var time: Timestamp
    public var gateway: String
    public var beacon: String
    /// Estimated distance (m).
    public var distance: Double

    public init(time: Timestamp, gateway: String, beacon: String, distance: Double) {
        self.time = time
        self.gateway = gateway
        self.beacon = beacon
        self.distance = distance
    }

    /// The readings of a gateway's readings message; beacons of unknown distance are left out.
    public static func readings(_ message: GatewayReadings) -> [RoomReading] {
        message.readings.filter { $0.accuracy >= 0 }.map {
            RoomReading(time: message.time, gateway: message.gateway, beacon: $0.id, distance: $0.accuracy)
        }
    }
}

/// A room rule's answer for one beacon at one time: the room, and the position when the rule has one.
public struct RoomEstimate: Equatable, Sendable {
    public var time: Timestamp
    public var room: String?
    public var x: Double?
    public var y: Double?
    /// How sure the rule is of the room (0...1), when it says.
    public var confidence: Double?

    public init(time: Timestamp, room: String?, x: Double? = nil, y: Double? = nil, confidence: Double? = nil) {
        self.time = time
        self.room = room
        self.x = x
        self.y = y
        self.confidence = confidence
    }
}

/// A way of placing a beacon in a room from the gateways' readings (beacon locate's, or a peer's): fed
/// the readings messages in time order, asked for a beacon's room at a time no earlier than the last.
public protocol RoomRule {
    /// The row name in the tables.
    var name: String { get }
    /// A gateway's readings message.
    mutating func add(_ message: GatewayReadings)
    /// A gateway's status (its capture ended: offline); by default nothing, as the peers take none.
    mutating func status(gateway: String, online: Bool)
    /// How long after the readings of a time the rule's answer for that time is out: asked for a time, it
    /// has been fed the readings up to that much later. By default none: the peers answer at once.
    var delay: Micros { get }
    /// The end of the run: every reading has been fed. By default nothing.
    mutating func finish()
    mutating func estimate(of beacon: String, at time: Timestamp) -> RoomEstimate
}

/// A peer's rule, which takes a gateway's distance readings one by one.
public protocol DistanceRoomRule: RoomRule {
    mutating func add(_ reading: RoomReading)
}

extension DistanceRoomRule {
    /// The message's readings one by one, as the peers take them.
    public mutating func add(_ message: GatewayReadings) {
        for reading in RoomReading.readings(message) { add(reading) }
    }
}

extension RoomRule {
    public mutating func status(gateway: String, online: Bool) {}
    public var delay: Micros { Micros(0) }
    public mutating func finish() {}

    /// A fleet's event: a readings message, or a gateway going offline.
    public mutating func add(_ event: FleetEvent) {
        switch event {
        case .readings(let message): add(message)
        case .offline(let gateway, _): status(gateway: gateway, online: false)
        }
    }
}
