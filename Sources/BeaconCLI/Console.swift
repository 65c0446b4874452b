import BeaconTransport

/// Where a command's output goes: JSON lines to `stdout`, diagnostics to `stderr`.
/// Tests inject capturing sinks; the executable uses the process's descriptors.
public struct Console {
    /// Writes one line (without its newline); says whether it was written, the reader has gone away,
    /// or the write failed.
    public var writeLine: (String) -> LineWrite
    /// One diagnostic line (without its newline), its control characters escaped on the way to the sink.
    public let diagnose: (String) -> Void
    /// The descriptor `writeLine` writes to, watched so a run that prints nothing for long still
    /// notices its reader going away (`beacon advertise … | head -1`).
    public var outputDescriptor: Int32?
    /// Writes text as is to a terminal's standard error, for progress; nil when stderr is no terminal.
    public var progress: ((String) -> Void)?
    /// When a live run with `--duration` ends: set by the command, obeyed by a `writeLine` that waits.
    public let outputDeadline: OutputDeadline
    /// Whether `writeLine` may be given many lines at once (joined by newlines); nil: one line at a time.
    public let lineBatching: LineBatching?

    public init(writeLine: @escaping (String) -> LineWrite, diagnose: @escaping (String) -> Void, outputDescriptor: Int32? = nil,
                outputDeadline: OutputDeadline = OutputDeadline(), lineBatching: LineBatching? = nil,
                progress: ((String) -> Void)? = nil) {
        self.writeLine = writeLine
        self.diagnose = { diagnose(DiagnosticEscaping.escaped($0)) }
        self.outputDescriptor = outputDescriptor
        self.progress = progress
        self.outputDeadline = outputDeadline
        self.lineBatching = lineBatching
    }
}
