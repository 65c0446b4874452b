import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `beacon locate` against a real mosquitto, fed by `beacon range --gateway` replays.
@Suite(
    "beacon locate fusing gateways over a mosquitto broker",
    .enabled(if: IntegrationGate.isEnabled && MosquittoBroker.isInstalled, IntegrationGate.reason),
    .timeLimit(.minutes(10)))
struct LocateIntegrationTests {
    private static let uuid = TestBeacon.uuid
    private static let beaconID = "e2c56db5-dffb-48d2-b060-d0f5a71096e0-1-1"

    /// A broker, a scratch directory holding the site file, and a capture of `scene` for `duration`:
    /// `body` gets the broker, the capture's path and the site's.
    private func withCapture(_ scene: String, _ duration: String,
                             _ body: (MosquittoBroker, String, String) async throws -> Void) async throws {
        try await MosquittoBroker.with { broker, scratch in
            let capture = scratch.appendingPathComponent("\(scene).btsnoop").path
            let sitePath = scratch.appendingPathComponent("site.json").path
            try TestSite.officeAndHall.write(toFile: sitePath, atomically: true, encoding: .utf8)
            #expect(try await BeaconProcess.run(["simulate", "--scene", scene, "--duration", duration, "--out", capture]).termination == .exited(0))
            try await body(broker, capture, sitePath)
        }
    }

    /// A `beacon locate` of the replays (until every gateway is offline), once it is subscribed.
    private func startLocate(_ broker: MosquittoBroker, site: String, prefix: String = "site", shard: String? = nil,
                             extra: [String] = []) async throws -> ChildProcess {
        let locate = try BeaconProcess.start(["locate", "--mqtt", broker.url(prefix: prefix), "--site", site,
                                              "--until-offline", "--max-lateness", "none"] + (shard.map { ["--shard", $0] } ?? []) + extra,
                                             limit: HangGuard.processLimit)
        let status = shard.map { "\(prefix)/locate/\($0.replacingOccurrences(of: "/", with: "-"))/status" } ?? "\(prefix)/locate/status"
        try await MQTTSubscriber.waitFor(port: broker.port, topic: status, payload: "online")
        return locate
    }

    /// Replays `capture` as each gateway, `offsets` (dB) making each hear the beacon nearer or farther.
    private func replayGateways(_ offsets: [(String, Int)], capture: String, broker: MosquittoBroker, prefix: String = "site",
                                together: Bool = false) async throws {
        func arguments(_ gateway: String, _ offset: Int) -> [String] {
            ["range", "--hci", "btsnoop:\(capture)", "--uuid", Self.uuid, "--rssi-offset", "\(offset)",
             "--mqtt", broker.url(prefix: prefix), "--gateway", gateway]
        }
        if together {
            let ranges = try offsets.map { try BeaconProcess.start(arguments($0.0, $0.1), limit: HangGuard.processLimit) }
            for range in ranges {
                #expect(try await range.waitForExit(within: HangGuard.step) == .exited(0), "\(range.failure("exit status"))")
            }
            return
        }
        for (gateway, offset) in offsets {
            let range = try await BeaconProcess.run(arguments(gateway, offset))
            #expect(range.termination == .exited(0), "\(range.failure("exit status"))")
        }
    }

