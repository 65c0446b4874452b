import BeaconCore
import BeaconTransport

/// When a live run must end (`--duration`), on the monotonic clock, shared between the command that
/// knows it and the writers that may be waiting for a reader that does not read (stdout, a `--record`
/// FIFO): past it, they give up waiting so cleanup can reach the controller.
public final class OutputDeadline: @unchecked Sendable {
    /// Nil while no run has a deadline. Set and read on the one thread that runs the command.
    public var monotonic: Micros?

    public init() {}
}

extension WriteWait {
    /// A wait for room that a signal `signals` watches or `deadline` ends: stdout and the `--record` file
    /// wait alike.
    init(signals: SignalWatcher?, deadline: OutputDeadline) {
        self.init(interrupt: signals?.descriptor, alreadyInterrupted: { signals?.received != nil },
                  deadline: { deadline.monotonic })
    }
}
