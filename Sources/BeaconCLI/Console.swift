/// Where a command's output goes: JSON lines to `stdout`, diagnostics to `stderr`.
/// Tests inject capturing sinks; the executable uses the process's descriptors.
public struct Console {
    /// Writes one line (without its newline); returns false once the reader has gone away.
    public var writeLine: (String) -> Bool
    /// One diagnostic line (without its newline).
    public var diagnose: (String) -> Void

    public init(writeLine: @escaping (String) -> Bool, diagnose: @escaping (String) -> Void) {
        self.writeLine = writeLine
        self.diagnose = diagnose
    }
}
