import Foundation

/// Checks lines against docs/output.schema.json with tools/validate_output.py.
enum OutputSchemaCheck {
    /// Returns nil when every line is valid, otherwise the validator's report.
    static func problems(in lines: [String]) async throws -> String? {
        let input = Data(lines.map { $0 + "\n" }.joined().utf8)
        let validator = try ChildProcess(
            name: "validate_output",
            executable: ProjectPaths.python,
            arguments: [ProjectPaths.tool("validate_output.py")],
            input: .bytes(input),
            limit: HangGuard.processLimit)
        let termination = try await validator.waitForExit(within: HangGuard.startUp)
        if termination == .exited(0) { return nil }
        return "\(termination):\n" + validator.stderrLines.joined(separator: "\n")
    }
}
