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

    /// Starts `beacon` with `arguments`; it is killed if still running after `limit`. With `pidFile`,
    /// its process id is in that file before beacon runs (a shell writes it, then becomes beacon), so a
    /// fault controller can signal it the moment a command arrives.
    static func start(_ arguments: [String], limit: Duration = HangGuard.processLimit, pidFile: String? = nil,
                      environment: [String: String] = [:]) throws -> ChildProcess {
        let name = "beacon " + arguments.joined(separator: " ")
        guard let pidFile else {
            return try ChildProcess(name: name, executable: binaryPath, arguments: arguments, environment: environment, limit: limit)
        }
        return try ChildProcess(
            name: name,
            executable: "/bin/sh",
            arguments: ["-c", #"echo $$ > "$1" && shift && exec "$@""#, "sh", pidFile, binaryPath] + arguments,
            limit: limit)
    }

    /// Runs `beacon` to completion within `timeout` (killed and thrown otherwise).
    static func run(_ arguments: [String], timeout: Duration = HangGuard.step,
                    environment: [String: String] = [:]) async throws -> ChildProcess {
        let child = try start(arguments, limit: timeout + .seconds(5), environment: environment)
        try await child.waitForExit(within: timeout)
        return child
    }
}
