import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Live → `--record` → replay: a live `beacon range` against the fault controller (an iBeacon report
/// every 20 ms, in real time) records its run while its wall clock steps or its beacon leaves for
/// longer than `--exit-after`; the replay of that recording, with the same options, must print the
/// same bytes. The wall clock is stepped as in `ClockStepIntegrationTests`: beacon reads it as its
/// monotonic clock plus the offset in the file BEACON_TEST_WALL_CLOCK_FILE names, which the test
/// rewrites mid-run (the test cannot set the machine's clock).
@Suite(
    "live runs and the replays of their recordings print the same bytes",
    .enabled(if: IntegrationGate.isEnabled, IntegrationGate.reason),
    .timeLimit(.minutes(10)))
struct RecordReplayTests {
    /// One live run: the wall-clock step made after the second range line (microseconds, 0 for none),
    /// the controller's scenario, the options both runs get, the fewest range lines the live run prints,
    /// and whether its exit comes before any tick ranged what was heard (so a partial range line precedes it).
    struct Case: CustomTestStringConvertible, Sendable {
        let name: String
        let step: Int64
        let controller: [String]
        let options: [String]
        var ranges = 5
        var exitsBeforeATick = false
        var testDescription: String { name }
    }

    static let cases = [
        Case(name: "wall clock +3 s (above the 100 ms a clock may drift, below --exit-after)", step: 3_000_000,
             controller: [], options: ["--exit-after", "10s"]),
        Case(name: "wall clock +1 h", step: 3_600_000_000, controller: [], options: ["--exit-after", "10s"]),
        Case(name: "wall clock -1 h", step: -3_600_000_000, controller: [], options: ["--exit-after", "10s"]),
        Case(name: "the beacon leaves for 3 s with --exit-after 2s, nothing else on air", step: 0,
             controller: ["--scenario", "departure", "--after", "2", "--delay", "3"], options: ["--exit-after", "2s"]),
        Case(name: "a short visit with --interval 6s, longer than --exit-after 2s: ranged before its exit", step: 0,
             controller: ["--scenario", "departure", "--after", "1", "--delay", "3"],
             options: ["--exit-after", "2s", "--interval", "6s"], ranges: 1, exitsBeforeATick: true),
    ]

    @Test("the replay of a live run's --record prints the live run's stdout byte for byte", arguments: cases)
    func replayEqualsLive(_ run: Case) async throws {
        try await FaultController.with(run.controller) { controller in
            let scratch = try ProjectPaths.makeScratchDirectory()
            defer { try? FileManager.default.removeItem(at: scratch) }
            let offsetFile = scratch.appendingPathComponent("wall-clock-offset").path
            let capture = scratch.appendingPathComponent("live.btsnoop").path
            let liveOutput = scratch.appendingPathComponent("live.jsonl").path
            let replayOutput = scratch.appendingPathComponent("replay.jsonl").path
            let today = ClockStepIntegrationTests.read(CLOCK_REALTIME) - ClockStepIntegrationTests.read(CLOCK_MONOTONIC)
            try ClockStepIntegrationTests.writeOffset(today, to: offsetFile)
            let options = ["--uuid", TestBeacon.uuid, "--duration", "8"] + run.options

            let live = try Self.beacon(["range", "--hci", controller.spec, "--record", capture] + options, to: liveOutput,
                                       environment: ["BEACON_TEST_WALL_CLOCK_FILE": offsetFile])
            if run.step != 0 {
                try await Self.waitForRanges(2, in: liveOutput)
                try ClockStepIntegrationTests.writeOffset(today + run.step, to: offsetFile)
            }
            #expect(try await live.waitForExit(within: HangGuard.step) == .exited(0), "\(live.failure("exit status"))")

            let replay = try Self.beacon(["range", "--hci", "btsnoop:" + capture] + options, to: replayOutput)
            #expect(try await replay.waitForExit(within: HangGuard.step) == .exited(0), "\(replay.failure("exit status"))")
            #expect(replay.stderrLines.isEmpty, "\(replay.stderrLines)")

            let liveBytes = try Data(contentsOf: URL(fileURLWithPath: liveOutput))
            let replayBytes = try Data(contentsOf: URL(fileURLWithPath: replayOutput))
            let lines = try BeaconOutputLine.decode(String(decoding: liveBytes, as: UTF8.self).split(separator: "\n").map(String.init))
            // The live run did what the case is about.
            if run.step != 0 {
                #expect(live.stderrLines.count == 1 && live.stderrLines.first?.hasPrefix("Warning: the wall clock stepped ") == true,
                        "\(live.stderrLines)")
                #expect(lines.filter { $0.event == "exit" }.isEmpty)
            } else {
                #expect(lines.map(\.event).filter { $0 == "enter" || $0 == "exit" } == ["enter", "exit", "enter"])
                // What was heard before the exit is ranged first, on a partial line.
                if run.exitsBeforeATick, let exit = lines.firstIndex(where: { $0.event == "exit" }) {
                    #expect(exit > 0 && lines[exit - 1].event == "range" && lines[exit - 1].partial == true)
                }
            }
            #expect(lines.filter { $0.event == "range" }.count >= run.ranges)
            #expect(replayBytes == liveBytes, "live:\n\(String(decoding: liveBytes, as: UTF8.self))\nreplay:\n\(String(decoding: replayBytes, as: UTF8.self))")

            // btmon and Wireshark read the recording, its note included, without complaint.
            let btmon = try await CaptureDateTests.run("btmon", ["-r", capture], environment: ["TZ": "UTC"])
            #expect(btmon.stdoutLines.filter { $0.contains("= Note: beacon wall clock: record time ") }.count == (run.step != 0 ? 1 : 0),
                    "\(btmon.stdoutLines.filter { $0.contains("Note") })")
            let tshark = try await CaptureDateTests.run("tshark", ["-r", capture, "-V"])
            // (Wireshark notes Apple's manufacturer data as undecoded: a note, not a warning or an error.)
            let complaints = tshark.stdoutLines.filter {
                $0.contains("Malformed") || $0.contains("Expert Info (Warning") || $0.contains("Expert Info (Error")
            }
            #expect(complaints.isEmpty, "\(complaints.prefix(5))")
            #expect(tshark.stdoutLines.filter { $0.contains("System Note: beacon wall clock: record time ") }.count == (run.step != 0 ? 1 : 0))
        }
    }

    /// `beacon` with stdout in `path` (the bytes as written, no pipe between).
    static func beacon(_ arguments: [String], to path: String, environment: [String: String] = [:]) throws -> ChildProcess {
        try ChildProcess(name: "beacon " + arguments.joined(separator: " "), executable: "/bin/sh",
                         arguments: ["-c", #"out="$1" && shift && exec "$@" > "$out""#, "sh", path, BeaconProcess.binaryPath] + arguments,
                         environment: environment, limit: HangGuard.processLimit)
    }

    /// Waits until `path` holds `count` range lines.
    static func waitForRanges(_ count: Int, in path: String) async throws {
        let deadline = ContinuousClock.now + HangGuard.step
        while ContinuousClock.now < deadline {
            let text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
            if text.components(separatedBy: #""event":"range""#).count > count { return }
            try await Task.sleep(for: .milliseconds(20))
        }
        throw ChildProcessError(description: "no \(count) range lines in \(path) within \(HangGuard.step)")
    }
}
