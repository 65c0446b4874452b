/// How writing one output line ended.
public enum LineWrite: Equatable, Sendable {
    /// The whole line was written.
    case written
    /// The reader has gone (EPIPE), or a signal ended the wait for room: a normal end of output.
    case stopped
    /// Any other write error (a full disk, /dev/full, a file-size limit): the run must fail with it.
    case failed(SystemError)
}
