import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `beacon range --mqtt` against a real mosquitto broker on loopback, checked by a subscriber:
/// retained state for a late subscriber, the last will, and a broker restart mid-run.
@Suite(
    "beacon range --mqtt against a mosquitto broker",
    .enabled(if: IntegrationGate.isEnabled && MosquittoBroker.isInstalled, IntegrationGate.reason),
    .timeLimit(.minutes(10)))
struct MQTTIntegrationTests {
    private static let uuid = TestBeacon.uuid

    private func withBroker(_ body: (MosquittoBroker, URL) async throws -> Void) async throws {
        try await MosquittoBroker.with(body)
    }


    @Test("a replayed capture: every line on its topic, mqtt_room messages, and the retained state and status for a late subscriber")
    func replayPublishes() async throws {
        try await withBroker { broker, scratch in
            let capture = scratch.appendingPathComponent("desk.btsnoop").path
            let simulate = try await BeaconProcess.run(["simulate", "--scene", "desk", "--out", capture])
            #expect(simulate.termination == .exited(0))
            let subscriber = try await MQTTSubscriber.start(port: broker.port, topics: ["site/#", "room_presence/#"])
            let beacon = try await BeaconProcess.run(
                ["range", "--hci", "btsnoop:\(capture)", "--uuid", Self.uuid, "--name", "desk",
                 "--mqtt", broker.url(prefix: "site"), "--room", "office"])
            #expect(beacon.termination == .exited(0), "\(beacon.failure("exit status"))")

            let ranges = beacon.stdoutLines.filter { BeaconOutputLine.event(of: $0) == "range" }
            #expect(ranges.count > 100)
            // The offline status is the last message beacon sends before it disconnects.
            try await subscriber.waitUntil("the offline status") {
                MQTTSubscriber.messages(subscriber).contains { $0.topic == "site/status" && $0.payload == "offline" }
            }
            let received = MQTTSubscriber.messages(subscriber)
            #expect(received.filter { $0.topic == "site/desk/range" }.map(\.payload) == ranges)
            #expect(received.filter { $0.topic == "site/desk/enter" }.count == 1)
            #expect(received.filter { $0.topic == "site/desk/state" }.map(\.payload) == ["inside"])
            #expect(received.map(\.topic).filter { $0 == "site/status" }.count == 2)
            let rooms = received.filter { $0.topic == "room_presence/office" }
            #expect(!rooms.isEmpty)
            let presence = try #require(rooms.first.map { try JSONSerialization.jsonObject(with: Data($0.payload.utf8)) } as? [String: Any])
            #expect(presence["id"] as? String == "e2c56db5-dffb-48d2-b060-d0f5a71096e0-1-1")
            #expect(presence["name"] as? String == "desk")
            #expect(presence["distance"] is Double)
            await subscriber.stop()

            let late = try await MQTTSubscriber.start(port: broker.port, topics: ["site/#"])
            try await late.waitUntil("the retained messages") { MQTTSubscriber.messages(late).count >= 2 }
            let retained = MQTTSubscriber.messages(late)
            #expect(retained.allSatisfy { $0.retained })
            #expect(Set(retained.map { "\($0.topic) \($0.payload)" }) == ["site/desk/state inside", "site/status offline"])
            await late.stop()
        }
    }

