import BeaconCore

/// Writes JSON lines until the reader goes away, and keeps malformed-packet warnings to a bounded few.
/// A class: a command's loop and the callbacks that state machines emit through write to the same one.
final class LineOutput {
    let console: Console
    private(set) var readerGone = false
    private var malformed = 0

    /// Warnings printed one by one before only a count is kept.
    static let warningLimit = 5

    init(console: Console) {
        self.console = console
    }

    func write(_ line: String) {
        guard !readerGone else { return }
        if !console.writeLine(line) { readerGone = true }
    }

    func warnMalformed(_ error: any Error) {
        malformed += 1
        if malformed <= Self.warningLimit {
            console.diagnose("Warning: skipped a malformed packet: \(error)")
        }
    }

    /// Says how many malformed packets went unreported.
    func finish() {
        if malformed > Self.warningLimit {
            console.diagnose("Warning: skipped \(malformed) malformed packets in all")
        }
    }
}
