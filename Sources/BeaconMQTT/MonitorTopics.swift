import BeaconCore

/// The topics of `beacon range`'s lines:
///   PREFIX/REGION/state          inside or outside, retained: where things stand for a late subscriber
///   PREFIX/REGION/enter, /exit   the enter and exit lines
///   PREFIX/REGION/range          the range lines
///   room_presence/ROOM           with a room, one Home Assistant mqtt_room message per ranged beacon
/// REGION is the region's name, else its UUID[:MAJOR[:MINOR]].
public struct MonitorTopics: Sendable {
    public var prefix: String
    /// Home Assistant's mqtt_room room this receiver is in, if any.
    public var room: String?

    /// Home Assistant's default state topic for mqtt_room sensors.
    public static let roomPresencePrefix = "room_presence"

    public init(prefix: String, room: String?) {
        self.prefix = prefix
        self.room = room
    }

    /// `output`, whose JSON line is `line`, as messages.
    public func messages(for output: MonitorOutput, line: String) -> [MQTTMessage] {
        switch output {
        case let .state(region, state, _):
            // Unknown is only where monitoring starts; the retained state keeps the last one determined.
            guard state != .unknown else { return [] }
            return [MQTTMessage(topic: topic(region, "state"), payload: state.rawValue, retain: true)]
        case let .enter(region, _):
            return [MQTTMessage(topic: topic(region, "enter"), payload: line)]
        case let .exit(region, _):
            return [MQTTMessage(topic: topic(region, "exit"), payload: line)]
        case let .range(region, _, beacons), let .partialRange(region, _, beacons):
            return [MQTTMessage(topic: topic(region, "range"), payload: line)] + roomPresence(region, beacons)
        }
    }

    /// `{"id","name","distance"}` per beacon with a known distance, as Home Assistant's mqtt_room reads it
    /// (the id is `BeaconID.deviceID`).
    func roomPresence(_ region: BeaconRegion, _ beacons: [RangedBeacon]) -> [MQTTMessage] {
        guard let room else { return [] }
        return beacons.filter { $0.accuracy >= 0 }.map { beacon in
            let id = beacon.identity.deviceID
            var w = JSONWriter()
            w.object { o in
                o.field("id", id)
                o.field("name", region.name ?? id)
                o.field("distance", beacon.accuracy, decimals: OutputLine.metresDecimals)
            }
            return MQTTMessage(topic: "\(Self.roomPresencePrefix)/\(room)", payload: w.text)
        }
    }

    func topic(_ region: BeaconRegion, _ leaf: String) -> String {
        var key = region
        key.name = nil
        return "\(prefix)/\(region.name ?? key.description)/\(leaf)"
    }
}
