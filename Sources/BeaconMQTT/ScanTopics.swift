import BeaconCore

/// The topics of `beacon scan`'s lines, one per device as Theengs Gateway publishes them:
///   PREFIX/devices/ID   each beacon line (or advertisement line, with --each) of the device
/// ID is Home Assistant mqtt_room's id for a frame with an identity (`BeaconID.deviceID`: iBeacon,
/// AltBeacon, Eddystone-UID), else the device's address as 12 lower-case hex digits (Eddystone URL, EID, TLM).
/// With `--gateway`, PREFIX is PREFIX/gateways/NAME, as for range's region topics.
public struct ScanTopics: Sendable {
    public let prefix: String

    /// The topic level under the prefix that holds the devices.
    public static let level = "devices"

    public init(prefix: String) {
        self.prefix = prefix
    }

    /// `output`, whose JSON line is `line`, as a message on its device's topic.
    public func message(for output: ScanOutput, line: String) -> MQTTMessage {
        let (frame, address) = switch output {
        case .beacon(let beacon, _, _): (beacon.frame, beacon.address)
        case .advertisement(let sighting): (sighting.frame, sighting.address)
        }
        return MQTTMessage(topic: "\(prefix)/\(Self.level)/\(Self.deviceID(frame, address: address))", payload: line)
    }

    /// The device's topic level: see the type's documentation.
    public static func deviceID(_ frame: BeaconFrame, address: DeviceAddress) -> String {
        if let identity = frame.identity { return identity.deviceID }
        let hex = String(address.value, radix: 16)
        return String(repeating: "0", count: 12 - hex.count) + hex
    }
}
