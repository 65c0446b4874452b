@testable import BeaconCLI
import BeaconCore
import BeaconMQTT
import Foundation
import Testing

@Suite("beacon survey: its arguments, the site and path files it reads, and --out")
struct SurveyCommandLineTests {
    static let site = #"{"rooms": [{"name": "office", "polygon": [[0, 0], [4, 0], [4, 4], [0, 4]]}, {"name": "hall", "polygon": [[4, 0], [8, 0], [8, 4], [4, 4]], "floor": 1}], "gateways": [{"name": "gw1", "position": [1, 1, 1]}]}"#
    static let broker = "mqtt://127.0.0.1:1/site"

    /// Runs `beacon survey` with the broker, the site file in `directory` and a beacon, then `arguments`.
    func survey(_ arguments: [String], in directory: TemporaryDirectory) throws -> (code: Int32, io: CapturedConsole) {
        let sitePath = directory.path("site.json")
        if !FileManager.default.fileExists(atPath: sitePath) { try Data(Self.site.utf8).write(to: URL(fileURLWithPath: sitePath)) }
        let io = CapturedConsole()
        let code = io.run(["survey", "--mqtt", Self.broker, "--site", sitePath, "--beacon", "keys"] + arguments)
        return (code, io)
    }

    @Test("options that cannot be: exit 64 with the reason and the usage line", arguments: [
        (["survey", "--site", "s.json", "--beacon", "b", "--at", "1,2"], "Missing expected argument '--mqtt <url>'"),
        (["survey", "--mqtt", broker, "--beacon", "b", "--at", "1,2"], "Missing expected argument '--site <file>'"),
        (["survey", "--mqtt", broker, "--site", "s.json", "--at", "1,2"], "Missing expected argument '--beacon <id>'"),
        (["survey", "--mqtt", broker, "--site", "s.json", "--beacon", "b"], "Missing expected argument '--at <x,y|room>'"),
        (["survey", "--mqtt", broker, "--site", "s.json", "--beacon", "", "--at", "1,2"], "Invalid value '' for '--beacon <id>'"),
        (["survey", "--mqtt", broker, "--site", "s.json", "--beacon", "b", "--at", "1,2", "--path", "p.json"], "cannot be combined"),
        (["survey", "--mqtt", broker, "--site", "s.json", "--beacon", "b", "--at", "1,zz"], "Invalid value '1,zz' for '--at <x,y|room>'"),
        (["survey", "--mqtt", broker, "--site", "s.json", "--beacon", "b", "--at", "nan,1"], "Invalid value 'nan,1'"),
        (["survey", "--mqtt", broker, "--site", "s.json", "--beacon", "b", "--at", "1e9,0"], "within ±10000"),
        (["survey", "--mqtt", broker, "--site", "s.json", "--beacon", "b", "--at", ""], "Invalid value '' for '--at <x,y|room>'"),
        (["survey", "--mqtt", broker, "--site", "s.json", "--beacon", "b", "--at", "office", "--floor", "1"], "a room is on its own floor"),
        (["survey", "--mqtt", broker, "--site", "s.json", "--beacon", "b", "--at", "1,2", "--floor", "one"], "Invalid value 'one' for '--floor <n>'"),
        (["survey", "--mqtt", broker, "--site", "s.json", "--beacon", "b", "--path", "p.json", "--duration", "10s"], "a --path walk lasts until"),
        (["survey", "--mqtt", broker, "--site", "s.json", "--beacon", "b", "--at", "1,2", "--duration", "0"], "Invalid value '0' for '--duration <duration>'"),
        (["survey", "--mqtt", broker, "--site", "s.json", "--beacon", "b", "--at", "1,2", "--max-lateness", "soon"], "'--max-lateness <duration>'"),
        (["survey", "--mqtt", broker, "--site", "s.json", "--beacon", "b", "--at", "1,2", "--becon", "x"], "Did you mean '--beacon'"),
    ])
    func usageErrors(arguments: [String], message: String) {
        let io = CapturedConsole()
        #expect(io.run(arguments) == 64)
        #expect(io.stderr.first?.hasPrefix("Error: ") == true && io.stderr.first?.contains(message) == true, "\(io.stderr)")
        #expect(io.stderr.last?.hasPrefix("Usage: beacon survey") == true, "\(io.stderr)")
        #expect(io.stdout.isEmpty)
    }

