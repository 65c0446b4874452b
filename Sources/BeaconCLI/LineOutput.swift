import BeaconCore
import BeaconTransport

/// Writes JSON lines until the reader goes away or a write fails, and keeps malformed-packet warnings
/// to a bounded few.
/// A class: a command's loop and the callbacks that state machines emit through write to the same one.
final class LineOutput {
    let console: Console
    /// True once no more lines can be written: the reader has gone, or a write failed (`writeFailure`).
    private(set) var readerGone = false
    /// The write error that stopped the output, reported by `finish`.
    private(set) var writeFailure: SystemError?
    private var malformed = 0

    /// Warnings printed one by one before only a count is kept.
    static let warningLimit = 5

    init(console: Console) {
        self.console = console
    }

    func write(_ line: String) {
        guard !readerGone else { return }
        switch console.writeLine(line) {
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
            console.diagnose("Warning: skipped a malformed packet: \(error)")
        }
    }

    /// Says how many malformed packets went unreported, and reports a failed write: the run that ended
    /// with `code` then exits 74, unless it failed in another way first.
    func finish(_ code: ExitCode) -> ExitCode {
        if malformed > Self.warningLimit {
            console.diagnose("Warning: skipped \(malformed) malformed packets in all")
        }
        guard let writeFailure else { return code }
        console.diagnose("Error: stdout: \(writeFailure.message)")
        return code == .success ? .ioError : code
    }
}