    @Test("three gateways replayed one after another: the beacon in the room of the gateway that hears it closest, one room line, retained room and Home Assistant discovery")
    func locatesAcrossGateways() async throws {
        try await withCapture("desk", "30s") { broker, capture, sitePath in
            let locate = try await startLocate(broker, site: sitePath)
            try await replayGateways([("gw1", 0), ("gw2", -30), ("gw3", -30)], capture: capture, broker: broker)
            #expect(try await locate.waitForExit(within: HangGuard.step) == .exited(0), "\(locate.failure("exit status"))")
            let lines = try locate.stdoutLines.map { try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
            let locations = lines.filter { $0["event"] as? String == "location" }
            #expect(locations.count >= 25, "\(locate.stdoutLines.count) lines")
            #expect(locations.allSatisfy { $0["beacon"] as? String == Self.beaconID && $0["room"] as? String == "office" })
            #expect(locations.allSatisfy { ($0["x"] as? Double ?? 9) < 4 && ($0["gateways"] as? [Any])?.count == 3 })
            #expect(lines.filter { $0["event"] as? String == "room" }.map { $0["to"] as? String } == ["office"])
            #expect(!lines.contains { $0["event"] as? String == "away" })
            #expect(!locate.stderrLines.contains { $0.hasPrefix("Warning") }, "\(locate.stderrLines)")

            let retained = try await MQTTSubscriber.start(port: broker.port, topics: ["site/beacons/#", "homeassistant/#", "site/locate/status"])
            try await retained.waitUntil("the retained messages") { MQTTSubscriber.messages(retained).count >= 5 }
            let messages = MQTTSubscriber.messages(retained)
            #expect(messages.first { $0.topic == "site/beacons/\(Self.beaconID)/room" }?.payload == "office")
            #expect(messages.first { $0.topic == "site/locate/status" }?.payload == "offline")
            let tracker = try #require(messages.first { $0.topic.hasPrefix("homeassistant/device_tracker/") && $0.topic.hasSuffix("/config") })
            let config = try #require(try JSONSerialization.jsonObject(with: Data(tracker.payload.utf8)) as? [String: Any])
            #expect(config["state_topic"] as? String == "site/beacons/\(Self.beaconID)/room")
            #expect(config["availability_topic"] as? String == "site/locate/status")
            #expect(messages.contains { $0.topic.hasPrefix("homeassistant/sensor/") })
            await retained.stop()
        }
    }

    @Test("hostile messages on the gateways' topics: counted warnings, no crash, and the real readings still fused")
    func hostileMessages() async throws {
        try await withCapture("desk", "10s") { broker, capture, sitePath in
            let locate = try await startLocate(broker, site: sitePath)
            let hostile: [(String, String)] = [
                ("site/gateways/gw1/readings", "{not json"),
                ("site/gateways/gw1/readings", #"{"gateway":"gw1","time":"2026-01-01T00:00:01.000Z","seq":1,"beacons":[{"id":"x","rssi":NaN}]}"#),
                ("site/gateways/gw1/readings", String(repeating: "[", count: 5_000)),
                ("site/gateways/gw1/readings", #"{"gateway":"gw2","time":"2026-01-01T00:00:01.000Z","seq":1,"beacons":[]}"#),
                ("site/gateways/intruder/readings", #"{"gateway":"intruder","time":"2026-01-01T00:00:01.000Z","seq":1,"beacons":[]}"#),
                ("site/gateways/gw1/status", "maybe"),
                ("site/gateways/gw1/readings", #"{"gateway":"gw1","time":"9999-01-01T00:00:01.000Z","seq":1,"beacons":[{"id":"far","rssi":-60,"filteredRssi":-60,"spread":1,"samples":1,"measuredPower":-59,"accuracy":1e300}]}"#),
            ]
            for (topic, payload) in hostile {
                let publish = try ChildProcess(name: "mosquitto_pub", executable: "/usr/bin/mosquitto_pub",
                                               arguments: ["-p", "\(broker.port)", "-q", "1", "-t", topic, "-m", payload])
                #expect(try await publish.waitForExit(within: HangGuard.step) == .exited(0))
            }
            try await replayGateways([("gw1", 0), ("gw2", -30), ("gw3", -30)], capture: capture, broker: broker)
            #expect(try await locate.waitForExit(within: HangGuard.step) == .exited(0), "\(locate.failure("exit status"))")
            #expect(locate.stdoutLines.contains { $0.contains(#""room":"office""#) }, "\(locate.stdoutLines)")
            let warnings = locate.stderrLines.filter { $0.hasPrefix("Warning") }
            #expect(warnings.contains { $0.contains("'intruder', which is not a gateway of the site") }, "\(warnings)")
            #expect(warnings.contains { $0.contains("neither online nor offline") }, "\(warnings)")
            #expect(warnings.count { $0.contains("a readings message on site/gateways/gw1/readings") } >= 4, "\(warnings)")
            #expect(!locate.stdoutLines.contains { $0.contains("far") || $0.contains("9999") })
        }
    }

    /// The house scene simulated for 3 minutes: the directory of its captures and site file.
    private func simulateHouse(in scratch: URL) async throws -> String {
        let house = scratch.appendingPathComponent("house").path
        #expect(try await BeaconProcess.run(["simulate", "--scene", "house", "--duration", "3m", "--out", house]).termination == .exited(0))
        return house
    }

    /// The house's gateways (but `leftOut`) replayed at once into a locate with --max-lateness none and
    /// one at its live bound (a shard of one: a client id and status of its own), both started with
    /// `options`; `stop` ends them once the replays have ended. Their location lines, and warnings.
    private func replayHouse(_ house: String, on broker: MosquittoBroker, leaving leftOut: String? = nil, options: [String],
                             stop: (MosquittoBroker, [ChildProcess]) async throws -> Void = { _, _ in }) async throws
        -> (unbounded: [String], live: [String], warnings: [String]) {
        let site = house + "/site.json"
        let gateways = try FileManager.default.contentsOfDirectory(atPath: house).filter { $0.hasSuffix(".btsnoop") }
            .map { String($0.dropLast(".btsnoop".count)) }.filter { $0 != leftOut }.sorted()
        #expect(gateways.count == (leftOut == nil ? 5 : 4))
        let locate = ["locate", "--mqtt", broker.url(prefix: "site"), "--site", site] + options
        let unbounded = try BeaconProcess.start(locate + ["--max-lateness", "none"], limit: HangGuard.processLimit)
        try await MQTTSubscriber.waitFor(port: broker.port, topic: "site/locate/status", payload: "online")
        let live = try BeaconProcess.start(locate + ["--shard", "1/1"], limit: HangGuard.processLimit)
        try await MQTTSubscriber.waitFor(port: broker.port, topic: "site/locate/1-1/status", payload: "online")
        let ranges = try gateways.map { gateway in
            try BeaconProcess.start(["range", "--hci", "btsnoop:\(house)/\(gateway).btsnoop", "--uuid", Self.uuid,
                                     "--mqtt", broker.url(prefix: "site"), "--gateway", gateway], limit: HangGuard.processLimit)
        }
        for range in ranges {
            #expect(try await range.waitForExit(within: HangGuard.step) == .exited(0), "\(range.failure("exit status"))")
        }
        try await stop(broker, [unbounded, live])
        for locate in [unbounded, live] {
            #expect(try await locate.waitForExit(within: HangGuard.step) == .exited(0), "\(locate.failure("exit status"))")
        }
        let locations = { (locate: ChildProcess) in locate.stdoutLines.filter { BeaconOutputLine.event(of: $0) == "location" } }
        return (locations(unbounded), locations(live), (unbounded.stderrLines + live.stderrLines).filter { $0.hasPrefix("Warning") })
    }

    @Test("the house's five gateways replayed at once into a locate left at its live lateness bound, twice on one broker: the replays say so, and its lines are those of --max-lateness none, the second time too, after the first run's retained offline statuses")
    func replaysIntoLiveLocate() async throws {
        try await MosquittoBroker.with { broker, scratch in
            let house = try await simulateHouse(in: scratch)
            let first = try await replayHouse(house, on: broker, options: ["--until-offline"])
            #expect(first.unbounded.count > 300)
            #expect(first.live == first.unbounded)
            #expect(first.warnings.isEmpty, "\(first.warnings)")
            let second = try await replayHouse(house, on: broker, options: ["--until-offline"])
            #expect(second.unbounded == first.unbounded && second.live == first.unbounded)
            #expect(second.warnings.isEmpty, "\(second.warnings)")
        }
    }

    @Test("a gateway of the site without a capture: stopped by SIGINT once the others' replays end, locate prints every window they reported, with or without a lateness bound")
    func stopWithGatewayNeverHeard() async throws {
        try await MosquittoBroker.with { broker, scratch in
            let house = try await simulateHouse(in: scratch)
            let (unbounded, live, warnings) = try await replayHouse(house, on: broker, leaving: "gw-kitchen", options: []) { broker, locates in
                // A message after the replays' last ones: warned about once each locate has taken everything before it.
                let sentinel = try ChildProcess(name: "mosquitto_pub", executable: "/usr/bin/mosquitto_pub",
                                                arguments: ["-p", "\(broker.port)", "-q", "1", "-t", "site/gateways/sentinel/status", "-m", "online"])
                #expect(try await sentinel.waitForExit(within: HangGuard.step) == .exited(0))
                for locate in locates {
                    try await locate.waitUntil("the sentinel") { locate.stderrLines.contains { $0.contains("'sentinel'") } }
                    locate.send(SIGINT)
                }
            }
            #expect(unbounded.count > 300)
            #expect(unbounded.last?.contains(#""time":"2026-01-01T00:03:00.000Z""#) == true, "\(unbounded.last ?? "")")
            #expect(live == unbounded)
            #expect(warnings.allSatisfy { $0.contains("'sentinel'") }, "\(warnings)")
        }
    }

    @Test("a broker that queues 10 messages for locate while locate is stopped: the readings it dropped are warned about, with the gateway and how many")
    func brokerDropsWarned() async throws {
        try await MosquittoBroker.with(queuedMessages: 10) { broker, scratch in
            let sitePath = scratch.appendingPathComponent("site.json").path
            try TestSite.officeAndHall.write(toFile: sitePath, atomically: true, encoding: .utf8)
            let locate = try await startLocate(broker, site: sitePath)
            func publish(_ arguments: [String], input: String = "") async throws {
                let publish = try ChildProcess(name: "mosquitto_pub", executable: "/usr/bin/mosquitto_pub",
                                               arguments: ["-p", "\(broker.port)", "-q", "1"] + arguments, input: .bytes(Data(input.utf8)))
                #expect(try await publish.waitForExit(within: HangGuard.step) == .exited(0), "\(publish.failure("exit status"))")
            }
            func readings(_ seconds: ClosedRange<Int>) -> String {
                seconds.map { second in
                    let time = String(format: "2026-01-01T00:%02d:%02d.000Z", second / 60, second % 60)
                    return #"{"gateway":"gw1","time":"\#(time)","seq":\#(second),"beacons":[{"id":"b1","rssi":-60,"filteredRssi":-60,"spread":1,"samples":10,"measuredPower":-59,"accuracy":1}]}"#
                }.joined(separator: "\n") + "\n"
            }
            // Stopped, locate acknowledges nothing: the broker sends what it may keep in flight, queues 10 and drops the rest.
            locate.send(SIGSTOP)
            try await publish(["-t", "site/gateways/gw1/readings", "-l"], input: readings(1...200))
            locate.send(SIGCONT)
            try await publish(["-t", "site/gateways/gw1/readings", "-l"], input: readings(201...210))
            for gateway in ["gw1", "gw2", "gw3"] { try await publish(["-r", "-t", "site/gateways/\(gateway)/status", "-m", "offline"]) }
            #expect(try await locate.waitForExit(within: HangGuard.step) == .exited(0), "\(locate.failure("exit status"))")
            let gaps = locate.stderrLines.filter { $0.contains("never arrived") }
            #expect(gaps.count == 1, "\(locate.stderrLines)")
            let missing = gaps.first.flatMap { Int($0.dropFirst("Warning: ".count).prefix { $0.isNumber }) } ?? 0
            #expect(missing >= 100 && missing < 190, "\(gaps)")
            #expect(gaps.first?.contains(" readings messages of gw1 before its message 201 never arrived: the broker dropped them") == true, "\(gaps)")
            #expect(locate.stdoutLines.contains { $0.contains(#""room":"office""#) })
        }
    }

    @Test("--survey: a survey that shows gw1 hearing 40 dB louder than the others everywhere moves the beacon gw1 hears loudest into the hall")
    func surveyedSite() async throws {
        try await withCapture("desk", "30s") { broker, capture, sitePath in
            // The site's gateways, 1 m up as the beacon is: the survey as the distance model says, gw1 40 dB louder.
            let gateways = [("gw1", 0.5, 0.5, 40.0), ("gw2", 7.5, 3.5, 0), ("gw3", 7.5, 0.5, 0)]
            var lines: [String] = []
            for x in stride(from: 1.0, through: 7, by: 2) {
                for y in [1.0, 3] {
                    for (name, gx, gy, louder) in gateways {
                        let distance = ((x - gx) * (x - gx) + (y - gy) * (y - gy)).squareRoot()
                        let rssi = (-59 - 25 * log10(distance) + louder).rounded()
                        lines.append(#"{"x":\#(x),"y":\#(y),"gateway":"\#(name)","rssi":\#(rssi),"samples":30,"spread":1.5}"#)
                    }
                }
            }
            lines[0] = String(lines[0].dropLast()) + #","room":"office"}"#
            let surveyPath = URL(fileURLWithPath: sitePath).deletingLastPathComponent().appendingPathComponent("survey.jsonl").path
            try (lines.joined(separator: "\n") + "\n").write(toFile: surveyPath, atomically: true, encoding: .utf8)
            var rooms: [[String?]] = []
            for (prefix, extra) in [("plain", [String]()), ("surveyed", ["--survey", surveyPath])] {
                let locate = try await startLocate(broker, site: sitePath, prefix: prefix, extra: extra)
                // Live, gw1 hears the beacon 30 dB louder than gw2 and gw3: nearest without a survey, farthest with it.
                try await replayGateways([("gw1", 30), ("gw2", 0), ("gw3", 0)], capture: capture, broker: broker, prefix: prefix)
                #expect(try await locate.waitForExit(within: HangGuard.step) == .exited(0), "\(locate.failure("exit status"))")
                let located = try locate.stdoutLines.map { try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
                    .filter { $0["event"] as? String == "location" }
                #expect(located.count >= 25)
                rooms.append(located.map { $0["room"] as? String })
                let warnings = locate.stderrLines.filter { $0.hasPrefix("Warning") }
                #expect(warnings == (extra.isEmpty ? [] : ["Warning: \(surveyPath): ignored members it does not know: \"room\" (1 line from line 1)"]))
                try await expectValidOutput(locate.stdoutLines)
            }
            #expect(rooms[0].allSatisfy { $0 == "office" })
            #expect(rooms[1].dropFirst(5).allSatisfy { $0 == "hall" }, "\(rooms[1])")
        }
    }

    /// Four gateways, each advertising its own beacon, in two rooms; each hears with its own offset and exponent.
    private static let calibrationSite = """
        {"rooms":[{"name":"office","polygon":[[0,0],[4,0],[4,4],[0,4]]},{"name":"hall","polygon":[[4,0],[8,0],[8,4],[4,4]]}],
         "gateways":[{"name":"gw1","position":[0.5,0.5,1],"room":"office","beacon":"g1"},{"name":"gw2","position":[7.5,3.5,1],"room":"hall","beacon":"g2"},
                     {"name":"gw3","position":[7.5,0.5,1],"room":"hall","beacon":"g3"},{"name":"gw4","position":[3,3.5,1],"room":"office","beacon":"g4"}]}
        """
    private static let calibrationGateways = [(0.5, 0.5), (7.5, 3.5), (7.5, 0.5), (3.0, 3.5)]
    private static let offsets = [-6.0, 5, 2, -3]
    private static let exponents = [1.6, 3.2, 2.0, 2.9]
    private static let walker = (x: 6.0, y: 1.0)

    /// Each gateway's readings messages of `seconds` (from `start`, in s after 2026-01-01T00:00:00Z, within
    /// the day): the other gateways' beacons, gw3 hearing them `quieter` dB less (a cupboard now between
    /// them), and b1 standing at `walker`; published as the gateways would, online first and offline at
    /// the end (retained).
    private func publishCalibrationReadings(_ broker: MosquittoBroker, start: Int, seconds: Int, quieter: Double = 0) async throws {
        for (index, (gx, gy)) in Self.calibrationGateways.enumerated() {
            func rssi(_ x: Double, _ y: Double) -> Double {
                let distance = max(((x - gx) * (x - gx) + (y - gy) * (y - gy)).squareRoot(), 0.1)
                return -59 + Self.offsets[index] - 10 * Self.exponents[index] * log10(distance)
            }
            var lines: [String] = []
            for second in start..<(start + seconds) {
                let time = String(format: "2026-01-01T%02d:%02d:%02d.000Z", second / 3600, second / 60 % 60, second % 60)
                var beacons = Self.calibrationGateways.enumerated().filter { $0.offset != index }.map { other, point in
                    let level = rssi(point.0, point.1) - (index == 2 ? quieter : 0)
                    return #"{"id":"g\#(other + 1)","rssi":\#(level),"filteredRssi":\#(level),"spread":1,"samples":10,"measuredPower":-59,"accuracy":1}"#
                }
                let heard = rssi(Self.walker.x, Self.walker.y)
                beacons.append(#"{"id":"b1","rssi":\#(heard),"filteredRssi":\#(heard),"spread":1,"samples":10,"measuredPower":-59,"accuracy":1}"#)
                lines.append(#"{"gateway":"gw\#(index + 1)","time":"\#(time)","seq":\#(second + 1),"beacons":[\#(beacons.joined(separator: ","))]}"#)
            }
            let topic = "site/gateways/gw\(index + 1)"
            for (arguments, input) in [(["-r", "-t", "\(topic)/status", "-m", "online"], ""), (["-t", "\(topic)/readings", "-l"], lines.joined(separator: "\n") + "\n"),
                                       (["-r", "-t", "\(topic)/status", "-m", "offline"], "")] {
                let publish = try ChildProcess(name: "mosquitto_pub", executable: "/usr/bin/mosquitto_pub",
                                               arguments: ["-p", "\(broker.port)", "-q", "1"] + arguments, input: .bytes(Data(input.utf8)))
                #expect(try await publish.waitForExit(within: HangGuard.step) == .exited(0), "\(publish.failure("exit status"))")
            }
        }
    }

    @Test("--calibrate restarted: it continues from the calibration it left retained (placing the beacon with it at once), and its first fit reports a gateway whose surroundings changed meanwhile")
    func calibrationSurvivesRestart() async throws {
        try await MosquittoBroker.with { broker, scratch in
            let sitePath = scratch.appendingPathComponent("site.json").path
            try Self.calibrationSite.write(toFile: sitePath, atomically: true, encoding: .utf8)
            func located(_ locate: ChildProcess) throws -> [[String: Any]] {
                try locate.stdoutLines.map { try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
            }
            /// The mean distance from the truth of the beacon's first `count` locations.
            func firstError(_ lines: [[String: Any]], count: Int) throws -> Double {
                let fixes = lines.filter { $0["event"] as? String == "location" }.prefix(count)
                try #require(fixes.count == count)
                return try fixes.reduce(0.0) { sum, line in
                    let x = try #require(line["x"] as? Double), y = try #require(line["y"] as? Double)
                    return sum + ((x - Self.walker.x) * (x - Self.walker.x) + (y - Self.walker.y) * (y - Self.walker.y)).squareRoot()
                } / Double(count)
            }

            // A bad retained calibration first: warned about and ignored, the gateways fitted from cold.
            let bad = try ChildProcess(name: "mosquitto_pub", executable: "/usr/bin/mosquitto_pub",
                                       arguments: ["-p", "\(broker.port)", "-q", "1", "-r", "-t", "site/calibration", "-m", #"{"event":"gatewayCalibration"}"#])
            #expect(try await bad.waitForExit(within: HangGuard.step) == .exited(0))
            let first = try await startLocate(broker, site: sitePath, extra: ["--calibrate"])
            try await publishCalibrationReadings(broker, start: 0, seconds: 70)
            #expect(try await first.waitForExit(within: HangGuard.step) == .exited(0), "\(first.failure("exit status"))")
            #expect(first.stderrLines.contains { $0.hasPrefix("Warning: the calibration retained on site/calibration is malformed (time: ") },
                    "\(first.stderrLines)")
            #expect(!first.stderrLines.contains { $0.hasPrefix("Continuing") })
            let firstLines = try located(first)
            let fits = firstLines.filter { $0["event"] as? String == "gatewayCalibration" }
            #expect(fits.count == 1, "\(first.stdoutLines.filter { !$0.contains(#""location""#) })")
            try await expectValidOutput(first.stdoutLines)

            // Restarted after a cupboard came between gw3 and the others: the retained fit is used from the
            // first window, and the first fresh fit, held to it, says gw3 changed.
            // The first run's gateways' offline statuses are still retained: a fuser started now waits for their readings all the same.
            let second = try await startLocate(broker, site: sitePath, extra: ["--calibrate"])
            try await publishCalibrationReadings(broker, start: 1000, seconds: 70, quieter: 8)
            #expect(try await second.waitForExit(within: HangGuard.step) == .exited(0), "\(second.failure("exit status"))")
            let fitTime = try #require(fits.first?["time"] as? String)
            #expect(second.stderrLines.contains { $0.hasPrefix("Continuing from the calibration of \(fitTime) (4 gateways) retained on site/calibration") },
                    "\(second.stderrLines)")
            #expect(second.stderrLines.filter { $0.contains("hears differently") }.map { $0.prefix(12) } == ["Warning: gw3"], "\(second.stderrLines)")
            let secondLines = try located(second)
            let refit = try #require(secondLines.first { $0["event"] as? String == "gatewayCalibration" })
            let changed = (refit["gateways"] as? [[String: Any]] ?? []).filter { $0["changed"] as? Bool == true }.map { $0["name"] as? String }
            #expect(changed == ["gw3"], "\(refit)")
            // Before either run's own fit (50 s): cold, the first run places the beacon worse than the restarted one.
            let cold = try firstError(firstLines, count: 20), resumed = try firstError(secondLines, count: 20)
            #expect(resumed < cold / 2, "resumed \(resumed) m, cold \(cold) m")
            try await expectValidOutput(second.stdoutLines)
        }
    }

    @Test("the same captures replayed one after another and all at once, at full speed: exactly the same lines")
    func interleavingsAgree() async throws {
        try await withCapture("walk-away", "60s") { broker, capture, sitePath in
            var outputs: [[String]] = []
            for (prefix, together) in [("one", false), ("all", true)] {
                let locate = try await startLocate(broker, site: sitePath, prefix: prefix)
                try await replayGateways([("gw1", 0), ("gw2", -20), ("gw3", -25)], capture: capture, broker: broker,
                                         prefix: prefix, together: together)
                #expect(try await locate.waitForExit(within: HangGuard.step) == .exited(0), "\(locate.failure("exit status"))")
                outputs.append(locate.stdoutLines)
            }
            #expect(outputs[0].count > 30)
            #expect(outputs[0] == outputs[1])
        }
    }

    @Test("two shards and a whole fuser on one broker: every beacon located by exactly one shard, none lost")
    func shards() async throws {
        try await withCapture("crowd", "40s") { broker, capture, sitePath in
            var fusers: [ChildProcess] = []
            for shard in [nil, "1/2", "2/2"] {
                fusers.append(try await startLocate(broker, site: sitePath, shard: shard))
            }
            try await replayGateways([("gw1", 0), ("gw2", -30), ("gw3", -30)], capture: capture, broker: broker)
            var located: [Set<String>] = []
            for fuser in fusers {
                #expect(try await fuser.waitForExit(within: HangGuard.step) == .exited(0), "\(fuser.failure("exit status"))")
                located.append(Set(try fuser.stdoutLines.compactMap {
                    try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])["beacon"] as? String
                }))
            }
            #expect(located[0].count > 10, "\(located[0])")
            #expect(located[1].isDisjoint(with: located[2]))
            #expect(located[1].union(located[2]) == located[0])
            #expect(!located[1].isEmpty && !located[2].isEmpty)
            // Each shard's lines are exactly the whole fuser's lines for its beacons.
            let whole = fusers[0].stdoutLines
            for (index, shard) in fusers.enumerated().dropFirst() {
                #expect(shard.stdoutLines == whole.filter { line in located[index].contains { line.contains("\"beacon\":\"\($0)\"") } })
            }
        }
    }
}
