import BeaconCore

/// Episodes that come and go at random (a body in the way, a burst of interference): gaps and
/// lengths exponentially distributed around their means. The episodes are fixed by the generator
/// alone, so asking at different instants never changes them; instants must not go backwards.
struct EpisodeProcess {
    private let meanGap: Double
    private let meanLength: Double
    private var rng: SplitMix64
    private var start: Int64 = 0
    private var end: Int64 = 0

    /// The first episode starts one gap after time 0.
    init(_ episodes: RadioModel.Episodes, rng: SplitMix64) {
        meanGap = Double(episodes.every.value)
        meanLength = Double(episodes.lasting.value)
        self.rng = rng
        scheduleNext()
    }

    /// Whether an episode is under way at `time` (µs).
    mutating func isActive(at time: Int64) -> Bool {
        while time >= end { scheduleNext() }
        return time >= start
    }

    /// At least 1 µs each, so time always moves on.
    private mutating func scheduleNext() {
        start = end + max(1, Int64(rng.exponential(mean: meanGap)))
        end = start + max(1, Int64(rng.exponential(mean: meanLength)))
    }
}
