import BeaconCore

/// Writes JSON lines until the reader goes away, and keeps malformed-packet warnings to a bounded few.
/// A class: a command's loop and the callbacks that state machines emit through write to the same one.
final class LineOutput {
    let console: Console
    /// Where lines also go, besides standard output.
    let sinks: [any LineSink]
    private(set) var readerGone = false
    private var malformed = 0

    /// Warnings printed one by one before only a count is kept.
    static let warningLimit = 5

    init(console: Console, sinks: [any LineSink] = []) {
        self.console = console
        self.sinks = sinks
    }

    func write(_ line: String) {
        guard !readerGone else { return }
        if !console.writeLine(line) { readerGone = true }
    }

    /// A monitoring line, to standard output and every sink.
    func write(_ output: MonitorOutput) {
        let line = OutputLine.encode(output)
        write(line)
        for sink in sinks { sink.monitor(output, line: line) }
    }

    func warnMalformed(_ error: any Error) {
        malformed += 1
        if malformed <= Self.warningLimit {
            console.diagnose("Warning: skipped a malformed packet: \(error)")
        }
    }

    /// Closes the sinks and says how many malformed packets went unreported.
    func finish() {
        for sink in sinks { sink.finish() }
        if malformed > Self.warningLimit {
            console.diagnose("Warning: skipped \(malformed) malformed packets in all")
        }
    }
}
