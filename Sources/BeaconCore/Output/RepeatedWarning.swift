/// A warning that can come again and again (a clock step, a malformed packet, a lost connection): the
/// first `limit` occurrences are printed, the rest only counted, and a run that held some back ends
/// with one line saying how many there were in all. A flood of the same fault then costs a few lines
/// of stderr, not one per occurrence.
///
///     var malformed = RepeatedWarning { "Warning: skipped \($0) malformed packets in all" }
///     // each time it happens:
///     if let line = malformed.occurred("Warning: skipped a malformed packet: \(error)") { warn(line) }
///     // at the end of the run:
///     if let line = malformed.summary { warn(line) }
///
/// A value with no I/O of its own: the owner prints what it returns, through its own sink.
public struct RepeatedWarning: Sendable {
    /// Occurrences printed one by one when no other limit is given.
    public static let defaultLimit = 5

    /// Occurrences printed one by one; the ones after them are only counted.
    public let limit: Int
    /// Occurrences so far, printed or not.
    public private(set) var count = 0
    private let summaryLine: @Sendable (_ count: Int) -> String

    /// - Parameters:
    ///   - limit: occurrences printed one by one.
    ///   - summary: the end-of-run line for `count` occurrences in all, asked for only when some were held back.
    public init(limit: Int = defaultLimit, summary: @escaping @Sendable (_ count: Int) -> String) {
        precondition(limit >= 0, "a negative warning limit")
        self.limit = limit
        self.summaryLine = summary
    }

    /// Counts one occurrence: `message` when it is among the first `limit`, to be printed; nil once only
    /// the count is kept (`message` is then not even built).
    public mutating func occurred(_ message: @autoclosure () -> String) -> String? {
        count += 1
        return count <= limit ? message() : nil
    }

    /// Occurrences counted but not printed.
    public var heldBack: Int { max(0, count - limit) }

    /// The line for the end of the run when occurrences were held back, nil when each one was printed.
    public var summary: String? { heldBack > 0 ? summaryLine(count) : nil }
}
