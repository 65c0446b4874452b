import Foundation
import Testing

/// Every shell example in the README and docs/ runs, and prints what it shows
/// (tools/check_doc_examples.py). The blocks that cannot run here are few, and listed.
@Suite("README and docs examples", .enabled(if: IntegrationGate.isEnabled, IntegrationGate.reason),
       .timeLimit(.minutes(2)))
struct DocExamplesTests {
    /// The blocks marked `<!-- not run: … -->`: a real controller, root, a service, the whole build or
    /// the benchmark.
    static let notRun = 11

    @Test("each example prints the output shown")
    func examples() async throws {
        let docs = try FileManager.default.contentsOfDirectory(atPath: ProjectPaths.root.appendingPathComponent("docs").path)
            .filter { $0.hasSuffix(".md") }.sorted().map { "docs/\($0)" }
        let checker = try ChildProcess(
            name: "check_doc_examples.py", executable: "/usr/bin/python3",
            arguments: [ProjectPaths.tool("check_doc_examples.py"), "--beacon", BeaconProcess.binaryPath, "README.md"] + docs,
            currentDirectory: ProjectPaths.root, limit: HangGuard.processLimit)
        let termination = try await checker.waitForExit(within: .seconds(100))
        let report = checker.stdoutLines.joined(separator: "\n")
        #expect(termination == .exited(0), "\(report)\n\(checker.stderrLines.joined(separator: "\n"))")
        let summary = try #require(checker.stdoutLines.last)
        #expect(summary.hasSuffix(", 0 failed, \(Self.notRun) not run"), "\(report)")
        #expect(!summary.hasPrefix("doc examples: 0 passed"), "no example ran")
    }
}
