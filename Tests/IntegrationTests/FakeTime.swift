import Foundation

/// Debian's faketime: `faketime -f +Ns COMMAND` runs COMMAND with libfaketime preloaded, which moves
/// every clock the command reads (CLOCK_REALTIME and CLOCK_MONOTONIC alike) N seconds ahead, and no
/// other process's.
///
/// The command, not LD_PRELOAD and FAKETIME alone: libfaketime then sets FAKETIME_SHARED itself as it
/// loads, and that setenv moves `environ` off the stack, where a Swift program's runtime looks for its
/// arguments (just before `environ`): beacon would start with none. The faketime command sets it up
/// before beacon starts.
enum FakeTime {
    static let executable = "/usr/bin/faketime"
    static var isInstalled: Bool { FileManager.default.isExecutableFile(atPath: executable) }

    /// Starts `beacon` with `arguments` and its clocks `seconds` ahead. The process started is faketime's,
    /// which waits for beacon and exits with its status but passes on no signal: beacon's own process id is
    /// written to `pidFile` before it runs (a shell writes it, then becomes beacon).
    static func startBeacon(_ arguments: [String], ahead seconds: Int, pidFile: String) throws -> ChildProcess {
        try ChildProcess(name: "beacon (clocks +\(seconds) s) " + arguments.joined(separator: " "), executable: executable,
                         arguments: ["-f", "+\(seconds)s", "/bin/sh", "-c", #"echo $$ > "$1" && shift && exec "$@""#, "sh",
                                     pidFile, BeaconProcess.binaryPath] + arguments,
                         limit: HangGuard.processLimit)
    }
}
