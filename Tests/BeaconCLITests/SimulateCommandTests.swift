@testable import BeaconCLI
import BeaconCore
import BeaconSimulation
import Foundation
import Glibc
import BeaconTransport
import Testing

@Suite("beacon simulate")
struct SimulateCommandTests {
    static let uuid = "E2C56DB5-DFFB-48D2-B060-D0F5A71096E0"

    func bytes(_ path: String) throws -> [UInt8] {
        Array(try Data(contentsOf: URL(fileURLWithPath: path)))
    }

    func lines(_ path: String) throws -> [String] {
        String(decoding: try bytes(path), as: UTF8.self).split(separator: "\n").map(String.init)
    }

    /// `beacon range` over a capture: its stdout lines.
    func replay(_ capture: String, _ arguments: [String] = ["--uuid", uuid]) -> [String] {
        let io = CapturedConsole()
        let code = io.run(["range", "--hci", "btsnoop:\(capture)"] + arguments)
        #expect(code == 0, "\(io.stderr)")
        #expect(io.stderr.isEmpty, "\(io.stderr)")
        return io.stdout
    }

    func events(_ lines: [String]) -> [String] {
        lines.compactMap { line in
            guard let range = line.range(of: #""event":""#) else { return nil }
            return String(line[range.upperBound...].prefix { $0 != "\"" })
        }
    }

    @Test("--help prints OVERVIEW, USAGE, OPTIONS with defaults, and the exit codes; the overview lists simulate")
    func help() {
        let io = CapturedConsole()
        #expect(io.run(["simulate", "--help"]) == 0)
        let text = io.stdout.joined(separator: "\n")
        let words = unwrapped(text)
        #expect(text.hasPrefix("OVERVIEW: "))
        #expect(words.contains(" USAGE: beacon simulate (--scene <name|file> | --uuid <uuid> --major <major> --minor <minor>) --out <capture>"))
        #expect(words.contains("--seed <n>") && words.contains("(default: 1)"))
        #expect(words.contains("(default: 2026-01-01T00:00:00.000Z)"))
        #expect(words.contains("Built-in scenes: desk, still, hallway, walk-away, lossy-office, crowd, house."))
        #expect(words.contains("--site <file>") && words.contains("one capture per gateway, NAME.btsnoop, and the site, site.json"))
        #expect(text.contains("  65  "))
        let overview = CapturedConsole()
        #expect(overview.run(["--help"]) == 0)
        #expect(overview.stdout.joined().contains("  simulate  "))
    }

    @Test("--list names every built-in scene with what it is for and the identities to range for, in 80 columns")
    func list() throws {
        let io = CapturedConsole()
        #expect(io.run(["simulate", "--list"]) == 0)
        #expect(io.stdout.allSatisfy { $0.count <= 80 })
        let starts = io.stdout.indices.filter { !io.stdout[$0].hasPrefix(" ") }
        #expect(starts.map { io.stdout[$0].split(separator: " ").first.map(String.init) } == Scene.allNamed.map(\.name))
        for (start, scene) in zip(starts, Scene.allNamed) {
            let block = io.stdout[start..<(starts.first { $0 > start } ?? io.stdout.endIndex)]
            let text = block.map { $0.dropFirst(SceneListing.column) }.joined(separator: " ")
            #expect(text.hasPrefix(scene.summary), "\(scene.name)")
            for beacon in scene.beacons {
                guard case .iBeacon(let iBeacon) = beacon.beacon else { continue }
                #expect(block.contains { $0.contains("ibeacon \(iBeacon.identity.uuid)") }, "\(scene.name)")
            }
        }
        let crowd = io.stdout.drop { !$0.hasPrefix("crowd ") }
        #expect(crowd.contains("              ibeacon E2C56DB5-DFFB-48D2-B060-D0F5A71096E0 major 1-3, 30 beacons"))
        #expect(io.stderr.isEmpty)
    }

    @Test("--list's identities: a lone beacon's whole identity in each format; beacons sharing a first identifier on one line")
    func listIdentities() throws {
        func beacon(_ advertised: AdvertisedBeacon) -> SceneBeacon {
            SceneBeacon(beacon: advertised, address: SceneBeacon.defaultAddress(index: 0), path: .standing(distance: 1))
        }
        let uuid = try #require(BeaconUUID("E2C56DB5-DFFB-48D2-B060-D0F5A71096E0"))
        let namespace = try #require(EddystoneNamespace("00010203040506070809"))
        let beacons = [
            beacon(.altBeacon(AltBeacon(id1: uuid, id2: 1, id3: 2, referenceRSSI: -59))),
            beacon(.iBeacon(IBeacon(identity: IBeaconID(uuid: uuid, major: 4, minor: 1), measuredPower: -59))),
            beacon(.eddystone(EddystonePayload(frame: .uid(EddystoneUID(namespace: namespace, instance: EddystoneInstance(value: 0xA1))),
                                               txPowerAt0m: -20))),
            beacon(.eddystone(EddystonePayload(frame: .uid(EddystoneUID(namespace: namespace, instance: EddystoneInstance(value: 0xA2))),
                                               txPowerAt0m: -20))),
            beacon(.eddystone(EddystonePayload(frame: .url(try EddystoneURL("https://example.com/")), txPowerAt0m: -20))),
            beacon(.iBeacon(IBeacon(identity: IBeaconID(uuid: uuid, major: 7, minor: 2), measuredPower: -59))),
        ]
        #expect(SceneListing.identities(beacons) == [
            "altbeacon E2C56DB5-DFFB-48D2-B060-D0F5A71096E0 id2 1 id3 2",
            "ibeacon E2C56DB5-DFFB-48D2-B060-D0F5A71096E0 major 4, 7, 2 beacons",
            "eddystone-uid 00010203040506070809 instance 0000000000A1, 0000000000A2, 2 beacons",
            "eddystone-url https://example.com/",
        ])
    }

    @Test("bad arguments: Error line, Usage line, exit 64", arguments: [
        ([], "Missing expected argument '--scene <name|file>'"),
        (["--scene", "desk"], "Missing expected argument '--out <capture>'"),
        (["--scene", "nowhere", "--out", "x"], "Unknown scene 'nowhere': the built-in scenes are desk, still, hallway"),
        (["--list", "--out", "x"], "'--list' takes no other options (found '--out')"),
        (["--scene", "desk", "--distance", "2", "--out", "x"], "'--distance' describes a beacon given by flags"),
        (["--distance", "2", "--out", "x"], "'--distance' needs '--uuid'"),
        (["--uuid", uuid, "--out", "x"], "Missing expected argument '--major <major>'"),
        (["--uuid", uuid, "--major", "1", "--out", "x"], "Missing expected argument '--minor <minor>'"),
        (["--uuid", "nope", "--major", "1", "--minor", "1", "--out", "x"], "Invalid value 'nope' for '--uuid <uuid>'"),
        (["--uuid", uuid, "--major", "1", "--minor", "1", "--speed", "2", "--out", "x"], "'--speed' needs '--walk-to'"),
        (["--uuid", uuid, "--major", "1", "--minor", "1", "--distance", "-1", "--out", "x"], "Invalid value '-1' for '--distance <metres>'"),
        (["--uuid", uuid, "--major", "1", "--minor", "1", "--interval", "10ms", "--out", "x"], "expected 20ms...10.24s"),
        (["--scene", "desk", "--out", "-"], "Invalid value '-' for '--out <capture>'"),
        (["--scene", "desk", "--out", "x", "--truth", "x"], "'--out' and '--truth' name the same file 'x'"),
        (["--scene", "desk", "--print-scene", "--out", "x"], "'--print-scene' writes no capture"),
        (["--scene", "desk", "--out", "x", "--seed", "-1"], "Invalid value '-1' for '--seed <n>'"),
        (["--scene", "desk", "--out", "x", "--start", "2026-02-30T00:00:00Z"], "Invalid value '2026-02-30T00:00:00Z' for '--start <time>'"),
        (["--scene", "desk", "--out", "x", "--duration", "0"], "Invalid value '0' for '--duration <duration>'"),
        (["--scene", "desk", "--out", "x", "--tick", "1ms"], "'--tick' must be at least 10ms"),
        (["--scene", "desk", "--out", "x", "--loss", "120%"], "Invalid value '120%' for '--loss <fraction>'"),
        (["--scene", "desk", "--out", "x", "--exponent", "0"], "Invalid value '0' for '--exponent <n>'"),
        (["--scene", "desk", "--out", "x", "--sensitivity", "-130"], "Invalid value '-130' for '--sensitivity <dBm>'"),
        (["--scene", "desk", "--out", "x", "--reports", "both"], "expected legacy, extended or mixed"),
    ])
    func usageErrors(arguments: [String], fragment: String) {
        let io = CapturedConsole()
        #expect(io.run(["simulate"] + arguments) == 64)
        #expect(io.stderr.count == 2, "\(io.stderr)")
        #expect(io.stderr.first?.hasPrefix("Error: ") == true)
        #expect(io.stderr.first?.contains(fragment) == true, "\(io.stderr)")
        #expect(io.stderr.last?.hasPrefix("Usage: beacon simulate") == true)
        #expect(io.stdout.isEmpty)
    }

    @Test("never writes over the scene file or one output over the other, whatever the path")
    func noOverwrite() throws {
        let directory = try TemporaryDirectory()
        let scene = directory.path("scene.json")
        let original = Scene.named("desk")!.json
        try Data(original).write(to: URL(fileURLWithPath: scene))
        try FileManager.default.createSymbolicLink(atPath: directory.path("link.json"), withDestinationPath: scene)
        try FileManager.default.linkItem(atPath: scene, toPath: directory.path("hard.json"))
        try Data().write(to: URL(fileURLWithPath: directory.path("out.btsnoop")))
        try FileManager.default.linkItem(atPath: directory.path("out.btsnoop"), toPath: directory.path("truth.jsonl"))
        let cases: [([String], String)] = [
            (["--out", scene], "'--out' would overwrite the scene file"),
            (["--out", directory.path("link.json")], "'--out' would overwrite the scene file"),
            (["--out", directory.path("hard.json")], "'--out' would overwrite the scene file"),
            (["--out", directory.path("other.btsnoop"), "--truth", directory.path("./scene.json")], "'--truth' would overwrite the scene file"),
            (["--out", directory.path("out.btsnoop"), "--truth", directory.path("truth.jsonl")], "'--out' and '--truth' name the same file"),
        ]
        for (arguments, message) in cases {
            let io = CapturedConsole()
            #expect(io.run(["simulate", "--scene", scene] + arguments) == 64)
            #expect(io.stderr.first?.contains(message) == true, "\(arguments): \(io.stderr)")
        }
        #expect(try bytes(scene) == original)
        #expect(!FileManager.default.fileExists(atPath: directory.path("other.btsnoop")))
    }

    @Test("a scene file that cannot be read is exit 66; one that is not a scene is exit 65 naming the member")
    func badSceneFiles() throws {
        let directory = try TemporaryDirectory()
        let missing = CapturedConsole()
        #expect(missing.run(["simulate", "--scene", directory.path("none.json"), "--out", directory.path("x")]) == 66)
        #expect(missing.stderr == ["Error: cannot read the --scene file: open(\(directory.path("none.json"))): No such file or directory"])

        let bad = directory.path("bad.json")
        try Data(#"{"duration": 60, "beacons": [{"uuid": "\#(Self.uuid)", "path": {"kind": "standing", "distance": "far"}}]}"#.utf8)
            .write(to: URL(fileURLWithPath: bad))
        let io = CapturedConsole()
        #expect(io.run(["simulate", "--scene", bad, "--out", directory.path("x")]) == 65)
        #expect(io.stderr == ["Error: \(bad): beacons[0].path.distance: expected a number"])
        #expect(!FileManager.default.fileExists(atPath: directory.path("x")))
    }

    @Test("a scene or site file that is not JSON names FILE:LINE:COLUMN and the fault, as jq does")
    func syntaxErrorsNameLineAndColumn() throws {
        let directory = try TemporaryDirectory()
        let scene = directory.path("typo5.json")
        try Data("{\n  \"duration\": 60,\n  \"beacons\": [] \"x\"\n}\n".utf8).write(to: URL(fileURLWithPath: scene))
        let io = CapturedConsole()
        #expect(io.run(["simulate", "--scene", scene, "--out", directory.path("x")]) == 65)
        #expect(io.stderr == ["Error: \(scene):3:17: scene: not valid JSON: expected ',' or '}'"])

        let site = directory.path("site.json")
        try Data("{\"rooms\": [],\n\"gateways\": [}".utf8).write(to: URL(fileURLWithPath: site))
        let siteRun = CapturedConsole()
        #expect(siteRun.run(["simulate", "--scene", "desk", "--site", site, "--out", directory.path("x")]) == 65)
        #expect(siteRun.stderr == ["Error: \(site):2:14: not valid JSON: expected a value"])
    }

    @Test("a file that cannot be written is one Error line and exit 74", arguments: [
        ["--out", "/dev/full"],
        ["--out", "DIR/capture.btsnoop", "--truth", "/dev/full"],
    ])
    func unwritable(arguments: [String]) throws {
        let directory = try TemporaryDirectory()
        let io = CapturedConsole()
        let resolved = arguments.map { $0.replacingOccurrences(of: "DIR", with: directory.url.path) }
        #expect(io.run(["simulate", "--scene", "desk"] + resolved) == 74)
        #expect(io.stderr.count == 1, "\(io.stderr)")
        #expect(io.stderr.first?.hasPrefix("Error: ") == true)
        #expect(io.stderr.first?.contains("No space left on device") == true, "\(io.stderr)")
    }

    @Test("an output that cannot be created, a FIFO nobody reads included, fails at once with exit 73, as --record does",
          .timeLimit(.minutes(1)), arguments: ["--out", "--truth"])
    func uncreatableOutputs(option: String) throws {
        let directory = try TemporaryDirectory()
        let fifo = directory.path("fifo")
        #expect(mkfifo(fifo, 0o600) == 0)
        let other = option == "--out" ? ["--truth", directory.path("truth.jsonl")] : ["--out", directory.path("capture.btsnoop")]
        let unread = CapturedConsole()
        #expect(unread.run(["simulate", "--scene", "desk", option, fifo] + other) == 73)
        #expect(unread.stderr == ["Error: \(option) \(fifo): a FIFO with no reader"])
        let missing = directory.path("none/capture.btsnoop")
        let io = CapturedConsole()
        #expect(io.run(["simulate", "--scene", "desk", option, missing] + other) == 73)
        #expect(io.stderr == ["Error: \(option) \(missing): no such file or directory"])
    }

    @Test("a scene file past the 16 MiB limit, or an endless one, is refused with exit 65 naming the limit",
          .timeLimit(.minutes(1)), arguments: ["/dev/zero", "LARGE"])
    func sceneFileTooLarge(scene: String) throws {
        let directory = try TemporaryDirectory()
        let path = scene.replacingOccurrences(of: "LARGE", with: directory.path("large.json"))
        if scene == "LARGE" {
            #expect(FileManager.default.createFile(atPath: path, contents: nil))
            #expect(truncate(path, off_t(Scene.maximumFileSize + 1)) == 0)
        }
        let io = CapturedConsole()
        #expect(io.run(["simulate", "--scene", path, "--out", directory.path("x")]) == 65)
        #expect(io.stderr == ["Error: \(path): the scene file is larger than 16 MiB, the limit for a scene"])
        #expect(!FileManager.default.fileExists(atPath: directory.path("x")))
    }

    @Test("a scene file of exactly 16 MiB is read whole and judged as JSON")
    func sceneFileAtTheLimit() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("spaces.json")
        try Data(repeating: UInt8(ascii: " "), count: Scene.maximumFileSize).write(to: URL(fileURLWithPath: path))
        let io = CapturedConsole()
        #expect(io.run(["simulate", "--scene", path, "--out", directory.path("x")]) == 65)
        #expect(io.stderr == ["Error: \(path):1:\(Scene.maximumFileSize + 1): scene: not valid JSON: unexpected end of input, expected a value"])
    }

    @Test("the same arguments give the same bytes; another seed gives another capture")
    func deterministic() throws {
        let directory = try TemporaryDirectory()
        func run(_ name: String, seed: String) throws -> (capture: [UInt8], truth: [UInt8]) {
            let io = CapturedConsole()
            #expect(io.run(["simulate", "--scene", "hallway", "--duration", "20s", "--seed", seed,
                            "--out", directory.path("\(name).btsnoop"), "--truth", directory.path("\(name).jsonl")]) == 0)
            #expect(io.stdout.isEmpty && io.stderr.isEmpty)
            return (try bytes(directory.path("\(name).btsnoop")), try bytes(directory.path("\(name).jsonl")))
        }
        let first = try run("a", seed: "7")
        let second = try run("b", seed: "7")
        let other = try run("c", seed: "8")
        #expect(first.capture == second.capture && first.truth == second.truth)
        #expect(first.capture != other.capture)
        #expect(first.truth == other.truth) // the truth is the scene's, not the radio's
    }

    @Test("--truth - writes the ground truth to stdout, the same lines as the file")
    func truthOnStdout() throws {
        let directory = try TemporaryDirectory()
        let io = CapturedConsole()
        #expect(io.run(["simulate", "--scene", "desk", "--duration", "3s", "--out", directory.path("a.btsnoop"), "--truth", "-"]) == 0)
        #expect(io.run(["simulate", "--scene", "desk", "--duration", "3s", "--out", directory.path("b.btsnoop"),
                        "--truth", directory.path("b.jsonl")]) == 0)
        #expect(io.stdout.count == 3)
        #expect(io.stdout == (try lines(directory.path("b.jsonl"))))
        #expect(io.stdout.first?.hasPrefix(#"{"time":"2026-01-01T00:00:00.000Z","elapsed":0.000,"beacon":0,"#) == true)
    }

    @Test("--print-scene prints a scene file that reads back as the scene, options applied")
    func printScene() throws {
        let io = CapturedConsole()
        #expect(io.run(["simulate", "--scene", "walk-away", "--print-scene", "--loss", "25%", "--reports", "legacy"]) == 0)
        var expected = try #require(Scene.named("walk-away"))
        expected.radio.loss = 0.25
        expected.receiver.reports = .legacy
        #expect(try Scene.decode(json: Array(io.stdout.joined(separator: "\n").utf8)) == expected)

        let flags = CapturedConsole()
        #expect(flags.run(["simulate", "--uuid", Self.uuid, "--major", "1", "--minor", "2", "--distance", "2", "--walk-to", "8",
                           "--print-scene"]) == 0)
        let scene = try Scene.decode(json: Array(flags.stdout.joined(separator: "\n").utf8))
        #expect(scene.duration == .seconds(60))
        #expect(scene.beacons.map(\.path) == [.walkingAwayAndBack(near: 2, far: 8, speed: 1.2, pause: Micros(0))])
        #expect(scene.regions.map(\.region.description) == [Self.uuid])
    }

    @Test("ground-truth times past 9999 are printed as its last millisecond, said once, quoting the real time",
          arguments: ["-", "FILE"])
    func truthTimesPastTheYear9999(truth: String) throws {
        let directory = try TemporaryDirectory()
        let truthPath = truth == "-" ? "-" : directory.path("truth.jsonl")
        let io = CapturedConsole()
        #expect(io.run(["simulate", "--uuid", Self.uuid, "--major", "1", "--minor", "2", "--duration", "5s", "--start", "9999-12-31T23:59:58Z",
                        "--out", directory.path("capture.btsnoop"), "--truth", truthPath]) == 0)
        // Rows at 23:59:58, 23:59:59, then 10000-01-01T00:00:00Z (253402300800 s from 1970) onwards.
        #expect(io.stderr == ["Warning: output times leave the years 0000 to 9999 (first 253402300800000000 µs from 1970); "
                              + "they are printed as the nearest time inside them"])
        let rows = truth == "-" ? io.stdout : try lines(truthPath)
        #expect(rows.count == 5, "\(rows)")
        #expect(rows.dropFirst(2).allSatisfy { $0.contains(#""time":"9999-12-31T23:59:59.999Z""#) }, "\(rows)")
    }

    @Test("walk-away replays through beacon range as enter, exit while out of range, enter again")
    func walkAwayReplays() throws {
        let directory = try TemporaryDirectory()
        let capture = directory.path("walk.btsnoop")
        let truthPath = directory.path("walk.jsonl")
        let io = CapturedConsole()
        #expect(io.run(["simulate", "--scene", "walk-away", "--out", capture, "--truth", truthPath]) == 0)
        let output = replay(capture)
        #expect(events(output).filter { $0 != "range" } == ["state", "enter", "state", "exit", "state", "enter", "state"])
        #expect(output.first?.contains(#""time":"2026-01-01T00:00:00.000Z""#) == true)
        // The exit comes after the truth says the region is outside, within the 10 s exit delay and a few
        // seconds of lucky packets; the enter again once it is back inside.
        let outside = try lines(truthPath).filter { $0.contains(#""walk-away":false"#) }
        let firstOutside = try #require(outside.first.flatMap(Self.elapsed))
        let lastOutside = try #require(outside.last.flatMap(Self.elapsed))
        let exit = try #require(output.first { $0.contains(#""event":"exit""#) }.flatMap(Self.seconds))
        let enter = try #require(output.last { $0.contains(#""event":"enter""#) }.flatMap(Self.seconds))
        #expect(exit > firstOutside && exit < firstOutside + 25, "exit at \(exit) s, outside from \(firstOutside) s")
        #expect(enter > lastOutside - 15 && enter < lastOutside + 5, "enter at \(enter) s, outside until \(lastOutside) s")
        #expect(output.filter { $0.contains(#""event":"range""#) }.last?.contains(#""time":"2026-01-01T00:04:00.000Z""#) == true)
    }

    @Test("lossy-office: half the packets lost, bursts, mixed reports, scan responses, RSSI 127 — and the region is never exited")
    func lossyOfficeNeverExits() throws {
        let directory = try TemporaryDirectory()
        let capture = directory.path("lossy.btsnoop")
        #expect(CapturedConsole().run(["simulate", "--scene", "lossy-office", "--out", capture]) == 0)
        let output = replay(capture, ["--uuid", Self.uuid, "--major", "2"])
        #expect(events(output).filter { $0 != "range" } == ["state", "enter", "state"])
        #expect(events(output).filter { $0 == "range" }.count == 600)
    }

    @Test("a beacon given by flags replays as one walking beacon; --duration, --start and --loss apply")
    func flagsScene() throws {
        let directory = try TemporaryDirectory()
        let capture = directory.path("flags.btsnoop")
        #expect(CapturedConsole().run(["simulate", "--uuid", Self.uuid, "--major", "1", "--minor", "2", "--distance", "1",
                                       "--walk-to", "6", "--duration", "10s", "--start", "2027-03-04T05:06:07Z",
                                       "--out", capture]) == 0)
        let output = replay(capture)
        #expect(output.first?.contains(#""time":"2027-03-04T05:06:07.000Z""#) == true)
        #expect(events(output) == ["state", "enter", "state"] + Array(repeating: "range", count: 10))
        #expect(output.last?.contains(#""time":"2027-03-04T05:06:17.000Z""#) == true)
        #expect(output.dropFirst(3).allSatisfy { $0.contains(#""major":1,"minor":2"#) })

        let silent = directory.path("silent.btsnoop")
        #expect(CapturedConsole().run(["simulate", "--uuid", Self.uuid, "--major", "1", "--minor", "2", "--loss", "1",
                                       "--out", silent]) == 0)
        // Nothing heard: unknown at the start, outside once --exit-after has passed.
        let silence = replay(silent)
        #expect(events(silence) == ["state", "state"])
        #expect(silence.last?.contains(#""state":"outside""#) == true)
    }

    @Test("btmon reads the capture: both report kinds, scan responses and the iBeacon",
          .enabled(if: SimulateCommandTests.btmon != nil, "btmon not installed (make deps)"))
    func btmonReads() throws {
        let directory = try TemporaryDirectory()
        let capture = directory.path("btmon.btsnoop")
        #expect(CapturedConsole().run(["simulate", "--scene", "lossy-office", "--duration", "5s", "--out", capture]) == 0)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try #require(Self.btmon))
        process.arguments = ["-r", capture]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let text = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        for expected in ["LE Set Extended Scan Enable", "LE Extended Advertising Report", "LE Advertising Report",
                         "SCAN_RSP", "Type: iBeacon (2)", "RSSI: not available"] {
            #expect(text.contains(expected), "btmon shows no \(expected)")
        }
        // btmon calls a legacy report's RSSI 127 "invalid"; nothing else may be.
        let complaints = text.split(separator: "\n").filter { !$0.contains("RSSI: invalid (0x7f)") }
            .filter { $0.lowercased().contains("invalid") || $0.lowercased().contains("malformed") }
        #expect(complaints.isEmpty, "\(complaints)")
    }

    static let btmon: String? = ["/usr/bin/btmon", "/usr/sbin/btmon", "/bin/btmon"].first {
        FileManager.default.isExecutableFile(atPath: $0)
    }

    /// Seconds after 2026-01-01T00:00:00Z of a line's "time".
    static func seconds(_ line: String) -> Double? {
        guard let range = line.range(of: #""time":"2026-01-01T"#) else { return nil }
        let clock = line[range.upperBound...].prefix(12) // HH:MM:SS.mmm
        let parts = clock.split(separator: ":")
        guard parts.count == 3, let h = Double(parts[0]), let m = Double(parts[1]), let s = Double(parts[2]) else { return nil }
        return h * 3600 + m * 60 + s
    }

    /// A ground-truth line's "elapsed".
    static func elapsed(_ line: String) -> Double? {
        guard let range = line.range(of: #""elapsed":"#) else { return nil }
        return Double(line[range.upperBound...].prefix { $0 != "," })
    }
}

@Suite("beacon simulate stopped by a signal", .serialized)
struct SimulateSignalTests {
    @Test("a stopping signal ends simulate at once with exit 0, the unfinished capture and ground truth removed")
    func signalRemovesUnfinishedFiles() throws {
        let directory = try TemporaryDirectory()
        let capture = directory.path("c.snoop"), truth = directory.path("t.jsonl")
        let watcher = try SignalWatcher()
        defer { watcher.close() }
        raise(SIGTERM)
        let io = CapturedConsole()
        let code = BeaconTool.run(arguments: ["simulate", "--scene", "walk-away", "--out", capture, "--truth", truth],
                                  environment: [:], console: io.console, signals: watcher)
        #expect(code == 0)
        #expect(io.stderr == ["Stopped by a signal: removed the unfinished \(capture) and \(truth)"])
        #expect(!FileManager.default.fileExists(atPath: capture))
        #expect(!FileManager.default.fileExists(atPath: truth))
        #expect(watcher.received == SIGTERM)
    }
}

/// scenes/formats.json: simulated AltBeacon and Eddystone beacons are what range and scan find.
@Suite struct SimulatedFormatsTests {
    static let sceneFile = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("scenes/formats.json").path

    static func capture(in directory: TemporaryDirectory) throws -> String {
        let path = directory.path("formats.btsnoop")
        let io = CapturedConsole()
        #expect(io.run(["simulate", "--scene", sceneFile, "--out", path, "--duration", "10s"]) == 0, "\(io.stderr)")
        return path
    }

    static func objects(_ lines: [String]) throws -> [[String: Any]] {
        try lines.map { try #require(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
    }

    @Test("scan lists each simulated beacon with its format and identity")
    func scan() throws {
        let directory = try TemporaryDirectory()
        let path = try Self.capture(in: directory)
        let io = CapturedConsole()
        #expect(io.run(["scan", "--hci", "btsnoop:\(path)", "--duration", "1s"]) == 0)
        let lines = try Self.objects(io.stdout)
        #expect(lines.map { $0["format"] as? String } == ["ibeacon", "altbeacon", "eddystone-uid", "eddystone-url"])
        #expect(lines[0]["uuid"] as? String == "E2C56DB5-DFFB-48D2-B060-D0F5A71096E0" && lines[0]["major"] as? Int == 7
            && lines[0]["minor"] as? Int == 1 && lines[0]["measuredPower"] as? Int == -59)
        #expect(lines[1]["id1"] as? String == "2F234454-CF6D-4A0F-ADF2-F4911BA9FFA6" && lines[1]["id2"] as? Int == 1
            && lines[1]["id3"] as? Int == 2 && lines[1]["measuredPower"] as? Int == -61)
        #expect(lines[2]["namespace"] as? String == "00010203040506070809" && lines[2]["instance"] as? String == "0A0B0C0D0E0F"
            && lines[2]["measuredPower"] as? Int == -62 && lines[2]["txPowerAt0m"] as? Int == -21)
        #expect(lines[3]["url"] as? String == "https://example.com/room-7" && lines[3]["measuredPower"] as? Int == -65)
    }

    @Test("range enters the AltBeacon and Eddystone-UID regions and ranges those beacons")
    func range() throws {
        let directory = try TemporaryDirectory()
        let path = try Self.capture(in: directory)
        let io = CapturedConsole()
        #expect(io.run(["range", "--hci", "btsnoop:\(path)", "--region", "table=altbeacon:2F234454-CF6D-4A0F-ADF2-F4911BA9FFA6:1",
                        "--region", "tag=eddystone:00010203040506070809"]) == 0)
        let lines = try Self.objects(io.stdout)
        let enters = lines.filter { $0["event"] as? String == "enter" }.compactMap { ($0["region"] as? [String: Any])?["name"] as? String }
        #expect(enters == ["table", "tag"])
        let ranged = lines.filter { $0["event"] as? String == "range" }.flatMap { $0["beacons"] as? [[String: Any]] ?? [] }
        #expect(ranged.contains { $0["format"] as? String == "altbeacon" && $0["id1"] as? String == "2F234454-CF6D-4A0F-ADF2-F4911BA9FFA6"
            && $0["id2"] as? Int == 1 && $0["id3"] as? Int == 2 })
        #expect(ranged.contains { $0["format"] as? String == "eddystone-uid" && $0["namespace"] as? String == "00010203040506070809"
            && $0["instance"] as? String == "0A0B0C0D0E0F" })
        #expect(!ranged.contains { $0["format"] == nil || $0["format"] as? String == "eddystone-url" })
    }
}
