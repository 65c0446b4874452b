import BeaconCore
import BeaconTransport

/// When a live run must end (`--duration`), on the monotonic clock, shared between the command that
/// knows it and the writers that may be waiting for a reader that does not read (stdout, a `--record`
/// FIFO): past it, they give up waiting so cleanup can reach the controller. Once a signal was taken,
/// they wait `afterSignal` more at most, from the first wait after it: a reader that reads gets the run's
/// last lines (a fuser stopped with many windows to print), one that stopped reading does not hold the end up.
public final class OutputDeadline: @unchecked Sendable {
    public static let afterSignal = Micros.seconds(2)

    /// Nil while no run has a deadline. Set and read on the one thread that runs the command.
    public var monotonic: Micros?
    /// The end of the waiting after a signal, set at the first wait after one.
    private var signalGraceEnd: Micros?

    public init() {}

    /// The end of waiting now: `monotonic`, and after a signal no later than `afterSignal` from the first wait since.
    func end(signalled: Bool) -> Micros? {
        guard signalled else { return monotonic }
        let grace = signalGraceEnd ?? Micros(Clock.monotonic().value + Self.afterSignal.value)
        signalGraceEnd = grace
        return min(monotonic ?? grace, grace)
    }
}

extension WriteWait {
    /// A wait for room that a pending signal of `signals` or `deadline` ends (after a signal taken, a short
    /// one): stdout and the `--record` file wait alike.
    init(signals: SignalWatcher?, deadline: OutputDeadline) {
        self.init(interrupt: signals?.descriptor, deadline: { deadline.end(signalled: signals?.received != nil) })
    }
}
