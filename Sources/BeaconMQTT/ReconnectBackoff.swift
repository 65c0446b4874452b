import BeaconCore

/// Waits between attempts to reach the broker: 1 s, doubling up to 30 s, back to 1 s once connected.
struct ReconnectBackoff {
    static let first = Micros.seconds(1)
    static let longest = Micros.seconds(30)

    private var next = first

    /// The wait before the next attempt; each call doubles the one after.
    mutating func nextDelay() -> Micros {
        let delay = next
        next = Micros(min(next.value * 2, Self.longest.value))
        return delay
    }

    mutating func reset() {
        next = Self.first
    }
}
