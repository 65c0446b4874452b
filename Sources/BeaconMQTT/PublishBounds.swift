import BeaconCore

/// The documented bounds of publishing: how many messages wait for a broker that is away, and how
/// long an exit waits for a connected broker to take them.
public enum PublishBounds {
    public static let queueCapacity = 10_000
    public static let flushLimit = Micros.seconds(3)
}
