import Foundation
import Testing

/// make eval-fleet's path on two of its runs: `beacon-eval --fleet-prepare` writes them, tools/eval_fleet.py
/// simulates each scene and replays every gateway's capture with `beacon range --gateway` into a real
/// mosquitto with `beacon locate` fusing, and `beacon-eval --fleet-check` checks that the readings
/// that crossed the broker and locate's lines are exactly what the evaluation works out in process.
@Suite("make eval-fleet's broker path",
       .enabled(if: IntegrationGate.isEnabled && MosquittoBroker.isInstalled, IntegrationGate.reason),
       .timeLimit(.minutes(10)))
struct EvalFleetTests {
    static var evaluator: String { ProjectPaths.root.appendingPathComponent(".build/debug/beacon-eval").path }
    /// The runs kept: a walk across two rooms, a gateway going offline half-way, and gateways that
    /// calibrate each other from their own beacons (`beacon locate --calibrate`).
    static let kept = ["companion-diagonal-2026", "gateway-offline-2026", "self-calibration-2026"]

    @Test("three runs through the broker, one fused with --calibrate: every readings message and every locate line are the process's")
    func brokerPathEqualsProcess() async throws {
        let directory = try ProjectPaths.makeScratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let missing = directory.appendingPathComponent("no-real-data").path
        let prepare = try ChildProcess(name: "beacon-eval --fleet-prepare", executable: Self.evaluator,
                                       arguments: ["--flat-data", missing, "--office-data", missing, "--fleet-prepare", directory.path], limit: HangGuard.processLimit)
        #expect(try await prepare.waitForExit(within: HangGuard.step) == .exited(0), "\(prepare.failure("exit status"))")
        let runs = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        #expect(Set(Self.kept).isSubset(of: runs), "\(runs)")
        for run in runs where !Self.kept.contains(run) {
            try FileManager.default.removeItem(at: directory.appendingPathComponent(run))
        }
        let driver = try ChildProcess(name: "eval_fleet.py", executable: "/usr/bin/python3",
                                      arguments: [ProjectPaths.tool("eval_fleet.py"), "--beacon", BeaconProcess.binaryPath, directory.path],
                                      limit: HangGuard.processLimit)
        #expect(try await driver.waitForExit(within: .seconds(300)) == .exited(0), "\(driver.failure("exit status"))")
        #expect(driver.stdoutLines.contains { $0.hasPrefix("eval-fleet: 3 runs in ") }, "\(driver.stdoutLines)")
        for run in Self.kept {
            let lines = try String(contentsOf: directory.appendingPathComponent("\(run)/locate.jsonl"), encoding: .utf8)
            #expect(lines.split(separator: "\n").count > 50, "\(run)")
            // Only the calibrated run fits the gateways: a fit a minute from 50 s into its 3600 s.
            let fits = lines.split(separator: "\n").filter { $0.hasPrefix(#"{"event":"gatewayCalibration""#) }
            #expect(fits.count == (run.hasPrefix("self-calibration") ? 60 : 0), "\(run): \(fits.count) fits")
        }
        let check = try ChildProcess(name: "beacon-eval --fleet-check", executable: Self.evaluator,
                                     arguments: ["--flat-data", missing, "--office-data", missing, "--fleet-check", directory.path],
                                     limit: HangGuard.processLimit)
        #expect(try await check.waitForExit(within: .seconds(300)) == .exited(0), "\(check.failure("exit status"))")
        #expect(check.stdoutLines.first?.contains("in all 3 runs, every readings message that crossed the broker") == true,
                "\(check.stdoutLines.prefix(2)) \(check.stderrLines)")

        // A line either locate did not print: the check names the difference and fails.
        for (file, row) in [("locate-smoothing.jsonl", "beacon locate --smoothing 3s"), ("locate.jsonl", "beacon locate")] {
            let located = directory.appendingPathComponent("\(Self.kept[0])/\(file)")
            let printed = try String(contentsOf: located, encoding: .utf8).split(separator: "\n")
            try (printed.dropLast().joined(separator: "\n") + "\n").write(to: located, atomically: true, encoding: .utf8)
            let recheck = try ChildProcess(name: "beacon-eval --fleet-check", executable: Self.evaluator,
                                           arguments: ["--flat-data", missing, "--office-data", missing, "--fleet-check", directory.path], limit: HangGuard.processLimit)
            #expect(try await recheck.waitForExit(within: .seconds(300)) == .exited(1))
            #expect(recheck.stderrLines.contains { $0.contains("differs from the process: \(Self.kept[0]): \(row) printed \(printed.count - 1) lines") },
                    "\(recheck.stderrLines)")
        }
    }
}
