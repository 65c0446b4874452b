import BeaconCLI
import BeaconTransport
import Synchronization

/// A console whose lines tests can read back.
final class CapturedConsole: Sendable {
    private let state = Mutex<(out: [String], err: [String])>(([], []))

    var stdout: [String] { state.withLock { $0.out } }
    var stderr: [String] { state.withLock { $0.err } }

    var console: Console {
        Console(
            writeLine: { line in self.state.withLock { $0.out.append(line) }; return .written },
            diagnose: { line in self.state.withLock { $0.err.append(line) } })
    }

    /// Runs `beacon` with `arguments` and returns its exit code.
    func run(_ arguments: [String], environment: [String: String] = [:]) -> Int32 {
        BeaconTool.run(arguments: arguments, environment: environment, console: console, signals: nil)
    }
}
