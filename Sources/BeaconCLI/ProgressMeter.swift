import BeaconCore
import BeaconTransport

/// How far long offline work has got (a replay, a simulation), on one line of standard error
/// rewritten in place, a few times a second. Only when standard error is a terminal: a log file or
/// a pipe gets nothing.
final class ProgressMeter {
    private let show: (String) -> Void
    private let label: String
    private var nextUpdate: Int64 = 0
    private var shown = false

    static let period = Micros.milliseconds(200)

    /// Nil when the console has no terminal to show progress on.
    init?(_ console: Console, label: String) {
        guard let show = console.progress else { return nil }
        self.show = show
        self.label = label
    }

    /// `fraction` done (0...1), with a few words of detail; shown at most every `period`.
    func update(_ fraction: Double, _ detail: String) {
        let now = Clock.monotonic().value
        guard now >= nextUpdate else { return }
        nextUpdate = now + Self.period.value
        let percent = Int((min(max(fraction, 0), 1) * 100).rounded(.down))
        show("\r\u{1B}[K\(label): \(percent)% \(detail)")
        shown = true
    }

    /// Clears the line, so what follows on the terminal starts clean.
    func finish() {
        if shown { show("\r\u{1B}[K") }
    }
}
