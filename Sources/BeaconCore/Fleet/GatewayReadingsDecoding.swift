/// Reading a readings message from the broker, a network input: anything that is not a well-formed
/// message within the bounds below is refused with a one-line reason, never trusted in part.
extension GatewayReadings {
    /// The largest message read (a tick of 1,000 beacons is about 160 kB).
    public static let maximumMessageBytes = 1 << 20
    /// Objects and arrays nest 3 deep in a message.
    public static let maximumNesting = 4
    /// Readings in one message.
    public static let maximumBeacons = 10_000
    /// Beyond any real RSSI (dBm) or distance (metres): a larger value is not a reading.
    static let rssiRange = -200.0...50.0
    static let maximumDistance = 1_000.0

    /// Decodes a message's payload; `gateway`, from the topic, must be the one the message names.
    public static func decode(_ payload: [UInt8], gateway: String) throws(ReadingsError) -> GatewayReadings {
        let json: JSONValue
        do {
            json = try JSONValue.parse(payload, maximumDepth: maximumNesting, maximumBytes: maximumMessageBytes)
        } catch {
            throw ReadingsError("not a readings message: \(error)")
        }
        guard json.object != nil else { throw ReadingsError("expected an object, found \(json.kind)") }
        guard let name = json["gateway"]?.string else { throw ReadingsError("gateway: expected a string") }
        // The names are the sender's text: quoted, so a control character cannot break the line.
        guard name == gateway else {
            throw ReadingsError("gateway: \(JSONValue.quoted(name)) published on the topic of \(JSONValue.quoted(gateway))")
        }
        guard let timeText = json["time"]?.string, let time = TimestampText.parse(timeText) else {
            throw ReadingsError("time: expected an ISO 8601 time such as 2026-12-03T07:38:29.000Z")
        }
        guard let sequence = json["seq"]?.number, sequence >= 1, sequence <= 9_007_199_254_740_991, sequence.rounded() == sequence else {
            throw ReadingsError("seq: expected a whole number from 1")
        }
        let replay = json["replay"]
        guard replay == nil || replay?.bool != nil else { throw ReadingsError("replay: expected true or false") }
        guard let beacons = json["beacons"]?.array else { throw ReadingsError("beacons: expected an array") }
        guard beacons.count <= maximumBeacons else { throw ReadingsError("beacons: more than \(maximumBeacons)") }
        var readings: [BeaconReading] = []
        readings.reserveCapacity(beacons.count)
        for (index, beacon) in beacons.enumerated() {
            readings.append(try reading(beacon, at: "beacons[\(index)]"))
        }
        return GatewayReadings(gateway: name, time: time, sequence: Int(sequence), replay: replay?.bool ?? false, readings: readings)
    }

    private static func reading(_ json: JSONValue, at path: String) throws(ReadingsError) -> BeaconReading {
        guard json.object != nil else { throw ReadingsError("\(path): expected an object, found \(json.kind)") }
        // The id becomes a topic level (PREFIX/beacons/ID/room) and a Home Assistant object id.
        guard let id = json["id"]?.string, !id.isEmpty, id.utf8.count <= 128,
              id.unicodeScalars.allSatisfy({ !$0.isControlOrNoncharacter && $0 != "/" && $0 != "+" && $0 != "#" }) else {
            throw ReadingsError("\(path).id: expected a string of 1 to 128 bytes without control characters, noncharacters, '/', '+' or '#'")
        }
        func number(_ key: String, _ range: ClosedRange<Double>) throws(ReadingsError) -> Double {
            guard let value = json[key]?.number, range.contains(value) else {
                throw ReadingsError("\(path).\(key): expected a number from \(range.lowerBound) to \(range.upperBound)")
            }
            return value
        }
        let accuracy = try number("accuracy", -1...maximumDistance)
        return BeaconReading(id: id, rssi: try number("rssi", rssiRange), filteredRSSI: try number("filteredRssi", rssiRange),
                             spread: try number("spread", 0...100), samples: Int(try number("samples", 1...1_000_000)),
                             measuredPower: Int(try number("measuredPower", -127...127)),
                             accuracy: accuracy < 0 ? -1 : accuracy)
    }
}

/// Why a readings message was refused.
public struct ReadingsError: Error, Equatable, Sendable, CustomStringConvertible {
    public var description: String

    public init(_ description: String) { self.description = description }
}
