import BeaconCore

/// The topics of one gateway (a `beacon range` with a name), which `beacon locate` reads:
///   PREFIX/gateways/NAME/readings   one `GatewayReadings` per ranging tick
///   PREFIX/gateways/NAME/status     online (retained), offline at exit and as the last will
/// With `--gateway`, the region topics move under PREFIX/gateways/NAME too, so gateways sharing a prefix
/// keep their retained states and last wills apart.
public struct GatewayTopics: Sendable {
    public let prefix: String
    public let name: String

    public init(prefix: String, name: String) {
        self.prefix = prefix
        self.name = name
    }

    /// `PREFIX/gateways/NAME`
    public var base: String { "\(prefix)/\(Self.level)/\(name)" }
    public var readings: String { "\(base)/readings" }
    public var status: String { "\(base)/status" }

    /// The topic level under the prefix that holds the gateways.
    public static let level = "gateways"

    /// The same on every run of the gateway (and distinct per prefix and name), so the broker keeps its
    /// session across restarts: `beacon-` and 16 hex digits, within MQTT 3.1's 23 bytes.
    public var clientID: String { Self.stableClientID(prefix: prefix, name: name) }

    /// `beacon-` and 16 hex digits of a hash of `prefix` and `name`: the same on every run.
    public static func stableClientID(prefix: String, name: String) -> String {
        let hex = String(StableHash.fnv1a("\(prefix)\u{0}\(name)"), radix: 16)
        return "beacon-" + String(repeating: "0", count: 16 - hex.count) + hex
    }

    public func message(_ readings: GatewayReadings) -> MQTTMessage {
        MQTTMessage(topic: self.readings, payload: readings.json)
    }
}
