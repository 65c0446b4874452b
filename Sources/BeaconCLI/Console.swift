/// Where a command's output goes: JSON lines to `stdout`, diagnostics to `stderr`.
/// Tests inject capturing sinks; the executable uses the process's descriptors.
public struct Console {
    /// Writes one line (without its newline); returns false once the reader has gone away.
    public var writeLine: (String) -> Bool
    /// One diagnostic line (without its newline).
    public var diagnose: (String) -> Void
    /// The descriptor `writeLine` writes to, watched so a run that prints nothing for long still
    /// notices its reader going away (`beacon advertise … | head -1`).
    public var outputDescriptor: Int32?
    /// Writes text as is to a terminal's standard error, for progress; nil when stderr is no terminal.
    public var progress: ((String) -> Void)?

    public init(writeLine: @escaping (String) -> Bool, diagnose: @escaping (String) -> Void, outputDescriptor: Int32? = nil,
                progress: ((String) -> Void)? = nil) {
        self.writeLine = writeLine
        self.diagnose = diagnose
        self.outputDescriptor = outputDescriptor
        self.progress = progress
    }
}
