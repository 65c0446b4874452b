#if canImport(Glibc)
import Glibc
#endif
import BeaconTransport

extension BeaconTool {
    /// The executable's entry: real streams, real signals, then exit with the command's code.
    public static func main() -> Never {
        ProcessMemory.unmapLargeBlocks()
        let signals: SignalWatcher
        do {
            try StandardStreams.openMissing()
            signals = try SignalWatcher()
        } catch {
            _ = StandardStreams.writeLine("Error: \(error)", to: STDERR_FILENO)
            exit(ExitCode.software.rawValue)
        }
        // Output waits for a slow reader until a signal arrives, then 2 s more at most, so a stopping signal always ends the run.
        // A file or /dev/null always has room: each line (or batch) goes out in one write(2), never cut
        // into PIPE_BUF pieces, and a signal never cuts one short.
        let deadline = OutputDeadline()
        let stdoutKind = DescriptorKind(STDOUT_FILENO)
        let wait = stdoutKind == .other || Terminal.isTerminal(STDOUT_FILENO) ? WriteWait(signals: signals, deadline: deadline) : nil
        var console = Console(
            writeLines: { StandardStreams.write(lines: $0, following: $1, to: STDOUT_FILENO, waiting: wait) },
            diagnose: { _ = StandardStreams.writeLine($0, to: STDERR_FILENO) },
            outputDescriptor: STDOUT_FILENO, outputDeadline: deadline,
            lineBatching: LineBatching(retriesLineByLine: stdoutKind != .other),
            progress: Terminal.isTerminal(STDERR_FILENO) ? { Terminal.write($0, to: STDERR_FILENO) } : nil)
        let environment = StandardStreams.environment()
        let stdoutIsTerminal = Terminal.isTerminal(STDOUT_FILENO)
        console.helpWidth = TextWrapping.helpWidth(isTerminal: stdoutIsTerminal, columnsVariable: environment["COLUMNS"],
                                                   windowColumns: stdoutIsTerminal ? Terminal.columns(STDOUT_FILENO) : nil)
        let code = run(arguments: Array(CommandLine.arguments.dropFirst()),
                       environment: environment,
                       console: console, signals: signals)
        exit(code)
    }
}
