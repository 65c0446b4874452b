import Foundation
import Testing

/// Progress on standard error: shown while it is a terminal (a pseudo-terminal here), never when
/// it is a pipe or a file, and never mixed into standard output.
@Suite("progress of long offline work", .enabled(if: IntegrationGate.isEnabled, IntegrationGate.reason),
       .timeLimit(.minutes(10)))
struct ProgressTests {
    private struct PtyRun: Decodable {
        let status: Int
        let stdout: String
        let stderr: String
    }

    /// Runs beacon with stderr on a pseudo-terminal (tools/pty_stderr.py).
    private func runOnTerminal(_ arguments: [String]) async throws -> PtyRun {
        let runner = try ChildProcess(name: "pty_stderr.py", executable: "/usr/bin/python3",
                                      arguments: [ProjectPaths.tool("pty_stderr.py"), BeaconProcess.binaryPath] + arguments,
                                      limit: HangGuard.processLimit)
        try await runner.waitForExit(within: .seconds(50))
        return try JSONDecoder().decode(PtyRun.self, from: Data(runner.stdoutLines.joined(separator: "\n").utf8))
    }

    @Test("beacon simulate and a replay show progress on a terminal, and only there")
    func progress() async throws {
        let scratch = try ProjectPaths.makeScratchDirectory()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let capture = scratch.appendingPathComponent("hall.btsnoop").path

        let simulated = try await runOnTerminal(["simulate", "--scene", "hallway", "--out", capture])
        #expect(simulated.status == 0)
        #expect(simulated.stderr.hasPrefix("\r\u{1B}[Ksimulate: 0% (0s of 600s simulated)"), "\(simulated.stderr)")
        #expect(simulated.stderr.hasSuffix("\r\u{1B}[K"), "the last progress line is cleared")
        let quiet = try await BeaconProcess.run(["simulate", "--scene", "hallway", "--out", capture])
        #expect(quiet.termination == .exited(0))
        #expect(quiet.stderrLines.isEmpty, "\(quiet.stderrLines)")

        let range = ["range", "--hci", "btsnoop:\(capture)", "--uuid", TestBeacon.uuid]
        let replayed = try await runOnTerminal(range)
        #expect(replayed.status == 0)
        #expect(replayed.stderr.hasPrefix("\r\u{1B}[Kreplay: "), "\(replayed.stderr)")
        #expect(replayed.stderr.contains(" MiB read, 1 packet)"), "the first packet shows at once")
        #expect(replayed.stderr.hasSuffix("\r\u{1B}[K"))
        let piped = try await BeaconProcess.run(range)
        #expect(piped.stderrLines.isEmpty, "\(piped.stderrLines)")
        #expect(replayed.stdout.split(separator: "\n").map(String.init) == piped.stdoutLines, "progress never reaches stdout")
    }
}
