import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `beacon survey` against a real mosquitto, fed by `beacon range --gateway` replays of a simulated
/// site (the house scene: five rooms behind walls, a gateway in each, RSSI that varies).
@Suite(
    "beacon survey recording a site's gateways over a mosquitto broker",
    .enabled(if: IntegrationGate.isEnabled && MosquittoBroker.isInstalled, IntegrationGate.reason),
    .timeLimit(.minutes(10)))
struct SurveyIntegrationTests {
    private static let uuid = TestBeacon.uuid
    /// The house scene's beacon on a shelf at (5, 2.5) all along.
    private static let shelf = "e2c56db5-dffb-48d2-b060-d0f5a71096e0-5-2"
    /// The one held at (3, 2.5) in the living room for 60 s, then carried to (3, 6), (8, 6) and (8, 2.5) at 1 m/s.
    private static let carried = "e2c56db5-dffb-48d2-b060-d0f5a71096e0-5-1"
    private static let gateways = ["gw-living", "gw-kitchen", "gw-hall", "gw-bedroom", "gw-bathroom"]

    /// A broker and 100 s of the house scene, a capture per gateway: `body` gets the broker and the
    /// scratch directory holding house/site.json and the captures.
    private func withHouse(_ body: (MosquittoBroker, URL) async throws -> Void) async throws {
        try await MosquittoBroker.with { broker, scratch in
            let house = scratch.appendingPathComponent("house").path
            #expect(try await BeaconProcess.run(["simulate", "--scene", "house", "--duration", "100s", "--out", house]).termination == .exited(0))
            try await body(broker, scratch)
        }
    }

    /// A `beacon survey` of the house's replays, once it is subscribed.
    private func startSurvey(_ broker: MosquittoBroker, _ scratch: URL, _ arguments: [String]) async throws -> ChildProcess {
        let survey = try BeaconProcess.start(["survey", "--mqtt", broker.url(prefix: "site"), "--site", scratch.appendingPathComponent("house/site.json").path,
                                              "--max-lateness", "none"] + arguments, limit: HangGuard.processLimit)
        try await MQTTSubscriber.waitFor(port: broker.port, topic: "site/survey/status", payload: "online")
        return survey
    }

    /// Replays each gateway's capture into the broker, one after another.
    private func replayGateways(_ broker: MosquittoBroker, _ scratch: URL) async throws {
        for gateway in Self.gateways {
            let capture = scratch.appendingPathComponent("house/\(gateway).btsnoop").path
            let range = try await BeaconProcess.run(["range", "--hci", "btsnoop:\(capture)", "--uuid", Self.uuid,
                                                     "--mqtt", broker.url(prefix: "site"), "--gateway", gateway])
            #expect(range.termination == .exited(0), "\(range.failure("exit status"))")
        }
    }

