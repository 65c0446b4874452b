@testable import BeaconMQTT
import Testing

@Suite("a gateway's topics and client id")
struct GatewayTopicsTests {
    @Test("readings and status under PREFIX/gateways/NAME")
    func topics() {
        let topics = GatewayTopics(prefix: "site", name: "kitchen")
        #expect(topics.readings == "site/gateways/kitchen/readings")
        #expect(topics.status == "site/gateways/kitchen/status")
        #expect(topics.base == "site/gateways/kitchen")
    }

    @Test("the client id is the same for the same prefix and name, differs otherwise, and fits MQTT 3.1's 23 bytes")
    func clientID() {
        let id = GatewayTopics(prefix: "site", name: "kitchen").clientID
        #expect(id == GatewayTopics(prefix: "site", name: "kitchen").clientID)
        #expect(id != GatewayTopics(prefix: "site", name: "hall").clientID)
        #expect(id != GatewayTopics(prefix: "other", name: "kitchen").clientID)
        #expect(GatewayTopics(prefix: "sit", name: "ekitchen").clientID != id)
        #expect(id.utf8.count == 23)
        #expect(id.hasPrefix("beacon-"))
    }
}