    @Test("a broker that wants a login: the password from --mqtt-password-file or BEACON_MQTT_PASSWORD logs in; one in the URL is warned of")
    func passwordLogin() async throws {
        let password = "s3cret pass"
        try await MosquittoBroker.with(users: ["gw": password]) { broker, scratch in
            let capture = scratch.appendingPathComponent("short.btsnoop").path
            let simulate = try await BeaconProcess.run(["simulate", "--scene", "desk", "--duration", "1s", "--out", capture])
            #expect(simulate.termination == .exited(0))
            let passwordFile = scratch.appendingPathComponent("mqtt-password").path
            try "\(password)\n".write(toFile: passwordFile, atomically: true, encoding: .utf8)
            let subscriber = try await MQTTSubscriber.start(port: broker.port, topics: ["site/#"], login: ("gw", password))
            let url = "mqtt://gw@127.0.0.1:\(broker.port)/site"
            let range = ["range", "--hci", "btsnoop:\(capture)", "--uuid", Self.uuid, "--name", "desk"]
            let fromFile = try await BeaconProcess.run(range + ["--mqtt", url, "--mqtt-password-file", passwordFile],
                                                       environment: ["BEACON_MQTT_PASSWORD": "wrong"])
            let fromEnvironment = try await BeaconProcess.run(range + ["--mqtt", url], environment: ["BEACON_MQTT_PASSWORD": password])
            let inURL = try await BeaconProcess.run(range + ["--mqtt", "mqtt://gw:s3cret%20pass@127.0.0.1:\(broker.port)/site"])
            for run in [fromFile, fromEnvironment, inURL] {
                #expect(run.termination == .exited(0), "\(run.failure("exit status"))")
            }
            try await subscriber.waitUntil("three logged-in runs") {
                MQTTSubscriber.messages(subscriber).filter { $0.topic == "site/desk/enter" }.count == 3
            }
            #expect(fromFile.stderrLines.isEmpty, "\(fromFile.stderrLines)")
            #expect(fromEnvironment.stderrLines.isEmpty, "\(fromEnvironment.stderrLines)")
            #expect(inURL.stderrLines == ["Warning: the '--mqtt' URL's password shows in ps(1) to every user of this machine; "
                                          + "put it in a file for '--mqtt-password-file' or in BEACON_MQTT_PASSWORD instead"])
            await subscriber.stop()
        }
    }

    @Test("short replays one after another: each waits for its connection at exit, and every line reaches the broker")
    func shortReplayDeliversEverything() async throws {
        try await withBroker { broker, scratch in
            let capture = scratch.appendingPathComponent("short.btsnoop").path
            let simulate = try await BeaconProcess.run(["simulate", "--scene", "desk", "--duration", "1s", "--out", capture])
            #expect(simulate.termination == .exited(0))
            let subscriber = try await MQTTSubscriber.start(port: broker.port, topics: ["site/#"])
            // Each run races the connection against the end of the replay.
            for _ in 1...3 {
                let beacon = try await BeaconProcess.run(
                    ["range", "--hci", "btsnoop:\(capture)", "--uuid", Self.uuid, "--name", "desk", "--mqtt", broker.url(prefix: "site")])
                #expect(beacon.termination == .exited(0), "\(beacon.failure("exit status"))")
                #expect(!beacon.stderrLines.contains { $0.contains("not delivered") }, "\(beacon.stderrLines)")
            }
            try await subscriber.waitUntil("three offline statuses") {
                MQTTSubscriber.messages(subscriber).filter { $0.topic == "site/status" && $0.payload == "offline" }.count == 3
            }
            #expect(MQTTSubscriber.messages(subscriber).filter { $0.topic == "site/desk/enter" }.count == 3)
            await subscriber.stop()
        }
    }

    @Test("a replay busier than the queue waits for the broker: every range line and mqtt_room message arrives, none dropped")
    func busyReplayDropsNothing() async throws {
        try await withBroker { broker, scratch in
            let capture = scratch.appendingPathComponent("crowd.btsnoop").path
            let simulate = try await BeaconProcess.run(["simulate", "--scene", "crowd", "--out", capture])
            #expect(simulate.termination == .exited(0))
            let subscriber = try await MQTTSubscriber.start(port: broker.port, topics: ["site/+/range", "room_presence/#"])
            // A broker that takes nothing for a while: the queue fills long before the capture ends.
            broker.pause()
            let beacon = try BeaconProcess.start(
                ["range", "--hci", "btsnoop:\(capture)", "--uuid", Self.uuid, "--name", "floor",
                 "--mqtt", broker.url(prefix: "site"), "--room", "office"], limit: HangGuard.processLimit)
            try await beacon.waitForOutput(within: HangGuard.step, "200 lines") { $0.count >= 200 }
            // A replay that does not wait would run to its end meanwhile, dropping, and give up on the broker.
            let patience = ContinuousClock.now + .seconds(5)
            while beacon.isRunning, ContinuousClock.now < patience { try await Task.sleep(for: .milliseconds(50)) }
            broker.resume()
            #expect(try await beacon.waitForExit(within: HangGuard.step) == .exited(0), "\(beacon.failure("exit status"))")
            #expect(!beacon.stderrLines.contains { $0.contains("dropped") || $0.contains("not delivered") }, "\(beacon.stderrLines)")
            let ranges = beacon.stdoutLines.compactMap { line -> [[String: Any]]? in
                guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                      object["event"] as? String == "range" else { return nil }
                return object["beacons"] as? [[String: Any]] ?? []
            }
            let roomMessages = ranges.reduce(0) { $0 + $1.count { ($0["accuracy"] as? Double ?? -1) >= 0 } }
            // More than the queue holds: a replay that dropped the oldest could not deliver them all.
            #expect(ranges.count + roomMessages > 10_000, "\(ranges.count) + \(roomMessages)")
            try await subscriber.waitUntil("every message") {
                MQTTSubscriber.messages(subscriber).count >= ranges.count + roomMessages
            }
            let received = MQTTSubscriber.messages(subscriber)
            #expect(received.count { $0.topic == "site/floor/range" } == ranges.count)
            #expect(received.count { $0.topic == "room_presence/office" } == roomMessages)
            await subscriber.stop()
        }
    }

    @Test("two named gateways on one prefix: each its own retained state and status, and a readings message per tick on the range lines' times")
    func namedGateways() async throws {
        try await withBroker { broker, scratch in
            let capture = scratch.appendingPathComponent("desk.btsnoop").path
            let simulate = try await BeaconProcess.run(["simulate", "--scene", "desk", "--duration", "20s", "--out", capture])
            #expect(simulate.termination == .exited(0))
            let subscriber = try await MQTTSubscriber.start(port: broker.port, topics: ["site/#"])
            var ranges: [String: [String]] = [:]
            for gateway in ["gw1", "gw2"] {
                let beacon = try await BeaconProcess.run(
                    ["range", "--hci", "btsnoop:\(capture)", "--uuid", Self.uuid, "--name", "desk",
                     "--mqtt", broker.url(prefix: "site"), "--gateway", gateway])
                #expect(beacon.termination == .exited(0), "\(beacon.failure("exit status"))")
                ranges[gateway] = beacon.stdoutLines.filter { BeaconOutputLine.event(of: $0) == "range" }
            }
            try await subscriber.waitUntil("both offline statuses") {
                MQTTSubscriber.messages(subscriber).count { $0.topic.hasSuffix("/status") && $0.payload == "offline" } == 2
            }
            let received = MQTTSubscriber.messages(subscriber)
            #expect(!received.contains { $0.topic == "site/status" || $0.topic.hasPrefix("site/desk/") })
            for gateway in ["gw1", "gw2"] {
                let base = "site/gateways/\(gateway)"
                #expect(received.filter { $0.topic == "\(base)/status" }.map(\.payload) == ["online", "offline"])
                #expect(received.filter { $0.topic == "\(base)/desk/state" }.map(\.payload) == ["inside"])
                let lines = try #require(ranges[gateway])
                #expect(received.filter { $0.topic == "\(base)/desk/range" }.map(\.payload) == lines)
                let readings = try received.filter { $0.topic == "\(base)/readings" }.map {
                    try #require(try JSONSerialization.jsonObject(with: Data($0.payload.utf8)) as? [String: Any])
                }
                #expect(readings.count == lines.count)
                #expect(readings.map { $0["seq"] as? Int } == Array(1...readings.count))
                #expect(readings.allSatisfy { $0["gateway"] as? String == gateway && $0["replay"] as? Bool == true })
                let lineTimes = try lines.map { try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])["time"] as? String }
                #expect(readings.map { $0["time"] as? String } == lineTimes)
                let heard = readings.compactMap { ($0["beacons"] as? [[String: Any]])?.first }
                #expect(heard.count > lines.count / 2)
                #expect(heard.allSatisfy { $0["id"] as? String == "e2c56db5-dffb-48d2-b060-d0f5a71096e0-1-1" && $0["spread"] is Double })
            }
            await subscriber.stop()
        }
    }

    @Test("beacon killed: the broker publishes the last will, status offline")
    func lastWill() async throws {
        try await withBroker { broker, _ in
            try await BumbleRig.with { rig in
                let subscriber = try await MQTTSubscriber.start(port: broker.port, topics: ["beacon/status"])
                let beacon = try BeaconProcess.start(["range", "--hci", rig.specs[1], "--uuid", Self.uuid,
                                                      "--mqtt", broker.url(prefix: "beacon")], limit: HangGuard.processLimit)
                try await subscriber.waitUntil("status online") {
                    MQTTSubscriber.messages(subscriber).last?.payload == "online"
                }
                beacon.send(SIGKILL)
                try await beacon.waitForExit(within: HangGuard.step)
                try await subscriber.waitUntil("the last will") {
                    MQTTSubscriber.messages(subscriber).last?.payload == "offline"
                }
                #expect(MQTTSubscriber.messages(subscriber).map(\.payload) == ["online", "offline"])
                await subscriber.stop()
            }
        }
    }

    @Test("the broker restarts mid-run: ranging and stdout go on, and every line reaches the subscriber")
    func brokerRestart() async throws {
        try await withBroker { broker, _ in
            try await BumbleRig.with { rig in
                let advertiser = try await rig.advertise(on: 0, uuid: Self.uuid, major: TestBeacon.major, minor: TestBeacon.minor)
                // A persistent session: the broker keeps what arrives for it while it is away.
                let subscriber = try await MQTTSubscriber.start(port: broker.port, topics: ["beacon/+/range"], session: "restart-check")
                let beacon = try BeaconProcess.start(["range", "--hci", rig.specs[1], "--uuid", Self.uuid, "--interval", "100ms",
                                                      "--mqtt", broker.url(prefix: "beacon")], limit: HangGuard.processLimit)
                try await subscriber.waitUntil("range messages") { MQTTSubscriber.messages(subscriber).count >= 5 }

                try await broker.stopAndWait()
                try await beacon.waitUntil("beacon noticing") { beacon.stderrLines.contains { $0.contains("Warning: MQTT: lost") } }
                let whileAway = beacon.stdoutLines.count
                // Ranging goes on without the broker.
                try await beacon.waitForLine(from: whileAway + 10, within: HangGuard.step, "range lines while the broker is away") {
                    BeaconOutputLine.event(of: $0) == "range"
                }
                try await broker.restart()
                try await beacon.waitUntil("beacon reconnecting") {
                    beacon.stderrLines.contains { $0.contains("Warning: MQTT: connected to") && $0.contains("again") }
                }
                try await beacon.waitForLine(from: beacon.stdoutLines.count + 5, within: HangGuard.step, "range lines after the restart") {
                    BeaconOutputLine.event(of: $0) == "range"
                }
                beacon.send(SIGINT)
                #expect(try await beacon.waitForExit(within: HangGuard.step) == .exited(0))
                await advertiser.stop()

                let printed = Set(beacon.stdoutLines.filter { BeaconOutputLine.event(of: $0) == "range" })
                try await subscriber.waitUntil("every range line", within: HangGuard.step) {
                    printed.isSubset(of: Set(MQTTSubscriber.messages(subscriber).map(\.payload)))
                }
                // Well within the queue bound: nothing dropped, and everything delivered by the exit.
                #expect(beacon.stderrLines.contains { $0.contains("again;") && $0.hasSuffix(", 0 dropped so far") }, "\(beacon.stderrLines)")
                #expect(!beacon.stderrLines.contains { $0.contains("not delivered") || $0.contains("dropped when") }, "\(beacon.stderrLines)")
                await subscriber.stop()
            }
        }
    }
}
