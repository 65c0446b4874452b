import BeaconCore
import Foundation
import Testing

/// make bench compares beacon with a C reference loop and Python peers. Its figures mean something only
/// if they all find the same beacons: on a small capture of the bench's own kind (a `beacon simulate`
/// scene of several UUIDs with neighbours that are not beacons, legacy and extended reports mixed),
/// every one of them counts the same reports per identity of the region as beacon's `range` lines do
/// (the sum of `samples`).
@Suite("make bench's reference loop and peer drivers", .enabled(if: IntegrationGate.isEnabled, IntegrationGate.reason))
struct BenchReferenceTests {
    static let uuid = "E2C56DB5-DFFB-48D2-B060-D0F5A7100000"
    static let benchPython = ProjectPaths.root.appendingPathComponent(".venv-bench/bin/python").path

    /// Per identity ("UUID MAJOR MINOR"), the count from the lines after a tool's summary line.
    static func counts(_ lines: [String]) -> [String: Int] {
        var result: [String: Int] = [:]
        for line in lines.dropFirst() {
            let fields = line.split(separator: " ")
            guard fields.count == 4, let count = Int(fields[3]) else { continue }
            result["\(fields[0]) \(fields[1]) \(fields[2])", default: 0] += count
        }
        return result
    }

    /// 30 standing beacons of 3 UUIDs (the bench UUID with its last two bytes 0, 1, 2), 3 neighbours,
    /// mixed reports with 30 % extended ones, 10 s: a `beacon simulate` scene as make bench writes them.
    static var scene: String {
        let beacons = (0..<30).map { i in
            let uuid = uuid.dropLast(4) + String(format: "%04X", i % 3)
            return #"{"uuid": "\#(uuid)", "minor": \#(i), "path": {"kind": "standing", "distance": \#(1 + i % 15)}}"#
        }
        return #"{"duration": 10, "receiver": {"reports": "mixed", "extendedShare": 0.3}, "#
            + #""neighbours": {"count": 3, "interval": "105ms"}, "beacons": [\#(beacons.joined(separator: ", "))]}"#
    }

    /// The capture's LE Advertising Report and LE Extended Advertising Report events.
    static func reportEvents(_ path: String) throws -> (legacy: Int, extended: Int) {
        var reader = BtsnoopReader()
        reader.append(try Data(contentsOf: URL(fileURLWithPath: path)))
        var counts = (legacy: 0, extended: 0)
        while let record = try reader.next() {
            let payload = Array(record.packet.payload)
            guard record.packet.kind == .event, payload.count > 2, payload[0] == 0x3E else { continue }
            if payload[2] == 0x02 { counts.legacy += 1 }
            if payload[2] == 0x0D { counts.extended += 1 }
        }
        try reader.finish()
        return counts
    }

    static func run(_ name: String, _ executable: String, _ arguments: [String]) async throws -> ChildProcess {
        let child = try ChildProcess(name: name, executable: executable, arguments: arguments, limit: HangGuard.processLimit)
        #expect(try await child.waitForExit(within: HangGuard.step) == .exited(0), "\(child.failure("exit status"))")
        return child
    }

    @Test("the C loop and the beacontools, aioblescan and bumble drivers count what beacon counts, per identity")
    func referencesAgreeWithBeacon() async throws {
        try #require(FileManager.default.isExecutableFile(atPath: Self.benchPython), "no \(Self.benchPython); run `make deps`")
        let directory = try ProjectPaths.makeScratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let capture = directory.appendingPathComponent("small.btsnoop").path
        let scene = directory.appendingPathComponent("small.json")
        try Self.scene.write(to: scene, atomically: true, encoding: .utf8)
        _ = try await Self.run("beacon simulate", BeaconProcess.binaryPath, ["simulate", "--scene", scene.path, "--out", capture])
        let events = try Self.reportEvents(capture)
        #expect(events.legacy > 1000 && events.extended > 500, "\(events)")
        let loop = directory.appendingPathComponent("ibeacon_loop").path
        _ = try await Self.run("cc ibeacon_loop.c", "/usr/bin/cc", ["-O2", "-o", loop, ProjectPaths.tool("bench/ibeacon_loop.c")])

        let beacon = try await Self.run("beacon range", BeaconProcess.binaryPath, ["range", "--hci", "btsnoop:\(capture)", "--uuid", Self.uuid])
        var expected: [String: Int] = [:]
        for line in try BeaconOutputLine.decode(beacon.stdoutLines) where line.event == "range" {
            for ranged in line.beacons ?? [] {
                expected["\(ranged.uuid.uppercased()) \(ranged.major) \(ranged.minor)", default: 0] += ranged.samples ?? 0
            }
        }
        #expect(expected.count == 10, "\(expected)")
        #expect(expected.values.reduce(0, +) > 500, "\(expected)")

        let reference = try await Self.run("ibeacon_loop", loop, [capture, "--uuid", Self.uuid, "--counts"])
        #expect(Self.counts(reference.stdoutLines) == expected, "C loop: \(reference.stdoutLines)")
        // The capture mixes both report kinds and noise, so the loop's extended and noise paths ran too.
        let summary = reference.stdoutLines.first ?? ""
        let reports = events.legacy + events.extended
        // Its records besides the reports: the scan commands and their answers, four at the start and two at the end.
        #expect(summary.hasPrefix("records=\(reports + 6) reports=\(reports) "), "\(summary)")
        #expect(!summary.contains("ibeacons=\(reports) "), "\(summary)")

        for driver in ["beacontools", "aioblescan", "bumble"] {
            let peer = try await Self.run(driver, Self.benchPython,
                                          [ProjectPaths.tool("bench/peer_\(driver).py"), capture, "--uuid", Self.uuid, "--counts"])
            #expect(Self.counts(peer.stdoutLines) == expected, "\(driver): \(peer.stdoutLines)")
            #expect(peer.stdoutLines.first?.hasPrefix("events=\(reports) ") == true, "\(driver): \(peer.stdoutLines.first ?? "")")
        }
    }
}
