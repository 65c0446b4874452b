/// Whether standard output may take many lines per write(2). A capture replayed from a file is read as
/// fast as it can be, and nobody watches its lines arrive one by one: gathering them saves a poll(2)
/// and a write(2) per line. A live run, or a capture streamed through a pipe, writes each line at once.
///
/// Shared by the process's console, which knows what stdout is, and the controller connection, which
/// knows the transport; consoles without one (tests) write every line at once.
public final class LineBatching: @unchecked Sendable {
    /// Set by the controller connection for a replay of a capture file. Set and read on the one
    /// thread that runs the command.
    public var isEnabled = false
    /// True when a batch whose write fails part-way leaves nothing of itself behind, so its lines can
    /// be written again one by one and the output ends exactly where writing line by line would have
    /// ended it: a regular file (the partial batch is taken back) or a character device (/dev/full
    /// takes all or nothing). A pipe keeps what it took, so a failed batch there is not written again.
    public let retriesLineByLine: Bool

    /// Bytes gathered before they are written: small against the process's footprint, large against a line.
    static let size = 64 * 1024

    public init(retriesLineByLine: Bool) {
        self.retriesLineByLine = retriesLineByLine
    }
}
