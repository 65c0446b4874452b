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
    /// The lines not yet written, each ending with its newline: one line, or a batch of them
    /// (`Console.lineBatching`). Lines are encoded straight into it, written from it and the buffer kept
    /// for the next ones, so a line of thousands of ranged beacons (megabytes) is held once, here.
    private var pending = JSONWriter()

    /// Warnings printed one by one before only a count is kept.
    static let warningLimit = 5

    init(console: Console, sinks: [any LineSink] = []) {
        self.console = console
        self.sinks = sinks
    }

    /// Writes `line`; `time`, the line's time, is checked against the times that can be printed, and the
    /// first one outside them is noted on stderr (the line carries the nearest printable time).
    func write(_ line: String, time: Timestamp? = nil) {
        guard accepts(time) else { return }
        pending.appendLine(line)
        added()
    }

    /// A monitoring line, to standard output and every sink.
    func write(_ output: MonitorOutput) {
        let toStdout = accepts(output.time)
        guard toStdout || !sinks.isEmpty else { return }
        let start = pending.bytes.count
        OutputLine.write(output, to: &pending)
        if !sinks.isEmpty {
            // Text only for the sinks that take it: standard output is written from the bytes.
            let line = String(decoding: pending.bytes[start...], as: UTF8.self)
            for sink in sinks { sink.monitor(output, line: line) }
        }
        guard toStdout else { return pending.removeAll(keepingCapacity: true) }
        pending.endLine()
        added()
    }

    /// Whether a line of `time` goes to standard output: not once the reader has gone.
    private func accepts(_ time: Timestamp?) -> Bool {
        guard !readerGone else { return false }
        if let time, !clampedTimes, !Timestamp.printableRange.contains(time) {
            clampedTimes = true
            flush()
            console.diagnose("Warning: output times leave the years 0000 to 9999 (first \(time.microseconds) µs from 1970); "
                + "they are printed as the nearest time inside them")
        }
        return true
    }

    /// A line was added to `pending`: written at once, or once the batch is full. A line as large as a
    /// batch (thousands of ranged beacons) goes out with the lines before it, from where it was encoded.
    private func added() {
        if console.lineBatching?.isEnabled != true || pending.bytes.count >= LineBatching.size { flush() }
    }

    /// Writes the pending lines in one go. A batch whose write fails (a full disk, not a reader gone
    /// away) is written again line by line where the failed write left nothing of it behind, so the
    /// output ends after the same whole line as when every line is written at once.
    func flush() {
        guard !pending.bytes.isEmpty else { return }
        writePending()
        pending.removeAll(keepingCapacity: true)
    }

    private func writePending() {
        pending.bytes.withUnsafeBytes { lines in
            let outcome = console.writeLines(lines)
            let newline = UInt8(ascii: "\n")
            guard case .failed = outcome, console.lineBatching?.retriesLineByLine == true,
                  lines.dropLast().contains(newline) else { return keep(outcome) }
            var start = lines.startIndex
            while start < lines.endIndex, !readerGone {
                let end = (lines[start...].firstIndex(of: newline) ?? lines.endIndex - 1) + 1
                keep(console.writeLines(UnsafeRawBufferPointer(rebasing: lines[start..<end])))
                start = end
            }
        }
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