    private func objects(_ lines: [String]) throws -> [[String: Any]] {
        try lines.map { try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
    }

    @Test("point after point into one file: a line per gateway appended, nearer gateways louder, and the same lines on stdout as survey events")
    func pointAfterPoint() async throws {
        try await withHouse { broker, scratch in
            let out = scratch.appendingPathComponent("survey.jsonl").path
            let earlier = #"{"x":0.00,"y":0.00,"gateway":"gw-living","rssi":-60.0,"samples":100}"#
            try Data((earlier + "\n").utf8).write(to: URL(fileURLWithPath: out))

            let shelf = try await startSurvey(broker, scratch, ["--beacon", Self.shelf, "--at", "5,2.5", "--out", out])
            try await replayGateways(broker, scratch)
            #expect(try await shelf.waitForExit(within: HangGuard.step) == .exited(0), "\(shelf.failure("exit status"))")
            // The living room's centre, (3, 2.5), for the 55 s the carried beacon stays there.
            let living = try await startSurvey(broker, scratch, ["--beacon", Self.carried, "--at", "living", "--duration", "55s", "--out", out])
            try await replayGateways(broker, scratch)
            #expect(try await living.waitForExit(within: HangGuard.step) == .exited(0), "\(living.failure("exit status"))")

            let file = try String(contentsOfFile: out, encoding: .utf8).split(separator: "\n").map(String.init)
            #expect(file.count == 11 && file[0] == earlier, "\(file)")
            let lines = try objects(Array(file.dropFirst()))
            #expect(lines.map { $0["gateway"] as? String } == (Self.gateways + Self.gateways).map(Optional.some))
            #expect(lines.prefix(5).allSatisfy { $0["x"] as? Double == 5 && $0["y"] as? Double == 2.5 && $0["floor"] as? Int == 0 })
            #expect(lines.suffix(5).allSatisfy { $0["x"] as? Double == 3 && $0["y"] as? Double == 2.5 })
            #expect(lines.prefix(5).allSatisfy { $0["time"] as? String == "2026-01-01T00:00:01.000Z" })
            for line in lines {
                let samples = try #require(line["samples"] as? Int)
                #expect(samples >= 100 && (line["rssi"] as? Double).map { (-110.0)...(-40.0) ~= $0 } == true, "\(line)")
                #expect(try #require(line["spread"] as? Double) <= 6, "\(line)")
            }
            // From (3, 2.5), the living room's gateway 2.5 m away in the same room is heard louder than the bathroom's, 10 m and two walls away.
            let fromLiving = Dictionary(uniqueKeysWithValues: lines.suffix(5).map { ($0["gateway"] as? String ?? "", $0["rssi"] as? Double ?? 0) })
            #expect(try #require(fromLiving["gw-living"]) > (try #require(fromLiving["gw-bathroom"])) + 10, "\(fromLiving)")
            // stdout: the same members after event, time and beacon.
            let events = try objects(shelf.stdoutLines)
            #expect(events.count == 5 && events.allSatisfy { $0["event"] as? String == "survey" && $0["beacon"] as? String == Self.shelf })
            #expect(shelf.stdoutLines.map { $0.replacingOccurrences(of: #"{"event":"survey","time":"2026-01-01T00:00:01.000Z","beacon":"\#(Self.shelf)","#, with: "{") }
                    == file[1...5].map { $0.replacingOccurrences(of: #","time":"2026-01-01T00:00:01.000Z""#, with: "") })
            #expect(!shelf.stderrLines.contains { $0.hasPrefix("Warning") || $0.hasPrefix("Error") }, "\(shelf.stderrLines)")
        }
    }

    @Test("a beacon carried away during the point: refused with exit 65 and nothing appended; SIGINT before the end: nothing appended, exit 0")
    func refusedAndStopped() async throws {
        try await withHouse { broker, scratch in
            let out = scratch.appendingPathComponent("survey.jsonl").path
            let moved = try await startSurvey(broker, scratch, ["--beacon", Self.carried, "--at", "3,2.5", "--duration", "90s", "--out", out])
            try await replayGateways(broker, scratch)
            #expect(try await moved.waitForExit(within: HangGuard.step) == .exited(65), "\(moved.failure("exit status"))")
            #expect(moved.stderrLines.contains { $0.hasPrefix("Error: cannot survey: the beacon moved") }, "\(moved.stderrLines)")
            #expect(moved.stdoutLines.isEmpty)
            #expect(try Data(contentsOf: URL(fileURLWithPath: out)).isEmpty)

            let stopped = try await startSurvey(broker, scratch, ["--beacon", Self.shelf, "--at", "5,2.5", "--out", out])
            stopped.send(SIGINT)
            #expect(try await stopped.waitForExit(within: HangGuard.step) == .exited(0), "\(stopped.failure("exit status"))")
            #expect(stopped.stderrLines.contains("Stopped before the survey was complete: nothing written"), "\(stopped.stderrLines)")
            #expect(try Data(contentsOf: URL(fileURLWithPath: out)).isEmpty)
        }
    }

    @Test("a walk: a point per metre of path and gateway, placed along the path; in the kitchen at its end, the kitchen's gateway louder than the bedroom's")
    func walk() async throws {
        try await withHouse { broker, scratch in
            // The carried beacon's route, from the first tick (1 s into the scene).
            let path = scratch.appendingPathComponent("walk.json").path
            try Data(#"[{"x":3,"y":2.5,"t":0},{"x":3,"y":2.5,"t":59},{"x":3,"y":6,"t":62.5},{"x":8,"y":6,"t":67.5},{"x":8,"y":2.5,"t":71},{"x":8,"y":2.5,"t":90}]"#.utf8)
                .write(to: URL(fileURLWithPath: path))
            let walk = try await startSurvey(broker, scratch, ["--beacon", Self.carried, "--path", path])
            try await replayGateways(broker, scratch)
            #expect(try await walk.waitForExit(within: HangGuard.step) == .exited(0), "\(walk.failure("exit status"))")
            let lines = try objects(walk.stdoutLines)
            let places = lines.compactMap { line -> [Double]? in
                guard let x = line["x"] as? Double, let y = line["y"] as? Double else { return nil }
                return [x, y]
            }
            var stretches: [[Double]] = []
            for place in places where stretches.last != place { stretches.append(place) }
            // 12 m of path: 12 stretches, each with a line per gateway, from the start to the end of the walk.
            #expect(stretches.count == 12 && lines.count == 60, "\(stretches)")
            #expect(stretches.first == [3, 2.5] && stretches.last.map { abs($0[0] - 8) < 0.01 && abs($0[1] - 2.5) < 0.1 } == true, "\(stretches)")
            // In the kitchen, at the end, its own gateway hears the beacon louder than the bedroom's.
            let last = Dictionary(uniqueKeysWithValues: lines.suffix(5).map { ($0["gateway"] as? String ?? "", $0["rssi"] as? Double ?? -200) })
            #expect(try #require(last["gw-kitchen"]) > (try #require(last["gw-bedroom"])), "\(last)")
        }
    }
}
