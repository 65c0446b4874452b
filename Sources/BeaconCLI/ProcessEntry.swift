#if canImport(Glibc)
import Glibc
#endif
import BeaconTransport

extension BeaconTool {
    /// The executable's entry: real streams, real signals, then exit with the command's code.
    public static func main() -> Never {
        let console = Console(
            writeLine: { StandardStreams.writeLine($0, to: STDOUT_FILENO) },
            diagnose: { _ = StandardStreams.writeLine($0, to: STDERR_FILENO) })
        let signals: SignalWatcher
        do {
            signals = try SignalWatcher()
        } catch {
            console.diagnose("Error: \(error)")
            exit(ExitCode.software.rawValue)
        }
        let code = run(arguments: Array(CommandLine.arguments.dropFirst()),
                       environment: StandardStreams.environment(),
                       console: console, signals: signals)
        exit(code)
    }
}
