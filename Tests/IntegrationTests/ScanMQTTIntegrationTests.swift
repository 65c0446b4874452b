import Foundation
import Testing

/// `beacon scan --mqtt` against a real mosquitto broker on loopback, checked by a subscriber: every line
/// on its device's topic, the status with its last will, and the topics of a named gateway.
@Suite(
    "beacon scan --mqtt against a mosquitto broker",
    .enabled(if: IntegrationGate.isEnabled && MosquittoBroker.isInstalled, IntegrationGate.reason),
    .timeLimit(.minutes(5)))
struct ScanMQTTIntegrationTests {
    /// The device topic level of an iBeacon scan line: its mqtt_room id.
    private func deviceID(_ line: String) throws -> String {
        let fields = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        let uuid = try #require(fields["uuid"] as? String)
        let major = try #require(fields["major"] as? Int)
        let minor = try #require(fields["minor"] as? Int)
        return "\(uuid.lowercased())-\(major)-\(minor)"
    }

    @Test("each beacon line on PREFIX/devices/ID, the status online then offline and retained; --gateway moves both under the gateway")
    func scanPublishesEveryDevice() async throws {
        try await MosquittoBroker.with { broker, scratch in
            let capture = scratch.appendingPathComponent("desk.btsnoop").path
            let simulate = try await BeaconProcess.run(["simulate", "--scene", "desk", "--duration", "20s", "--out", capture])
            #expect(simulate.termination == .exited(0))
            let subscriber = try await MQTTSubscriber.start(port: broker.port, topics: ["site/#"])
            let scan = try await BeaconProcess.run(["scan", "--hci", "btsnoop:\(capture)", "--mqtt", broker.url(prefix: "site")])
            #expect(scan.termination == .exited(0), "\(scan.failure("exit status"))")
            let lines = scan.stdoutLines
            #expect(lines.count >= 15)
            try await subscriber.waitUntil("the offline status") {
                MQTTSubscriber.messages(subscriber).contains { $0.topic == "site/status" && $0.payload == "offline" }
            }
            let received = MQTTSubscriber.messages(subscriber)
            let devices = received.filter { $0.topic.hasPrefix("site/devices/") }
            #expect(devices.map(\.payload) == lines, "every line, in order, and nothing else")
            for (message, line) in zip(devices, lines) {
                #expect(message.topic == "site/devices/\(try deviceID(line))")
            }
            #expect(Set(devices.map(\.topic)) == ["site/devices/e2c56db5-dffb-48d2-b060-d0f5a71096e0-1-1"])
            #expect(received.filter { $0.topic == "site/status" }.map(\.payload) == ["online", "offline"])
            await subscriber.stop()

            let named = try await BeaconProcess.run(["scan", "--hci", "btsnoop:\(capture)", "--mqtt", broker.url(prefix: "site"),
                                                     "--gateway", "hall"])
            #expect(named.termination == .exited(0), "\(named.failure("exit status"))")
            let late = try await MQTTSubscriber.start(port: broker.port, topics: ["site/#"])
            try await late.waitUntil("the retained statuses") { MQTTSubscriber.messages(late).count >= 2 }
            let retained = MQTTSubscriber.messages(late)
            #expect(retained.allSatisfy { $0.retained })
            #expect(Set(retained.map { "\($0.topic) \($0.payload)" }) == ["site/status offline", "site/gateways/hall/status offline"],
                    "device lines are not retained")
            await late.stop()
        }
    }

    @Test("a named scan publishes its lines under PREFIX/gateways/NAME/devices/ID")
    func namedScanTopics() async throws {
        try await MosquittoBroker.with { broker, scratch in
            let capture = scratch.appendingPathComponent("desk.btsnoop").path
            let simulate = try await BeaconProcess.run(["simulate", "--scene", "desk", "--duration", "5s", "--out", capture])
            #expect(simulate.termination == .exited(0))
            let subscriber = try await MQTTSubscriber.start(port: broker.port, topics: ["site/#"])
            let scan = try await BeaconProcess.run(["scan", "--hci", "btsnoop:\(capture)", "--mqtt", broker.url(prefix: "site"),
                                                    "--gateway", "hall", "--each"])
            #expect(scan.termination == .exited(0), "\(scan.failure("exit status"))")
            try await subscriber.waitUntil("the offline status") {
                MQTTSubscriber.messages(subscriber).contains { $0.topic == "site/gateways/hall/status" && $0.payload == "offline" }
            }
            let received = MQTTSubscriber.messages(subscriber)
            let devices = received.filter { $0.topic != "site/gateways/hall/status" }
            #expect(!scan.stdoutLines.isEmpty)
            #expect(devices.map(\.payload) == scan.stdoutLines)
            #expect(Set(devices.map(\.topic)) == ["site/gateways/hall/devices/e2c56db5-dffb-48d2-b060-d0f5a71096e0-1-1"])
            await subscriber.stop()
        }
    }
}
