import BeaconCore
import BeaconTransport

/// Writes JSON lines until the reader goes away or a write fails, and keeps malformed-packet warnings
/// to a bounded few.
/// A class: a command's loop and the callbacks that state machines emit through write to the same one.
final class LineOutput {
    let console: Console
    /// Where lines also go, besides standard output.
    let sinks: [any LineSink]
    /// True once no more lines can be written: the reader has gone, or a write failed (`writeFailure`).
    private(set) var readerGone = false
    /// The write error that stopped the output, reported by `finish`.
    private(set) var writeFailure: SystemError?
    private var malformed = 0
    private var clampedTimes = false
    /// Lines gathered for one write (`Console.lineBatching`), joined by newlines, without the last one.
    private var batch = ""

    /// Warnings printed one by one before only a count is kept.
    static let warningLimit = 5

    init(console: Console, sinks: [any LineSink] = []) {
        self.console = console
        self.sinks = sinks
    }

    /// Writes `line`; `time`, the line's time, is checked against the times that can be printed, and the
    /// first one outside them is noted on stderr (the line carries the nearest printable time).
    func write(_ line: String, time: Timestamp? = nil) {
        guard !readerGone else { return }
        if let time, !clampedTimes, !Timestamp.printableRange.contains(time) {
            clampedTimes = true
            flush()
            console.diagnose("Warning: output times leave the years 0000 to 9999 (first \(time.microseconds) µs from 1970); "
                + "they are printed as the nearest time inside them")
        }
        guard let batching = console.lineBatching, batching.isEnabled else { return deliver(line) }
        // A line as large as a batch (thousands of ranged beacons) goes out as it is, never copied into one.
        if line.utf8.count >= LineBatching.size {
            flush()
            return deliver(line)
        }
        if !batch.isEmpty { batch.append("\n") }
        batch.append(line)
        if batch.utf8.count >= LineBatching.size { flush() }
    }

    /// Writes the gathered lines in one go. A batch whose write fails (a full disk, not a reader gone
    /// away) is written again line by line where the failed write left nothing of it behind, so the
    /// output ends after the same whole line as when every line is written at once.
    func flush() {
        guard !batch.isEmpty else { return }
        let lines = batch
        batch.removeAll(keepingCapacity: true)
        let outcome = console.writeLine(lines)
        guard case .failed = outcome, console.lineBatching?.retriesLineByLine == true,
              lines.utf8.contains(UInt8(ascii: "\n")) else { return keep(outcome) }
        for line in lines.split(separator: "\n", omittingEmptySubsequences: false) where !readerGone {
            deliver(String(line))
        }
    }

    /// One `writeLine`; `text` is a line or a batch of them.
    private func deliver(_ text: String) {
        keep(console.writeLine(text))
    }

    private func keep(_ outcome: LineWrite) {
        switch outcome {
        case .written: break
        case .stopped: readerGone = true
        case .failed(let error):
            readerGone = true
            writeFailure = error
        }
    }

    /// A monitoring line, to standard output and every sink.
    func write(_ output: MonitorOutput) {
        let line = OutputLine.encode(output)
        write(line, time: output.time)
        for sink in sinks { sink.monitor(output, line: line) }
    }

    func warnMalformed(_ error: any Error) {
        malformed += 1
        if malformed <= Self.warningLimit {
            // Diagnostics and lines keep their order on a terminal that shows both.
            flush()
            console.diagnose("Warning: skipped a malformed packet: \(error)")
        }
    }

    /// Closes the sinks, says how many malformed packets went unreported, and reports a failed write:
    /// the run that ended with `code` then exits 74, unless it failed in another way first.
    func finish(_ code: ExitCode) -> ExitCode {
        flush()
        for sink in sinks { sink.finish() }
        if malformed > Self.warningLimit {
            console.diagnose("Warning: skipped \(malformed) malformed packets in all")
        }
        guard let writeFailure else { return code }
        console.diagnose("Error: stdout: \(writeFailure.message)")
        return code == .success ? .ioError : code
    }
}