    @Test("--at X,Y and --at ROOM: coordinates, or a room's name")
    func places() throws {
        #expect(try SurveyOptions.place("3.2,-1.5") == .point(Point2(x: 3.2, y: -1.5)))
        #expect(try SurveyOptions.place("3, 4") == .point(Point2(x: 3, y: 4)))
        #expect(try SurveyOptions.place("office") == .room("office"))
        #expect(try SurveyOptions.place("north, upstairs") == .room("north, upstairs"))
        #expect(try SurveyOptions.place("1,2,3") == .room("1,2,3"))
    }

    @Test("a room the site does not have, or a floor it does not have: exit 64 naming the nearest room or the floors it has")
    func unknownRoomOrFloor() throws {
        let directory = try TemporaryDirectory()
        let room = try survey(["--at", "ofice"], in: directory)
        #expect(room.code == 64)
        #expect(room.io.stderr.first?.contains("Unknown room 'ofice'") == true && room.io.stderr.first?.contains("Did you mean 'office'?") == true,
                "\(room.io.stderr)")
        #expect(room.io.stderr.last?.hasPrefix("Usage: beacon survey") == true)
        let floor = try survey(["--at", "1,1", "--floor", "2"], in: directory)
        #expect(floor.code == 64)
        #expect(floor.io.stderr.first == "Error: Invalid value '2' for '--floor <n>': the site has floors 0, 1", "\(floor.io.stderr)")
    }

    @Test("site and path files: one that cannot be read exits 66, one that is not valid 65 with the place of the fault")
    func files() throws {
        let directory = try TemporaryDirectory()
        let missingSite = CapturedConsole()
        #expect(missingSite.run(["survey", "--mqtt", Self.broker, "--site", directory.path("none.json"), "--beacon", "b", "--at", "1,1"]) == 66)
        #expect(missingSite.stderr.first?.hasPrefix("Error: cannot read the --site file") == true, "\(missingSite.stderr)")
        let badSite = directory.path("bad-site.json")
        try Data(#"{"rooms": []"#.utf8).write(to: URL(fileURLWithPath: badSite))
        #expect(CapturedConsole().run(["survey", "--mqtt", Self.broker, "--site", badSite, "--beacon", "b", "--at", "1,1"]) == 65)

        let missingPath = try survey(["--path", directory.path("walk.json")], in: directory)
        #expect(missingPath.code == 66)
        #expect(missingPath.io.stderr.first?.hasPrefix("Error: cannot read the --path file") == true, "\(missingPath.io.stderr)")
        let notJSON = directory.path("not-json.json")
        try Data("[{\"x\": 1,\n \"y\": }]".utf8).write(to: URL(fileURLWithPath: notJSON))
        let badJSON = try survey(["--path", notJSON], in: directory)
        #expect(badJSON.code == 65)
        #expect(badJSON.io.stderr.first?.hasPrefix("Error: \(notJSON):2:") == true && badJSON.io.stderr.first?.contains("not valid JSON") == true,
                "\(badJSON.io.stderr)")
        let backwards = directory.path("backwards.json")
        try Data(#"[{"x": 0, "y": 0, "t": 5}, {"x": 1, "y": 0, "t": 2}]"#.utf8).write(to: URL(fileURLWithPath: backwards))
        let badWalk = try survey(["--path", backwards], in: directory)
        #expect(badWalk.code == 65)
        #expect(badWalk.io.stderr.first == "Error: \(backwards): [1].t: expected a time after the previous point's (5.0 s)", "\(badWalk.io.stderr)")
    }

    @Test("--out that cannot be created exits 73 naming it, before the broker is tried")
    func outCannotBeCreated() throws {
        let directory = try TemporaryDirectory()
        let out = directory.path("missing/survey.jsonl")
        let result = try survey(["--at", "office", "--out", out], in: directory)
        #expect(result.code == 73)
        #expect(result.io.stderr.first?.contains("--out \(out)") == true, "\(result.io.stderr)")
    }

    @Test("hostile messages on the gateways' topics: warnings a few times each, never trusted, the real readings still recorded")
    func hostileMessages() throws {
        let io = CapturedConsole()
        let site = try Site.decode(Array(Self.site.utf8))
        let beacon = "e2c56db5-dffb-48d2-b060-d0f5a71096e0-1-2"
        var survey = Survey(recorder: SurveyRecorder(site: site, beacon: beacon, plan: .still(at: Point2(x: 1, y: 1), duration: .seconds(5)),
                                                     maximumLateness: nil),
                            topics: LocateTopics(prefix: "site"), console: io.console)
        let start = Timestamp(microseconds: 1_767_225_600_000_000)
        func readings(_ gateway: String, _ second: Int) -> String {
            #"{"gateway":"\#(gateway)","time":"\#((start + .seconds(Int64(second))).iso8601)","seq":\#(second + 1),"beacons":[{"id":"\#(beacon)","rssi":-61,"filteredRssi":-61,"spread":1,"samples":10,"measuredPower":-59,"accuracy":1.00}]}"#
        }
        let hostile: [(String, String)] = [
            ("site/gateways/gw1/readings", "{not json"),
            ("site/gateways/gw1/readings", String(repeating: "[", count: 5_000)),
            ("site/gateways/gw1/readings", readings("gw2", 0)),
            ("site/gateways/intruder/readings", readings("intruder", 0)),
            ("site/gateways/gw1/status", "maybe"),
            ("site/elsewhere", "x"),
        ]
        for (topic, payload) in hostile + hostile {
            survey.receive(topic: topic, payload: Array(payload.utf8), arrival: start)
        }
        for second in 0...5 {
            survey.receive(topic: "site/gateways/gw1/readings", payload: Array(readings("gw1", second).utf8), arrival: start)
        }
        survey.receive(topic: "site/gateways/gw1/readings", payload: Array(readings("gw1", 3).utf8), arrival: start)
        survey.summarizeWarnings()
        #expect(survey.recorder.isComplete(at: start))
        let points = try survey.recorder.result().get().points
        #expect(points.count == 1 && points[0].rssi == -61 && points[0].samples == 50, "\(points)")
        let warnings = io.stderr
        #expect(warnings.count { $0.contains("a readings message on site/gateways/gw1/readings") } >= 3, "\(warnings)")
        #expect(warnings.count { $0.contains("'intruder', which is not a gateway of the site") } == 1, "\(warnings)")
        #expect(warnings.contains { $0.contains("neither online nor offline") })
        #expect(warnings.contains { $0.contains("site/elsewhere, which is no gateway's readings or status") })
        #expect(warnings.contains { $0.contains("not later than its previous ones; dropped") })
        #expect(warnings.contains("Warning: 10 malformed messages from the gateways in all"), "\(warnings)")
    }

    @Test("help: the survey line, the refusals and the exit codes survey has")
    func help() {
        let io = CapturedConsole()
        #expect(io.run(["survey", "--help"]) == 0)
        let help = unwrapped(io.stdout.joined(separator: "\n"))
        #expect(help.contains("median absolute deviation × 1.4826"))
        #expect(help.contains("fewer than \(SurveyRecorder.minimumSamples) times"))
        #expect(help.contains("73 --out cannot be created"))
        #expect(!help.contains("75 "))
    }
}
