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
    private var malformed = RepeatedWarning { "Warning: skipped \($0) malformed packets in all" }
    private var clampedTimes = false
    /// The first time outside `Timestamp.printableRange` among the times the lines are made from (a
    /// replay's capture times), quoted in the warning in place of the line's: the line's may have been
    /// moved into `Timestamp.supportedRange` on the way.
    var firstUnprintableInputTime: () -> Timestamp? = { nil }
    /// The lines not yet written, each ending with its newline: one line, or a batch of them
    /// (`Console.lineBatching`). Lines are encoded straight into it, written from it and the buffer kept
    /// for the next ones. A line longer than a batch (thousands of ranged beacons) goes out in pieces
    /// while it is encoded, so no more than a batch and a beacon is held, however many are in range.
    private var pending = JSONWriter()
    /// Bytes of the line being encoded that went out already, in pieces; 0 between lines.
    private var lineWritten = 0

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

    /// A monitoring line, to standard output and every sink, its times on the clock `wallTime` gives
    /// (see `MonitorOutput.onWallClock`).
    func write(_ output: MonitorOutput, onWallClock wallTime: (Timestamp) -> Timestamp = { $0 }) {
        let toStdout = accepts(wallTime(output.time))
        guard toStdout || !sinks.isEmpty else { return }
        let start = pending.count
        if sinks.isEmpty {
            // Times turned as they are written: a range line's beacons are not copied to be printed.
            OutputLine.write(output, onWallClock: wallTime, to: &pending, next: { self.writePiece(of: &$0, startingAt: start) })
        } else {
            // The sinks take the output on the wall clock and the line as text: it is held whole, and
            // standard output gets it from the bytes.
            let output = output.onWallClock(wallTime)
            OutputLine.write(output, to: &pending)
            let line = pending.withUnsafeBytes { String(decoding: $0[start...], as: UTF8.self) }
            for sink in sinks { sink.monitor(output, line: line) }
        }
        pending.endLine()
        if !toStdout {
            pending.removeWritten()
        } else if lineWritten > 0 {
            writeLastPiece()
        } else {
            added()
        }
    }

    /// A scan line, to standard output and every sink: encoded into `pending`, and made text only for sinks.
    func write(_ output: ScanOutput) {
        let toStdout = accepts(output.time)
        guard toStdout || !sinks.isEmpty else { return }
        let start = pending.count
        ScanLine.write(output, to: &pending)
        if !sinks.isEmpty {
            let line = pending.withUnsafeBytes { String(decoding: $0[start...], as: UTF8.self) }
            for sink in sinks { sink.scan(output, line: line) }
        }
        pending.endLine()
        if toStdout { added() } else { pending.removeWritten() }
    }

    /// See `LineSink.stepEnded`. `lastTick` is worked out only for sinks: without one this runs for
    /// every packet and does nothing.
    func stepEnded(lastTick: @autoclosure () -> Timestamp? = nil) {
        guard !sinks.isEmpty else { return }
        let lastTick = lastTick()
        for sink in sinks { sink.stepEnded(lastTick: lastTick) }
    }

    /// Writes out `w` (`pending`, in the middle of encoding the line that starts at `start`) once it holds a
    /// batch's worth: the whole lines before that line first, as a batch, then the line so far.
    private func writePiece(of w: inout JSONWriter, startingAt start: Int) {
        guard w.count >= LineBatching.size else { return }
        w.withUnsafeBytes { bytes in
            let piece = lineWritten == 0 ? UnsafeRawBufferPointer(rebasing: bytes[start...]) : bytes
            if lineWritten == 0, start > 0 { writeLines(UnsafeRawBufferPointer(rebasing: bytes[..<start])) }
            guard !readerGone else { return }
            keep(console.writeLines(piece, lineWritten))
            lineWritten += piece.count
        }
        w.removeWritten()
    }

    /// The end of a line that went out in pieces: written at once, never left to wait in a batch.
    private func writeLastPiece() {
        if !readerGone { keep(pending.withUnsafeBytes { console.writeLines($0, lineWritten) }) }
        pending.removeWritten()
        lineWritten = 0
    }

    /// Whether a line of `time` goes to standard output: not once the reader has gone.
    private func accepts(_ time: Timestamp?) -> Bool {
        guard !readerGone else { return false }
        if let time { notePrintable(time) }
        return true
    }

    /// Warns once, at the first `time` outside `Timestamp.printableRange`, that printed times are moved
    /// into it: for lines written here and for lines of the same run written to files.
    func notePrintable(_ time: Timestamp) {
        guard !clampedTimes, !Timestamp.printableRange.contains(time) else { return }
        clampedTimes = true
        flush()
        console.diagnose("Warning: output times leave the years 0000 to 9999 (first \((firstUnprintableInputTime() ?? time).microseconds) µs "
            + "from 1970); they are printed as the nearest time inside them")
    }

    /// A whole line was added to `pending`: written at once, or once the batch is full.
    private func added() {
        if console.lineBatching?.isEnabled != true || pending.count >= LineBatching.size { flush() }
    }

    /// Writes the pending lines in one go. A batch whose write fails (a full disk, not a reader gone
    /// away) is written again line by line where the failed write left nothing of it behind, so the
    /// output ends after the same whole line as when every line is written at once.
    func flush() {
        guard pending.count > 0 else { return }
        pending.withUnsafeBytes(writeLines)
        pending.removeWritten()
    }

    /// Writes `lines`, whole lines, in one go; see `flush`.
    private func writeLines(_ lines: UnsafeRawBufferPointer) {
        guard !readerGone else { return }
        let outcome = console.writeLines(lines, 0)
        let newline = UInt8(ascii: "\n")
        guard case .failed = outcome, console.lineBatching?.retriesLineByLine == true,
              lines.dropLast().contains(newline) else { return keep(outcome) }
        var start = lines.startIndex
        while start < lines.endIndex, !readerGone {
            let end = (lines[start...].firstIndex(of: newline) ?? lines.endIndex - 1) + 1
            keep(console.writeLines(UnsafeRawBufferPointer(rebasing: lines[start..<end]), 0))
            start = end
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
        if let line = malformed.occurred("Warning: skipped a malformed packet: \(error)") {
            // Diagnostics and lines keep their order on a terminal that shows both.
            flush()
            console.diagnose(line)
        }
    }

    /// Closes the sinks, says how many malformed packets went unreported, and reports a failed write:
    /// the run that ended with `code` then exits 74, unless it failed in another way first.
    func finish(_ code: ExitCode) -> ExitCode {
        flush()
        for sink in sinks { sink.finish() }
        if let line = malformed.summary { console.diagnose(line) }
        guard let writeFailure else { return code }
        console.diagnose("Error: stdout: \(writeFailure.message)")
        return code == .success ? .ioError : code
    }
}
