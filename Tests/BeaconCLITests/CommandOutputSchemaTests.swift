@testable import BeaconCLI
import BeaconCore
import BeaconMQTT
import BeaconSimulation
import Foundation
import SchemaValidation
import Testing

/// Each command run in-process on simulated captures, every line it prints checked against the schema
/// in docs/ that documents it, and every number against the one precision its quantity has in all commands.
/// (`beacon advertise` and `beacon devices` need a controller or a kernel with Bluetooth: the integration
/// tests check advertise's lines on emulated controllers, and OutputSchemaTests checks every device line
/// the one encoder devices prints with can write.)
@Suite("Every line each command prints validates")
struct CommandOutputSchemaTests {
    static let uuid = "E2C56DB5-DFFB-48D2-B060-D0F5A71096E0"

    /// Runs beacon with `arguments`, expecting exit 0; its stdout lines.
    func run(_ arguments: [String], sourceLocation: SourceLocation = #_sourceLocation) -> [String] {
        let io = CapturedConsole()
        #expect(io.run(arguments) == 0, "\(arguments): \(io.stderr)", sourceLocation: sourceLocation)
        return io.stdout
    }

    /// Expects every line valid against docs/`schema`, and numbers written with their quantity's decimals.
    func expectValid(_ lines: [String], schema: String = "output.schema.json", sourceLocation: SourceLocation = #_sourceLocation) throws {
        #expect(!lines.isEmpty, sourceLocation: sourceLocation)
        for (line, problem) in zip(lines, try SchemaValidator.problems(lines, schema: schema)) {
            #expect(problem == nil, "\(problem ?? ""): \(line)", sourceLocation: sourceLocation)
        }
        for line in lines where schema == "output.schema.json" {
            for (member, decimals) in Self.numbers(in: line) {
                guard let expected = Self.precision[member], !(member == "rssi" && line.hasPrefix(#"{"event":"advertisement""#)) else { continue }
                #expect(decimals == expected, "\(member) with \(decimals) decimals, not \(expected): \(line)", sourceLocation: sourceLocation)
            }
        }
    }

    /// The decimals of each quantity, in every command's lines (docs/output.md, Members). An advertisement's
    /// rssi is one reading, a whole dBm, and is left out.
    static let precision: [String: Int] = [
        "rssi": OutputLine.rssiDecimals, "filteredRssi": OutputLine.rssiDecimals,
        "accuracy": OutputLine.metresDecimals, "distance": OutputLine.metresDecimals, "x": OutputLine.metresDecimals,
        "y": OutputLine.metresDecimals, "error": OutputLine.metresDecimals,
        "spread": OutputLine.spreadDecimals, "residual": OutputLine.spreadDecimals,
        "pathLossExponent": OutputLine.exponentDecimals,
    ]

    /// Every `"member":number` of a line, with the number's decimals.
    static func numbers(in line: String) -> [(member: String, decimals: Int)] {
        line.matches(of: /"([A-Za-z]+)":(-?[0-9]+)(\.[0-9]+)?/).map { match in
            (String(match.output.1), match.output.3.map { $0.count - 1 } ?? 0)
        }
    }

    /// The event names of `lines`.
    func events(_ lines: [String]) -> Set<String> {
        Set(lines.compactMap { $0.firstMatch(of: /^\{"event":"([a-z]+)"/).map { String($0.output.1) } })
    }

    @Test("beacon range: state, enter, range with beacons just lost, exit, and the partial range of a replay's end")
    func range() throws {
        let directory = try TemporaryDirectory()
        let walk = directory.path("walk.btsnoop")
        _ = run(["simulate", "--scene", "walk-away", "--out", walk])
        let walkLines = run(["range", "--hci", "btsnoop:\(walk)", "--uuid", Self.uuid, "--region", "named=\(Self.uuid):3:1"])
        #expect(events(walkLines) == ["state", "enter", "range", "exit"])
        #expect(walkLines.contains { $0.contains(#""samples":0,"#) }, "no beacon just lost")
        try expectValid(walkLines)

        let mixed = try ScanReplayTests.write(seconds: 3, in: directory)
        let formats = run(["range", "--hci", "btsnoop:\(mixed)", "--uuid", Self.uuid, "--region", "alt=altbeacon:2F234454-CF6D-4A0F-ADF2-F4911BA9FFA6:1",
                           "--region", "eddystone:00010203040506070809"])
        #expect(formats.contains { $0.hasSuffix(#""partial":true}"#) }, "\(formats)")
        try expectValid(formats)
    }

    @Test("beacon scan: beacon lines of every format, with --each advertisement lines")
    func scan() throws {
        let directory = try TemporaryDirectory()
        let mixed = try ScanReplayTests.write(seconds: 3, in: directory)
        let beacons = run(["scan", "--hci", "btsnoop:\(mixed)"])
        #expect(events(beacons) == ["beacon"])
        #expect(beacons.contains { $0.hasSuffix(#""partial":true}"#) })
        try expectValid(beacons)
        let advertisements = run(["scan", "--hci", "btsnoop:\(mixed)", "--each"])
        #expect(events(advertisements) == ["advertisement"])
        try expectValid(advertisements)
    }

    @Test("beacon calibrate: a calibration at 1 m and at 2 m, and a fit")
    func calibrate() throws {
        let directory = try TemporaryDirectory()
        let capture = directory.path("still.btsnoop")
        try Data(CalibrateCommandTests.capture(seconds: 40)).write(to: URL(fileURLWithPath: capture))
        var lines: [String] = []
        for distance in ["1", "2"] {
            lines += run(["calibrate", "--hci", "btsnoop:\(capture)", "--uuid", CalibrateCommandTests.uuid.description, "--distance", distance])
        }
        lines += run(["calibrate", "--sample", "1=-61.5", "--sample", "2=-70", "--sample", "4=-77.25"])
        #expect(lines.count == 3)
        #expect(events(lines) == ["calibration", "fit"])
        try expectValid(lines)
    }

    @Test("beacon locate: room, location and away lines of a beacon carried from the office to the hall, then out of range")
    func locate() throws {
        let site = """
            {"rooms":[{"name":"office","polygon":[[0,0],[4,0],[4,4],[0,4]]},{"name":"hall","polygon":[[4,0],[8,0],[8,4],[4,4]]}],
             "gateways":[{"name":"gw1","position":[0.5,0.5,1],"room":"office"},{"name":"gw2","position":[7.5,3.5,1],"room":"hall"}],
             "beacons":[{"id":"e2c56db5-dffb-48d2-b060-d0f5a71096e0-1-2","name":"keys"}]}
            """
        let console = CapturedConsole()
        var settings = Locator.Settings()
        settings.awayAfter = .seconds(5)
        var fusion = LocateFusion(site: try Site.decode(Array(site.utf8)), settings: settings, shard: nil,
                                  topics: LocateTopics(prefix: "site"), publish: { _ in }, output: LineOutput(console: console.console))
        let start = Timestamp(microseconds: 1_767_225_600_000_000)
        for second in 1...30 {
            let time = start + .seconds(Int64(second))
            for (gateway, near) in [("gw1", second <= 10), ("gw2", second > 10)] {
                // Out of range after 20 s: the gateways report ticks without the beacon.
                let beacons = second > 20 ? "" : #"{"id":"e2c56db5-dffb-48d2-b060-d0f5a71096e0-1-2","rssi":\#(near ? -55 : -80),"filteredRssi":\#(near ? -55 : -80),"spread":1.5,"samples":9,"measuredPower":-59,"accuracy":\#(near ? "0.60" : "7.00")}"#
                let payload = #"{"gateway":"\#(gateway)","time":"\#(time.iso8601)","seq":\#(second),"beacons":[\#(beacons)]}"#
                fusion.receive(topic: "site/gateways/\(gateway)/readings", payload: Array(payload.utf8), arrival: time)
            }
            fusion.advance(arrival: time)
        }
        fusion.finish(everythingReceived: true, arrival: start + .seconds(61))
        fusion.output.flush()
        #expect(events(console.stdout) == ["room", "location", "away"], "\(console.stdout)")
        try expectValid(console.stdout)
    }

    @Test("beacon survey: survey lines of a gateway that heard the beacon and of one that did not")
    func survey() throws {
        let site = """
            {"rooms":[{"name":"office","polygon":[[0,0],[4,0],[4,4],[0,4]]}],
             "gateways":[{"name":"gw1","position":[0.5,0.5,1]},{"name":"gw2","position":[3.5,3.5,1]}]}
            """
        let console = CapturedConsole()
        let recorder = SurveyRecorder(site: try Site.decode(Array(site.utf8)), beacon: "e2c56db5-dffb-48d2-b060-d0f5a71096e0-1-2",
                                      plan: .still(at: Point2(x: 1.25, y: 2), duration: .seconds(10)), maximumLateness: nil)
        var survey = Survey(recorder: recorder, topics: LocateTopics(prefix: "site"), console: console.console)
        let start = Timestamp(microseconds: 1_767_225_600_000_000)
        for second in 0...10 {
            let time = start + .seconds(Int64(second))
            for gateway in ["gw1", "gw2"] {
                let beacons = gateway == "gw2" ? "" : #"{"id":"e2c56db5-dffb-48d2-b060-d0f5a71096e0-1-2","rssi":\#(-60 - second % 3),"filteredRssi":-60,"spread":1.5,"samples":9,"measuredPower":-59,"accuracy":1.00}"#
                let payload = #"{"gateway":"\#(gateway)","time":"\#(time.iso8601)","seq":\#(second + 1),"beacons":[\#(beacons)]}"#
                survey.receive(topic: "site/gateways/\(gateway)/readings", payload: Array(payload.utf8), arrival: time)
            }
        }
        #expect(survey.recorder.isComplete(at: start + .seconds(10)))
        #expect(SurveyCommand.write(survey.recorder, out: nil, beacon: "e2c56db5-dffb-48d2-b060-d0f5a71096e0-1-2", console: console.console) == .success)
        #expect(console.stdout.count == 2 && events(console.stdout) == ["survey"], "\(console.stdout)")
        #expect(console.stdout[1].contains(#""gateway":"gw2","rssi":null,"samples":0}"#), "\(console.stdout)")
        try expectValid(console.stdout)
    }

    @Test("beacon simulate: the ground truth on stdout of a scene and of a site, and a printed scene")
    func simulate() throws {
        let directory = try TemporaryDirectory()
        let truth = run(["simulate", "--scene", "walk-away", "--duration", "5s", "--out", directory.path("walk.btsnoop"), "--truth", "-"])
        let siteTruth = run(["simulate", "--scene", "house", "--duration", "3s", "--out", directory.path("house"), "--truth", "-"])
        try expectValid(truth + siteTruth, schema: "truth.schema.json")
        // One document over many lines: newlines in JSON are whitespace between tokens.
        let scene = run(["simulate", "--scene", "crowd", "--print-scene"]).joined(separator: "\n").replacingOccurrences(of: "\n", with: " ")
        try expectValid([scene], schema: "scene.schema.json")
    }
}
