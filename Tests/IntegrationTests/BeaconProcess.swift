import Foundation

/// Runs the built `beacon` binary (`.build/debug/beacon`, or `$BEACON_BIN`).
enum BeaconProcess {
    /// The binary under test.
    static var binaryPath: String {
        if let path = ProcessInfo.processInfo.environment["BEACON_BIN"], !path.isEmpty {
            return path
        }
        return ProjectPaths.root.appendingPathComponent(".build/debug/beacon").path
    }

    /// Starts `beacon` with `arguments`; it is killed if still running after `limit`.
    static func start(_ arguments: [String], limit: Duration = .seconds(30)) throws -> ChildProcess {
        try ChildProcess(
            name: "beacon " + arguments.joined(separator: " "),
            executable: binaryPath,
            arguments: arguments,
            limit: limit)
    }

    /// Runs `beacon` to completion within `timeout` (killed and thrown otherwise).
    static func run(_ arguments: [String], timeout: Duration = .seconds(30)) async throws -> ChildProcess {
        let child = try start(arguments, limit: timeout + .seconds(5))
        try await child.waitForExit(within: timeout)
        return child
    }
}
