import Foundation
import Testing

/// Every shell example in the README, CONTRIBUTING.md and docs/ runs, and prints what it shows, and every YAML block
/// parses as the configuration Home Assistant reads today (tools/check_doc_examples.py, in the tools venv
/// for PyYAML). The blocks that cannot run here are few, and listed.
@Suite("README, CONTRIBUTING and docs examples", .enabled(if: IntegrationGate.isEnabled, IntegrationGate.reason),
       .timeLimit(.minutes(5)))
struct DocExamplesTests {
    /// The blocks marked `<!-- not run: … -->`: a real controller, root, a service, a package install, the
    /// whole build or the benchmark.
    static let notRun = 15

    @Test("each example prints the output shown")
    func examples() async throws {
        let docs = try FileManager.default.contentsOfDirectory(atPath: ProjectPaths.root.appendingPathComponent("docs").path)
            .filter { $0.hasSuffix(".md") }.sorted().map { "docs/\($0)" }
        let checker = try ChildProcess(
            name: "check_doc_examples.py", executable: ProjectPaths.python,
            arguments: [ProjectPaths.tool("check_doc_examples.py"), "--beacon", BeaconProcess.binaryPath, "README.md", "CONTRIBUTING.md"] + docs,
            currentDirectory: ProjectPaths.root, limit: HangGuard.processLimit)
        let termination = try await checker.waitForExit(within: .seconds(100))
        let report = checker.stdoutLines.joined(separator: "\n")
        #expect(termination == .exited(0), "\(report)\n\(checker.stderrLines.joined(separator: "\n"))")
        let summary = try #require(checker.stdoutLines.last)
        #expect(summary.hasSuffix(", 0 failed, \(Self.notRun) not run"), "\(report)")
        #expect(!summary.hasPrefix("doc examples: 0 passed"), "no example ran")
    }

    /// The checker run on one Markdown file of `text`: its exit status and report.
    func check(_ text: String) async throws -> (Termination, [String]) {
        let scratch = try ProjectPaths.makeScratchDirectory()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let page = scratch.appendingPathComponent("page.md")
        try text.write(to: page, atomically: true, encoding: .utf8)
        let checker = try ChildProcess(
            name: "check_doc_examples.py", executable: ProjectPaths.python,
            arguments: [ProjectPaths.tool("check_doc_examples.py"), "--beacon", BeaconProcess.binaryPath, page.path],
            currentDirectory: scratch, limit: HangGuard.processLimit)
        return (try await checker.waitForExit(within: .seconds(30)), checker.stdoutLines)
    }

    @Test("a Home Assistant block with the removed '- platform: mqtt' form fails the check")
    func removedMQTTPlatformForm() async throws {
        let (termination, report) = try await check("""
            ```yaml
            binary_sensor:
              - platform: mqtt
                state_topic: "beacon/keys/state"
            ```
            """)
        #expect(termination == .exited(1), "\(report)")
        #expect(report.contains { $0.contains("(yaml): 'binary_sensor:' has '- platform: mqtt', the form Home Assistant removed in 2022.12") },
                "\(report)")
    }

    @Test("a YAML block that does not parse fails the check; the current mqtt: form passes")
    func yamlBlocksParse() async throws {
        let (broken, brokenReport) = try await check("```yaml\nmqtt:\n  binary_sensor: [\n```\n")
        #expect(broken == .exited(1), "\(brokenReport)")
        #expect(brokenReport.contains { $0.contains("(yaml): not valid YAML") }, "\(brokenReport)")
        let (current, currentReport) = try await check("""
            ```yaml
            mqtt:
              binary_sensor:
                - name: "Keys"
                  state_topic: "beacon/keys/state"
            ```
            """)
        #expect(current == .exited(0), "\(currentReport)")
        #expect(currentReport.last == "doc examples: 1 passed, 0 failed, 0 not run", "\(currentReport)")
    }
}
