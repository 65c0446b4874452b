import BeaconCore

/// The topics of `beacon locate`:
///   PREFIX/gateways/+/readings, /status      read: the gateways' readings and statuses
///   PREFIX/locate/status                     online (retained), offline at exit and as the last will
///                                            (PREFIX/locate/K-N/status for `--shard K/N`)
///   PREFIX/beacons/ID/room                   the beacon's room, or not_home (retained)
///   PREFIX/beacons/ID/location               the location line (retained)
///   PREFIX/calibration                       the latest calibration line of `--calibrate` (retained)
///   homeassistant/device_tracker/…/config, homeassistant/sensor/…/config
///                                            Home Assistant MQTT discovery, once per beacon (retained)
public struct LocateTopics: Sendable {
    public let prefix: String
    public let shard: BeaconShard?
    /// Home Assistant's default discovery prefix.
    public static let discoveryPrefix = "homeassistant"
    /// Home Assistant's state of a device tracker that is in no zone.
    public static let away = "not_home"

    public init(prefix: String, shard: BeaconShard? = nil) {
        self.prefix = prefix
        self.shard = shard
    }

    public var subscriptions: [String] {
        ["\(prefix)/\(GatewayTopics.level)/+/readings", "\(prefix)/\(GatewayTopics.level)/+/status"]
    }

    /// The gateways' self-calibration.
    public var calibration: String { "\(prefix)/calibration" }

    /// Each shard has its own, so one shard's last will does not mark the others' beacons unavailable.
    public var status: String {
        shard.map { "\(prefix)/locate/\($0.index)-\($0.count)/status" } ?? "\(prefix)/locate/status"
    }

    /// What a message on `topic` is: a gateway's readings or status, and the gateway's name.
    public enum Received: Equatable, Sendable {
        case readings(gateway: String)
        case status(gateway: String)
    }

    public func received(on topic: String) -> Received? {
        let head = "\(prefix)/\(GatewayTopics.level)/"
        guard topic.hasPrefix(head) else { return nil }
        let rest = topic.dropFirst(head.count).split(separator: "/", omittingEmptySubsequences: false)
        guard rest.count == 2, !rest[0].isEmpty else { return nil }
        switch rest[1] {
        case "readings": return .readings(gateway: String(rest[0]))
        case "status": return .status(gateway: String(rest[0]))
        default: return nil
        }
    }

    /// The retained messages for one output line: the room and the location, and, the first time a
    /// beacon is seen, its Home Assistant discovery.
    public func messages(for output: LocateOutput, line: String, firstSighting: Bool) -> [MQTTMessage] {
        guard let beacon = output.beacon else { return [MQTTMessage(topic: calibration, payload: line, retain: true)] }
        let base = "\(prefix)/beacons/\(beacon.id)"
        var messages = firstSighting ? discovery(of: beacon.id, name: beacon.name) : []
        switch output {
        case .location(let located):
            messages.append(MQTTMessage(topic: "\(base)/location", payload: line, retain: true))
            messages.append(MQTTMessage(topic: "\(base)/room", payload: located.room ?? Self.away, retain: true))
        case .room:
            break  // the location line of the same instant carries the room
        case .away:
            messages.append(MQTTMessage(topic: "\(base)/room", payload: Self.away, retain: true))
        case .calibration:
            break
        }
        return messages
    }

    /// A device tracker and a room sensor for the beacon, named by its name, available while locate is online.
    func discovery(of beacon: String, name: String) -> [MQTTMessage] {
        let object = Self.objectID(beacon)
        let base = "\(prefix)/beacons/\(beacon)"
        func config(_ body: (inout JSONWriter) -> Void) -> String {
            var w = JSONWriter()
            w.object { o in
                body(&o)
                o.field("availability_topic", status)
                o.field("payload_available", "online")
                o.field("payload_not_available", "offline")
                o.field("json_attributes_topic", "\(base)/location")
                o.field("device", object: { d in
                    d.field("name", name)
                    d.field("identifiers", array: { $0.string("beacon_\(object)") })
                })
            }
            return w.text
        }
        let tracker = config { m in
            m.field("name", name)
            m.field("unique_id", "beacon_\(object)_tracker")
            m.field("state_topic", "\(base)/room")
            m.field("source_type", "bluetooth_le")
        }
        let sensor = config { m in
            m.field("name", "\(name) room")
            m.field("unique_id", "beacon_\(object)_room")
            m.field("state_topic", "\(base)/room")
            m.field("icon", "mdi:map-marker")
        }
        return [
            MQTTMessage(topic: "\(Self.discoveryPrefix)/device_tracker/beacon_\(object)/config", payload: tracker, retain: true),
            MQTTMessage(topic: "\(Self.discoveryPrefix)/sensor/beacon_\(object)_room/config", payload: sensor, retain: true),
        ]
    }

    /// Home Assistant's object ids are letters, digits, `_` and `-`: anything else as `_`.
    static func objectID(_ beacon: String) -> String {
        String(String.UnicodeScalarView(beacon.unicodeScalars.map { scalar in
            scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || scalar == "-" || scalar == "_") ? scalar : "_"
        }))
    }
}
