import BeaconCore

/// The documented bounds of publishing: how much waits for a broker that is away, how long a replay
/// waits for a broker that takes nothing, and how long an exit waits for the broker to take what is queued.
public enum PublishBounds {
    public static let queueCapacity = 10_000
    /// The topics and payloads waiting, in bytes.
    public static let queueBytes = 64 * 1024 * 1024
    public static let queueBytesText = "64 MiB"
    /// A replay waits for room in the queue (it has no reason to drop a line) until the broker has taken
    /// nothing for this long; then it drops the oldest, as a live run does.
    public static let stallLimit = Micros.seconds(30)
    public static let flushLimit = Micros.seconds(3)
}
