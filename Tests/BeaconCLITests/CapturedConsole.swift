import BeaconCLI
import BeaconTransport
import Synchronization

/// A console whose lines tests can read back.
final class CapturedConsole: Sendable {
    /// The lines written, and whether the last write left one unfinished (a long line comes in pieces).
    private let state = Mutex<(out: [String], err: [String], unfinished: Bool)>(([], [], false))

    var stdout: [String] { state.withLock { $0.out } }
    var stderr: [String] { state.withLock { $0.err } }

    var console: Console {
        Console(
            // One entry per write, without its last newline; the pieces of a long line make one entry.
            writeLines: { bytes, _ in
                self.state.withLock { state in
                    let ends = bytes.last == UInt8(ascii: "\n")
                    let text = String(decoding: ends ? bytes.dropLast() : bytes[...], as: UTF8.self)
                    if state.unfinished { state.out[state.out.count - 1] += text } else { state.out.append(text) }
                    state.unfinished = !ends
                }
                return .written
            },
            diagnose: { line in self.state.withLock { $0.err.append(line) } })
    }

    /// Runs `beacon` with `arguments` and returns its exit code.
    func run(_ arguments: [String], environment: [String: String] = [:]) -> Int32 {
        BeaconTool.run(arguments: arguments, environment: environment, console: console, signals: nil)
    }
}

/// Help text with its wrapping undone (every run of white space one space), to look for a phrase in it.
func unwrapped(_ help: String) -> String { help.split(whereSeparator: \.isWhitespace).joined(separator: " ") }
