import BeaconCore
import Testing

@Suite("reading a gateway's readings message from the broker: hostile input refused in one line")
struct GatewayReadingsDecodingTests {
    static let documented = #"{"gateway":"gw1","time":"2026-12-03T07:38:29.000Z","seq":12,"beacons":[{"id":"e2c56db5-dffb-48d2-b060-d0f5a71096e0-1-1","rssi":-61.3,"filteredRssi":-60.5,"spread":1.23,"samples":9,"measuredPower":-59,"accuracy":1.50}]}"#

    func decode(_ text: String, gateway: String = "gw1") -> Result<GatewayReadings, ReadingsError> {
        Result { () throws(ReadingsError) in try GatewayReadings.decode(Array(text.utf8), gateway: gateway) }
    }

    @Test("the example message of docs/recipes.md is read, and a message's own JSON reads back the same")
    func documentedExample() throws {
        let message = try decode(Self.documented).get()
        #expect(message.gateway == "gw1")
        #expect(message.sequence == 12)
        #expect(message.time.iso8601 == "2026-12-03T07:38:29.000Z")
        #expect(message.readings == [BeaconReading(id: "e2c56db5-dffb-48d2-b060-d0f5a71096e0-1-1", rssi: -61.3, filteredRSSI: -60.5,
                                                   spread: 1.23, samples: 9, measuredPower: -59, accuracy: 1.5)])
        #expect(try decode(message.json).get() == message)
    }

    @Test("a replay's message says so after its number; read back, true or false, absent meaning live")
    func replayFlag() throws {
        let message = try decode(Self.documented).get()
        #expect(!message.replay && !message.json.contains("replay"))
        var replayed = message
        replayed.replay = true
        #expect(replayed.json.hasPrefix(#"{"gateway":"gw1","time":"2026-12-03T07:38:29.000Z","seq":12,"replay":true,"beacons":["#))
        #expect(try decode(replayed.json).get() == replayed)
        #expect(try decode(Self.documented.replacingOccurrences(of: #""seq":12"#, with: #""seq":12,"replay":false"#)).get() == message)
    }

    static let refused: [String] = [
        "", "{", "[]", "null", #"{"gateway":"gw1""#, "{\"gateway\":\"gw1\"}\u{0}",
        // Wrong types.
        Self.documented.replacingOccurrences(of: #""gateway":"gw1""#, with: #""gateway":1"#),
        Self.documented.replacingOccurrences(of: #""seq":12"#, with: #""seq":"12""#),
        Self.documented.replacingOccurrences(of: #""seq":12"#, with: #""seq":1.5"#),
        Self.documented.replacingOccurrences(of: #""seq":12"#, with: #""seq":0"#),
        Self.documented.replacingOccurrences(of: #""seq":12"#, with: #""seq":12,"replay":"yes""#),
        Self.documented.replacingOccurrences(of: #""seq":12"#, with: #""seq":12,"replay":1"#),
        Self.documented.replacingOccurrences(of: #""time":"2026-12-03T07:38:29.000Z""#, with: #""time":1"#),
        Self.documented.replacingOccurrences(of: #""time":"2026-12-03T07:38:29.000Z""#, with: #""time":"yesterday""#),
        Self.documented.replacingOccurrences(of: #""beacons":["#, with: #""beacons":{"a":"#).replacingOccurrences(of: "}]}", with: "}}}"),
        Self.documented.replacingOccurrences(of: #""rssi":-61.3"#, with: #""rssi":"-61.3""#),
        Self.documented.replacingOccurrences(of: #""id":"e2c56db5-dffb-48d2-b060-d0f5a71096e0-1-1""#, with: #""id":"""#),
        Self.documented.replacingOccurrences(of: #""id":"e2c56db5-dffb-48d2-b060-d0f5a71096e0-1-1""#, with: #""id":""# + String(repeating: "x", count: 129) + #"""#),
        Self.documented.replacingOccurrences(of: #""id":"e2c56db5-dffb-48d2-b060-d0f5a71096e0-1-1""#, with: #""id":"a/b""#),
        Self.documented.replacingOccurrences(of: #""id":"e2c56db5-dffb-48d2-b060-d0f5a71096e0-1-1""#, with: ##""id":"a#""##),
        Self.documented.replacingOccurrences(of: #""id":"e2c56db5-dffb-48d2-b060-d0f5a71096e0-1-1""#, with: #""id":"a+b""#),
        Self.documented.replacingOccurrences(of: #""id":"e2c56db5-dffb-48d2-b060-d0f5a71096e0-1-1""#, with: #""id":"a\uFFFE""#),
        Self.documented.replacingOccurrences(of: #""id":"e2c56db5-dffb-48d2-b060-d0f5a71096e0-1-1""#, with: #""id":"a\u0001""#),
        Self.documented.replacingOccurrences(of: #""samples":9"#, with: #""samples":0"#),
        // NaN and infinities as text, huge numbers.
        Self.documented.replacingOccurrences(of: #""accuracy":1.50"#, with: #""accuracy":NaN"#),
        Self.documented.replacingOccurrences(of: #""accuracy":1.50"#, with: #""accuracy":"NaN""#),
        Self.documented.replacingOccurrences(of: #""rssi":-61.3"#, with: #""rssi":-Infinity"#),
        Self.documented.replacingOccurrences(of: #""accuracy":1.50"#, with: #""accuracy":1e400"#),
        Self.documented.replacingOccurrences(of: #""accuracy":1.50"#, with: #""accuracy":1e6"#),
        Self.documented.replacingOccurrences(of: #""seq":12"#, with: #""seq":1e300"#),
        Self.documented.replacingOccurrences(of: #""seq":12"#, with: #""seq":9007199254740993"#),
        Self.documented.replacingOccurrences(of: #""measuredPower":-59"#, with: #""measuredPower":-1e30"#),
        // Deep nesting.
        Self.documented.replacingOccurrences(of: #""spread":1.23"#, with: #""spread":1.23,"extra":[[[[[]]]]]"#),
        String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000),
        // Another gateway's name.
        Self.documented.replacingOccurrences(of: #""gateway":"gw1""#, with: #""gateway":"gw2""#),
    ]

    @Test("malformed JSON, wrong types, NaN, huge numbers, deep nesting: refused in one line", arguments: refused.indices)
    func refuses(index: Int) {
        switch decode(Self.refused[index]) {
        case .success(let message): Issue.record("read \(message)")
        case .failure(let error):
            #expect(!error.description.isEmpty && !error.description.contains("\n"), "\(error)")
        }
    }

    @Test("a message published on another gateway's topic is refused, naming both")
    func wrongTopic() {
        guard case .failure(let error) = decode(Self.documented, gateway: "gw2") else { Issue.record("read"); return }
        #expect(error.description.contains("gw1") && error.description.contains("gw2"))
    }

    @Test("a gateway name with control characters is refused in one line")
    func controlCharactersInName() {
        let text = Self.documented.replacingOccurrences(of: #""gateway":"gw1""#, with: #""gateway":"gw\r\nforged\u001b[2J""#)
        guard case .failure(let error) = decode(text) else { Issue.record("read"); return }
        #expect(!error.description.contains("\r") && !error.description.contains("\n") && !error.description.contains("\u{1B}"), "\(error)")
    }

    @Test("more than maximumBeacons readings are refused; exactly that many are read")
    func tooManyBeacons() throws {
        func message(_ count: Int) -> String {
            let beacon = #"{"id":"b","rssi":-60,"filteredRssi":-60,"spread":0,"samples":1,"measuredPower":-59,"accuracy":1}"#
            return #"{"gateway":"gw1","time":"2026-12-03T07:38:29.000Z","seq":1,"beacons":["#
                + Array(repeating: beacon, count: count).joined(separator: ",") + "]}"
        }
        #expect(try decode(message(GatewayReadings.maximumBeacons)).get().readings.count == GatewayReadings.maximumBeacons)
        guard case .failure(let error) = decode(message(GatewayReadings.maximumBeacons + 1)) else { Issue.record("read"); return }
        #expect(error.description.contains("more than"))
    }

    @Test("an unknown distance (-1 or any negative) reads as -1")
    func unknownDistance() throws {
        let message = try decode(Self.documented.replacingOccurrences(of: #""accuracy":1.50"#, with: #""accuracy":-0.5"#)).get()
        #expect(message.readings[0].accuracy == -1)
    }
}
