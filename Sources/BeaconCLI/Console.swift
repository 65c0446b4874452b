import BeaconTransport

/// Where a command's output goes: JSON lines to `stdout`, diagnostics to `stderr`.
/// Tests inject capturing sinks; the executable uses the process's descriptors.
public struct Console {
    /// Writes whole lines, each ending with its newline, from the caller's buffer, or the next piece of a
    /// line too long to hold, after the given count of its bytes written before
    /// (`StandardStreams.write(lines:following:to:waiting:)`); says whether they were written, the reader
    /// has gone away, or the write failed.
    public let writeLines: (UnsafeRawBufferPointer, _ following: Int) -> LineWrite
    /// One diagnostic line (without its newline), its control characters escaped on the way to the sink.
    public let diagnose: (String) -> Void
    /// The descriptor `writeLines` writes to, watched so a run that prints nothing for long still
    /// notices its reader going away (`beacon advertise … | head -1`).
    public var outputDescriptor: Int32?
    /// Writes text as is to a terminal's standard error, for progress; nil when stderr is no terminal.
    public var progress: ((String) -> Void)?
    /// When a live run with `--duration` ends: set by the command, obeyed by a `writeLines` that waits.
    public let outputDeadline: OutputDeadline
    /// Whether `writeLines` may be given many lines at once; nil: one line at a time.
    public let lineBatching: LineBatching?
    /// The columns help is wrapped to (`TextWrapping.helpWidth`).
    public var helpWidth = TextWrapping.defaultWidth

    public init(writeLines: @escaping (UnsafeRawBufferPointer, _ following: Int) -> LineWrite, diagnose: @escaping (String) -> Void,
                outputDescriptor: Int32? = nil, outputDeadline: OutputDeadline = OutputDeadline(),
                lineBatching: LineBatching? = nil, progress: ((String) -> Void)? = nil) {
        self.writeLines = writeLines
        self.diagnose = { diagnose(DiagnosticEscaping.escaped($0)) }
        self.outputDescriptor = outputDescriptor
        self.progress = progress
        self.outputDeadline = outputDeadline
        self.lineBatching = lineBatching
    }

    /// Writes `text` (a line, or lines joined by newlines) and a newline: help, a version, a listing.
    public func writeLine(_ text: String) -> LineWrite {
        StandardStreams.withLine(text) { writeLines($0, 0) }
    }

    /// Writes `text` as `writeLine` does and says how the command ends: a failed write (a full disk) is an
    /// error line and exit 74, as it is for JSON lines; a reader gone away is a normal end.
    func print(_ text: String) -> ExitCode {
        guard case .failed(let error) = writeLine(text) else { return .success }
        diagnose("Error: stdout: \(error.message)")
        return .ioError
    }
}
