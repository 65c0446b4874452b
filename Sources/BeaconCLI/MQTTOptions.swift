import BeaconCore
import BeaconMQTT
import Glibc

/// `--mqtt`, `--mqtt-ca`, `--room` and `--gateway`: an MQTT broker the lines and readings are also published to.
struct MQTTOptions {
    var address: BrokerAddress
    var caFile: String?
    var room: String?
    /// `--gateway`: this receiver's name among the gateways of `beacon locate`; nil: the host name, and
    /// the region topics and status stay where they were.
    var gateway: String?

    static let specs: [OptionSpec] = [
        OptionSpec("mqtt", .value(placeholder: "url"),
                   "Also publish the lines to this MQTT broker: \(BrokerAddress.forms). Topics: PREFIX/REGION/state "
                   + "(inside or outside, retained), PREFIX/REGION/enter, /exit and /range, and PREFIX/status (online, "
                   + "or offline as the last will). A broker that is away is tried again with backoff; up to "
                   + "\(PublishBounds.queueCapacity) messages or \(PublishBounds.queueBytesText) wait for it, then the oldest are "
                   + "dropped (a btsnoop: replay waits for the broker instead, unless it takes nothing for "
                   + "\(PublishBounds.stallLimit)). Needs "
                   + "libmosquitto (Debian package libmosquitto1), loaded only then; without it the run stops with exit 69."),
        OptionSpec("mqtt-ca", .value(placeholder: "file"), "CA certificate (PEM) that vouches for an mqtts:// broker.",
                   default: "the system's certificates"),
        OptionSpec("room", .value(placeholder: "room"),
                   "The room this receiver is in: also publish Home Assistant mqtt_room messages "
                   + "{\"id\",\"name\",\"distance\"} on \(MonitorTopics.roomPresencePrefix)/ROOM (needs --mqtt)."),
        OptionSpec("gateway", .value(placeholder: "name"),
                   "This receiver's name among the gateways `beacon locate` fuses: each ranging tick's readings go to "
                   + "PREFIX/\(GatewayTopics.level)/NAME/readings (an empty message when no region is inside; RSSI with "
                   + "--rssi-offset added). Given, the region topics and the status (online, "
                   + "offline as the last will) move under PREFIX/\(GatewayTopics.level)/NAME, and the broker session "
                   + "is kept across restarts (a client id derived from the name). Needs --mqtt.",
                   default: "the host name, for the readings only"),
    ]

    /// `--mqtt-ca`: only for an mqtts:// broker, and a file that can be read.
    static func caFile(_ parsed: ParsedOptions, for address: BrokerAddress) throws(UsageError) -> String? {
        guard let caFile = parsed.value("mqtt-ca") else { return nil }
        guard address.tls else { throw UsageError("'--mqtt-ca' applies only to an mqtts:// broker") }
        // libmosquitto would only say "A TLS error occurred." on every retry.
        guard access(caFile, R_OK) == 0 else {
            throw UsageError("Cannot read '--mqtt-ca <file>' \(caFile): \(String(cString: strerror(errno)))")
        }
        return caFile
    }

    /// The broker options given, or nil without `--mqtt`.
    static func parse(_ parsed: ParsedOptions) throws(UsageError) -> MQTTOptions? {
        guard let text = parsed.value("mqtt") else {
            for name in ["mqtt-ca", "room", "gateway"] where parsed.value(name) != nil {
                throw UsageError("'--\(name)' needs '--mqtt'")
            }
            return nil
        }
        let address: BrokerAddress
        switch BrokerAddress.parse(text) {
        case .success(let parsed): address = parsed
        case .failure(let error):
            throw UsageError("Invalid value for '--mqtt <url>': \(error); expected \(BrokerAddress.forms)")
        }
        let caFile = try caFile(parsed, for: address)
        let room = parsed.value("room")
        if let room, !BeaconRegion.isValidName(room) {
            throw UsageError("Invalid value '\(room)' for '--room <room>': expected 1 to 64 characters without control characters, noncharacters, '=', '/', '+' or '#'")
        }
        let gateway = parsed.value("gateway")
        if let gateway, !BeaconRegion.isValidName(gateway) {
            throw UsageError("Invalid value '\(gateway)' for '--gateway <name>': expected 1 to 64 characters without control characters, noncharacters, '=', '/', '+' or '#'")
        }
        return MQTTOptions(address: address, caFile: caFile, room: room, gateway: gateway)
    }
}
