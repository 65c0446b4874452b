import BeaconCore

/// When a live run must end (`--duration`), on the monotonic clock, shared between the command that
/// knows it and the stdout sink that may be waiting for a reader that does not read: past it, the
/// sink gives up waiting so cleanup can reach the controller.
public final class OutputDeadline: @unchecked Sendable {
    /// Nil while no run has a deadline. Set and read on the one thread that runs the command.
    public var monotonic: Micros?

    public init() {}
}
