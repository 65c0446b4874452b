import Foundation
import Testing

/// make bench-fleet's driver (tools/bench/fleet_bench.py) at a tiny load: its own MQTT client publishes
/// the gateways' readings to a real mosquitto, beacon locate fuses them, and its subscriber times the
/// locations. What it checks is that the driver works end to end, never how fast anything is.
@Suite("make bench-fleet's driver",
       .enabled(if: IntegrationGate.isEnabled && MosquittoBroker.isInstalled, IntegrationGate.reason))
struct FleetBenchTests {
    static let columns = ["gateways × beacons", "readings/s", "locations/s", "windows", "locate CPU", "µs/reading",
                          "latency p50", "p99", "window end p50", "p99", "peak RSS", "warnings", "malformed",
                          "publishers CPU", "broker CPU", "other CPU"]

    /// A table line's cells: columns are set apart by two spaces or more, a cell holds single spaces.
    static func cells(_ line: String) -> [String] {
        line.split(separator: "  ", omittingEmptySubsequences: true).map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty }
    }

    @Test("3 gateways × 5 beacons for 5 s: a table row with every column filled, 15 readings a second, no malformed message")
    func tinyLoad() async throws {
        let directory = try ProjectPaths.makeScratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let driver = try ChildProcess(
            name: "fleet_bench.py", executable: "/usr/bin/python3",
            arguments: [ProjectPaths.tool("bench/fleet_bench.py"), "--beacon", BeaconProcess.binaryPath, "--steps", "3x5",
                        "--warm-up", "2", "--measure", "5", "--work", directory.path],
            limit: HangGuard.processLimit)
        #expect(try await driver.waitForExit(within: .seconds(120)) == .exited(0), "\(driver.failure("exit status"))")
        let lines = driver.stdoutLines
        let head = try #require(lines.firstIndex { $0.hasPrefix("gateways × beacons") }, "no table: \(lines)")
        #expect(Self.cells(lines[head]) == Self.columns)
        let row = try #require(lines.indices.contains(head + 1) ? Self.cells(lines[head + 1]) : nil, "no row: \(lines)")
        try #require(row.count == Self.columns.count, "\(row)")
        let value = lines[head...head + 1].joined(separator: "\n")
        #expect(row.allSatisfy { !$0.lowercased().contains("nan") }, "\(row)")
        #expect(row[0] == "3 × 5")
        // Every gateway hears every beacon: 3 readings messages of 5 readings each, every second.
        #expect(row[1] == "15", "\(value)")
        #expect(row[3].wholeMatch(of: /[0-5]\/5/) != nil, "\(value)")
        for index in [4, 13, 14, 15] { #expect(row[index].wholeMatch(of: /\d+(\.\d+)?%/) != nil, "\(value)") }
        for index in 6...9 { #expect(row[index].wholeMatch(of: /\d+(\.\d+)? ms/) != nil, "\(value)") }
        #expect(row[5].wholeMatch(of: /\d+\.\d\d/) != nil, "\(value)")
        #expect(row[10].wholeMatch(of: /\d+\.\d MiB/) != nil, "\(value)")
        #expect(row[12] == "0", "locate warned about malformed messages: \(lines)")
        #expect(lines.contains { $0.hasPrefix("one fuser sustained ") }, "\(lines)")
    }
}
