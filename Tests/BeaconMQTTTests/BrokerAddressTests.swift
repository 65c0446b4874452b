@testable import BeaconMQTT
import Testing

@Suite("MQTT broker URLs")
struct BrokerAddressTests {
    @Test("mqtt:// with every part, and the defaults")
    func parses() throws {
        let full = try BrokerAddress.parse("mqtt://ann:s%40cret@broker.local:1884/site/hall").get()
        #expect(full == BrokerAddress(tls: false, host: "broker.local", port: 1884, username: "ann", password: "s@cret",
                                      prefix: "site/hall"))
        #expect(full.description == "mqtt://ann@broker.local:1884/site/hall")
        let bare = try BrokerAddress.parse("mqtt://localhost").get()
        #expect(bare == BrokerAddress(tls: false, host: "localhost", port: 1883, username: nil, password: nil, prefix: "beacon"))
        let tls = try BrokerAddress.parse("mqtts://[::1]/b/").get()
        #expect(tls == BrokerAddress(tls: true, host: "::1", port: 8883, username: nil, password: nil, prefix: "b"))
        #expect(try BrokerAddress.parse("mqtts://[::1]:9000").get().port == 9000)
        #expect(try BrokerAddress.parse("mqtt://u@h").get().password == nil)
    }

    @Test("malformed URLs say what is wrong", arguments: [(String, String)]([
        ("http://h/x", "does not start with mqtt://"),
        ("mqtt://", "the host is missing"),
        ("mqtt://h:0", "port '0' is not in 1...65535"),
        ("mqtt://h:x", "port 'x'"),
        ("mqtt://h/a/+/b", "must not contain"),
        ("mqtt://h/a//b", "empty levels"),
        ("mqtt://:pw@h", "user name"),
        ("mqtt://u:%zz@h", "badly percent-encoded"),
        ("mqtt://[::1/x", "closing ']'"),
        ("mqtt://h:1883:1883", "has a ':'; an IPv6 host goes in brackets"),
        ("mqtt://u%00@h", "the user name has the control character U+0000"),
        ("mqtt://u:p%00@h", "has a NUL"),
        ("mqtt://h/a\u{7}", "the topic prefix has the control character U+0007"),
        ("mqtt://h/a" + String(Unicode.Scalar(0xFDD0)!), "the topic prefix has the noncharacter U+FDD0"),
        ("mqtt://h/" + String(repeating: "p", count: BrokerAddress.maximumPrefixBytes + 1), "more than 65023"),
    ]))
    func refuses(text: String, fragment: String) {
        guard case .failure(let error) = BrokerAddress.parse(text) else {
            Issue.record("accepted \(text)")
            return
        }
        #expect(error.description.contains(fragment), "\(error)")
    }
}
