import BeaconCore
import BeaconMQTT

/// `--mqtt` (with `BrokerOptions`), `--room` and `--gateway`: an MQTT broker the lines and readings are also published to.
struct MQTTOptions {
    var broker: BrokerOptions
    var room: String?
    /// `--gateway`: this receiver's name among the gateways of `beacon locate`; nil: the host name, and
    /// the region topics and status stay where they were.
    var gateway: String?

    /// What `--mqtt` does while the broker is away, and what it needs.
    static let brokerAway = "A broker that is away is tried again with backoff; up to "
        + "\(PublishBounds.queueCapacity) messages or \(PublishBounds.queueBytesText) wait for it, then the oldest are "
        + "dropped (a btsnoop: replay waits for the broker instead, unless it takes nothing for "
        + "\(PublishBounds.stallLimit)). Needs "
        + "libmosquitto (Debian package libmosquitto1), loaded only then; without it the run stops with exit 69."

    static let mqtt = OptionSpec(
        "mqtt", .value(placeholder: "url"),
        "Also publish the lines to this MQTT broker: \(BrokerAddress.forms). Topics: PREFIX/REGION/state "
            + "(inside or outside, retained), PREFIX/REGION/enter, /exit and /range, and PREFIX/status (online, "
            + "or offline as the last will). " + brokerAway)
    static let room = OptionSpec(
        "room", .value(placeholder: "room"),
        "The room this receiver is in: also publish Home Assistant mqtt_room messages "
            + "{\"id\",\"name\",\"distance\"} on \(MonitorTopics.roomPresencePrefix)/ROOM (needs --mqtt).")
    static let gateway = OptionSpec(
        "gateway", .value(placeholder: "name"),
        "This receiver's name among the gateways `beacon locate` fuses: each ranging tick's readings go to "
            + "PREFIX/\(GatewayTopics.level)/NAME/readings (an empty message when no region is inside; RSSI with "
            + "--rssi-offset added). Given, the region topics and the status (online, "
            + "offline as the last will) move under PREFIX/\(GatewayTopics.level)/NAME, and the broker session "
            + "is kept across restarts (a client id derived from the name). Needs --mqtt.",
        default: "the host name, for the readings only")

    /// `beacon range`'s.
    static let options = [mqtt] + BrokerOptions.options + [room, gateway]

    /// `beacon scan`'s: the broker, and `--gateway` for its topics, status and session.
    static let scanOptions = [
        mqtt.withHelp("Also publish each line to this MQTT broker: \(BrokerAddress.forms), on "
                          + "PREFIX/\(ScanTopics.level)/ID, one topic per device (not retained), and PREFIX/status (online, or "
                          + "offline as the last will; retained). " + brokerAway, default: nil),
    ] + BrokerOptions.options + [
        gateway.withHelp("This receiver's name: the device topics and the status move under PREFIX/\(GatewayTopics.level)/NAME, "
                             + "and the broker session is kept across restarts (a client id derived from the name). Needs --mqtt.",
                         default: nil),
    ]

    /// The broker options given, or nil without `--mqtt`; `takesRoom` for the commands that take `--room`.
    static func parse(_ parsed: ParsedOptions, environment: [String: String], takesRoom: Bool = true) throws(UsageError) -> MQTTOptions? {
        guard let broker = try BrokerOptions.parse(parsed, environment: environment) else {
            for option in (takesRoom ? [Self.room] : []) + [Self.gateway] where parsed[option] != nil {
                throw UsageError("'--\(option.name)' needs '--mqtt'")
            }
            return nil
        }
        let room = takesRoom ? parsed[Self.room] : nil
        if let room, !BeaconRegion.isValidName(room) {
            throw UsageError("Invalid value '\(room)' for '--room <room>': expected 1 to 64 characters without control characters, noncharacters, '=', '/', '+' or '#'")
        }
        let gateway = parsed[Self.gateway]
        if let gateway, !BeaconRegion.isValidName(gateway) {
            throw UsageError("Invalid value '\(gateway)' for '--gateway <name>': expected 1 to 64 characters without control characters, noncharacters, '=', '/', '+' or '#'")
        }
        return MQTTOptions(broker: broker, room: room, gateway: gateway)
    }
}
