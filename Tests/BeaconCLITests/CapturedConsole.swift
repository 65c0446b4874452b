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
            // One entry per write: the text written, without its last newline.
            writeLines: { lines in self.state.withLock { $0.out.append(String(decoding: lines.dropLast(), as: UTF8.self)) }; return .written },
            diagnose: { line in self.state.withLock { $0.err.append(line) } })
    }

    /// Runs `beacon` with `arguments` and returns its exit code.
    func run(_ arguments: [String], environment: [String: String] = [:]) -> Int32 {
        BeaconTool.run(arguments: arguments, environment: environment, console: console, signals: nil)
    }
}
