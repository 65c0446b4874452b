@testable import BeaconCLI
import BeaconCore
import BeaconSimulation
import BeaconTransport
import Foundation
import Glibc
import Testing

@Suite("beacon simulate: site scenes")
struct SimulateSiteTests {
    static let uuid = SimulateCommandTests.uuid
    /// Two rooms without walls between, gateway "near" 1 m from the beacon, "far" 7 m from it.
    static let site = #"{"rooms": [{"name": "west", "polygon": [[0, 0], [5, 0], [5, 4], [0, 4]]}, {"name": "east", "polygon": [[5, 0], [10, 0], [10, 4], [5, 4]]}], "gateways": [{"name": "near", "position": [1, 2, 1]}, {"name": "far", "position": [9, 2, 1]}]}"#
    static let scene = #"{"duration": 20, "beacons": [{"uuid": "\#(uuid)", "major": 1, "minor": 2, "path": {"kind": "at", "point": [2, 2]}}], "site": \#(site)}"#

    func write(_ text: String, to path: String) throws {
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    }

    func bytes(_ path: String) throws -> [UInt8] {
        Array(try Data(contentsOf: URL(fileURLWithPath: path)))
    }

    func files(in directory: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory).sorted()
    }

    /// The mean "rssi" of the range lines' beacon entries in `lines`.
    func meanRSSI(_ lines: [String]) -> Double {
        let values = lines.flatMap { line in
            line.components(separatedBy: #""rssi":"#).dropFirst().compactMap { Double($0.prefix { $0 != "," }) }
        }
        return values.reduce(0, +) / Double(max(values.count, 1))
    }

    @Test("--out DIR: a capture per gateway and site.json, which beacon locate's site reader takes; each capture replays")
    func capturePerGateway() throws {
        let directory = try TemporaryDirectory()
        let out = directory.path("house")
        let io = CapturedConsole()
        #expect(io.run(["simulate", "--scene", "house", "--duration", "20s", "--out", out, "--truth", directory.path("truth.jsonl")]) == 0)
        #expect(io.stderr.isEmpty && io.stdout.isEmpty, "\(io.stderr)")
        let site = try #require(Scene.named("house")?.site)
        #expect(try files(in: out) == (site.gateways.map { "\($0.name).btsnoop" } + ["site.json"]).sorted())
        #expect(try Site.decode(bytes(out + "/site.json")) == site)
        for gateway in site.gateways {
            let output = SimulateCommandTests().replay(out + "/\(gateway.name).btsnoop")
            #expect(output.filter { $0.contains(#""event":"range""#) }.count == 20, "\(gateway.name)")
            #expect(output.contains { $0.contains(#""major":5,"minor":1"#) }, "\(gateway.name)")
        }
        let truth = String(decoding: try bytes(directory.path("truth.jsonl")), as: UTF8.self).split(separator: "\n")
        #expect(truth.count == 20 * 3)
        #expect(truth.first?.hasPrefix(#"{"time":"2026-01-01T00:00:00.000Z","elapsed":0.000,"beacon":0,"id":"e2c56db5-dffb-48d2-b060-d0f5a71096e0-5-1","#) == true)
        #expect(truth.first?.contains(#""x":3.000,"y":2.500,"floor":0,"room":"living","gateways":{"gw-living":{"distance":2.500,"#) == true)
    }

    @Test("the nearest gateway hears the beacon loudest, replayed through beacon range")
    func nearestGatewayLoudest() throws {
        let directory = try TemporaryDirectory()
        try write(Self.scene, to: directory.path("two.json"))
        #expect(CapturedConsole().run(["simulate", "--scene", directory.path("two.json"), "--out", directory.path("out")]) == 0)
        let near = meanRSSI(SimulateCommandTests().replay(directory.path("out/near.btsnoop")))
        let far = meanRSSI(SimulateCommandTests().replay(directory.path("out/far.btsnoop")))
        #expect(near > far + 10, "near \(near), far \(far)")
    }

    @Test("--site gives a scene its site, or replaces the one it has: the captures are the new site's gateways")
    func siteOption() throws {
        let directory = try TemporaryDirectory()
        try write(Self.scene, to: directory.path("two.json"))
        let other = #"{"rooms": [{"name": "hall", "polygon": [[0, 0], [4, 0], [4, 4], [0, 4]]}], "gateways": [{"name": "gw1", "position": [2, 2, 1]}, {"name": "gw2", "position": [3, 3, 2]}, {"name": "gw3", "position": [0, 0, 2]}]}"#
        try write(other, to: directory.path("other.json"))
        let io = CapturedConsole()
        #expect(io.run(["simulate", "--scene", directory.path("two.json"), "--site", directory.path("other.json"), "--duration", "3s",
                        "--out", directory.path("out")]) == 0, "\(io.stderr)")
        #expect(try files(in: directory.path("out")) == ["gw1.btsnoop", "gw2.btsnoop", "gw3.btsnoop", "site.json"])
        #expect(try Site.decode(bytes(directory.path("out/site.json"))) == Site.decode(Array(other.utf8)))

        // A plain scene's beacons are distances: a site does not fit them.
        let plain = CapturedConsole()
        #expect(plain.run(["simulate", "--scene", "desk", "--site", directory.path("other.json"), "--out", directory.path("desk")]) == 65)
        #expect(plain.stderr == [#"Error: the scene with the options given: beacons[0].path.kind: a site scene's beacons are points on its floor plan: expected "at" or "route", found "standing""#])
    }

    @Test("a site file that is not a site is exit 65 naming the field, one that cannot be read exit 66, as for locate")
    func badSiteFiles() throws {
        let directory = try TemporaryDirectory()
        let bad = directory.path("bad.json")
        try write(#"{"rooms": [{"name": "hall", "polygon": [[0, 0], [4, 0]]}], "gateways": []}"#, to: bad)
        let io = CapturedConsole()
        #expect(io.run(["simulate", "--scene", "house", "--site", bad, "--out", directory.path("out")]) == 65)
        #expect(io.stderr == ["Error: \(bad): rooms[0].polygon: a polygon needs at least 3 points, found 2"])
        let missing = CapturedConsole()
        #expect(missing.run(["simulate", "--scene", "house", "--site", directory.path("none.json"), "--out", directory.path("out")]) == 66)
        #expect(missing.stderr == ["Error: cannot read the --site file: open(\(directory.path("none.json"))): No such file or directory"])
        #expect(!FileManager.default.fileExists(atPath: directory.path("out")))
    }

    @Test("a site error inside a scene file is named under site.", arguments: [
        (#"{"duration": 5, "beacons": [], "site": {"rooms": [], "gateways": [{"name": "gw1", "position": [1]}]}}"#,
         "site.gateways[0].position: expected [x, y] or [x, y, z] in metres"),
        (#"{"duration": 5, "beacons": [], "site": \#(site), "gateways": [{"name": "nowhere"}]}"#,
         "gateways[0].name: the site has no gateway named 'nowhere'"),
    ])
    func siteErrorsInScenes(scene: String, message: String) throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("scene.json")
        try write(scene, to: path)
        let io = CapturedConsole()
        #expect(io.run(["simulate", "--scene", path, "--out", directory.path("out")]) == 65)
        #expect(io.stderr == ["Error: \(path): \(message)"])
    }

    @Test("a gateway whose name cannot be a file name is exit 65 naming it, and nothing is written",
          arguments: ["..", ".", "a/b", "-rf"])
    func unusableGatewayNames(name: String) throws {
        let directory = try TemporaryDirectory()
        let site = #"{"rooms": [], "gateways": [{"name": "ok", "position": [0, 0]}, {"name": "\#(name)", "position": [1, 1]}]}"#
        try write(site, to: directory.path("site.json"))
        try write(Self.scene, to: directory.path("scene.json"))
        let io = CapturedConsole()
        #expect(io.run(["simulate", "--scene", directory.path("scene.json"), "--site", directory.path("site.json"),
                        "--out", directory.path("out")]) == 65)
        #expect(io.stderr == ["Error: \(directory.path("site.json")): gateways[1].name: '\(name)' cannot name a capture file "
                              + "(a name with '/', '.', '..' or a leading '-')"])
        #expect(!FileManager.default.fileExists(atPath: directory.path("out")))
    }

    @Test("--truth naming a file --out writes, or --out overwriting the site file, is a usage error")
    func collidingOutputs() throws {
        let directory = try TemporaryDirectory()
        let out = directory.path("out")
        let truth = CapturedConsole()
        #expect(truth.run(["simulate", "--scene", "house", "--out", out, "--truth", out + "/gw-hall.btsnoop"]) == 64)
        #expect(truth.stderr.first == "Error: '--truth' names \(out)/gw-hall.btsnoop, a file '--out' writes")
        #expect(truth.stderr.last?.hasPrefix("Usage: beacon simulate") == true)
        #expect(!FileManager.default.fileExists(atPath: out))

        #expect(CapturedConsole().run(["simulate", "--scene", "house", "--duration", "1s", "--out", out]) == 0)
        let site = CapturedConsole()
        #expect(site.run(["simulate", "--scene", "house", "--site", out + "/site.json", "--out", out]) == 64)
        #expect(site.stderr.first == "Error: '--out' would overwrite the site file '\(out)/site.json' with \(out)/site.json")
    }

    @Test("--out DIR makes one directory level, and a missing parent is exit 73")
    func outputDirectory() throws {
        let directory = try TemporaryDirectory()
        let missing = directory.path("none/out")
        let io = CapturedConsole()
        #expect(io.run(["simulate", "--scene", "house", "--duration", "1s", "--out", missing]) == 73)
        #expect(io.stderr == ["Error: --out \(missing): no such file or directory"])
        let file = directory.path("file")
        try write("", to: file)
        let notDirectory = CapturedConsole()
        #expect(notDirectory.run(["simulate", "--scene", "house", "--duration", "1s", "--out", file]) == 73)
        #expect(notDirectory.stderr == ["Error: --out \(file): something that is not a directory is there"])
        // An existing directory is written into.
        #expect(CapturedConsole().run(["simulate", "--scene", "house", "--duration", "1s", "--out", directory.url.path + "/"]) == 0)
        #expect(FileManager.default.fileExists(atPath: directory.path("gw-hall.btsnoop")))
    }

    @Test("--print-scene of a site scene reads back as --scene printed.json to the same bytes, a --site included")
    func printSceneReadsBack() throws {
        let directory = try TemporaryDirectory()
        try write(Self.site, to: directory.path("site.json"))
        try write(Self.scene, to: directory.path("two.json"))
        for arguments in [["--scene", "house"], ["--scene", directory.path("two.json"), "--site", directory.path("site.json")]] {
            let first = CapturedConsole()
            #expect(first.run(["simulate"] + arguments + ["--print-scene"]) == 0)
            #expect(first.stdout.joined().contains(#""site" : {"#))
            let printed = directory.path("printed.json")
            try write(first.stdout.joined(separator: "\n") + "\n", to: printed)
            let second = CapturedConsole()
            #expect(second.run(["simulate", "--scene", printed, "--print-scene"]) == 0)
            #expect(second.stdout == first.stdout)
        }
        // The house's gateways are not the two rooms': its scene says which is missing.
        let io = CapturedConsole()
        #expect(io.run(["simulate", "--scene", "house", "--site", directory.path("site.json"), "--print-scene"]) == 65)
        #expect(io.stderr == ["Error: the scene with the options given: gateways[0].name: the site has no gateway named 'gw-kitchen'"])
    }

    @Test("--site is refused with a beacon given by flags")
    func siteWithFlags() {
        let io = CapturedConsole()
        #expect(io.run(["simulate", "--uuid", Self.uuid, "--major", "1", "--minor", "1", "--site", "site.json", "--out", "x"]) == 64)
        #expect(io.stderr.first?.hasPrefix("Error: '--site' needs '--scene'") == true)
    }
}

@Suite("beacon simulate stopped by a signal, site scenes", .serialized)
struct SimulateSiteSignalTests {
    @Test("a stopping signal removes every gateway's unfinished capture, the site file, the truth and the directory it made")
    func signalRemovesEveryFile() throws {
        let directory = try TemporaryDirectory()
        let out = directory.path("house"), truth = directory.path("t.jsonl")
        let watcher = try SignalWatcher()
        defer { watcher.close() }
        raise(SIGTERM)
        let io = CapturedConsole()
        let code = BeaconTool.run(arguments: ["simulate", "--scene", "house", "--out", out, "--truth", truth],
                                  environment: [:], console: io.console, signals: watcher)
        #expect(code == 0)
        let site = try #require(Scene.named("house")?.site)
        let removed = site.gateways.map { "\(out)/\($0.name).btsnoop" } + ["\(out)/site.json", truth, out]
        #expect(io.stderr == ["Stopped by a signal: removed the unfinished " + removed.dropLast().joined(separator: ", ") + " and \(out)"])
        #expect(!FileManager.default.fileExists(atPath: out))
        #expect(!FileManager.default.fileExists(atPath: truth))
    }
}
