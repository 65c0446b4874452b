/// Paces a replay by the capture's own times: `--speed 1` plays a capture as it was recorded, 10 ten
/// times faster (tcpreplay's multiplier). The first schedule time asked for is played at once and
/// anchors the rest; every later one is due when the monotonic clock has moved on from the anchor by
/// the capture's time since it, divided by the speed. A replay that falls behind (a slow reader of its
/// output) is not slowed down further: what is overdue is due at once.
public struct ReplayPacing: Sendable {
    /// Capture seconds played per second: above 0.
    public let speed: Double
    /// The first schedule time asked for, and the monotonic time it was asked at.
    private var anchor: (schedule: Timestamp, monotonic: Micros)?

    public init(speed: Double) {
        precondition(speed > 0 && speed.isFinite, "a replay's speed is a positive number")
        self.speed = speed
    }

    /// The speeds `--speed` takes: a thousandth of real time to a million times faster.
    public static let speedRange: ClosedRange<Double> = 0.001...1_000_000

    /// The monotonic time at which schedule time `time` is due, asked at monotonic time `now`.
    /// Schedule times do not step back (the timeline takes a capture's steps out); one earlier than
    /// the anchor is due at once.
    public mutating func due(_ time: Timestamp, now: Micros) -> Micros {
        guard let anchor else {
            anchor = (time, now)
            return now
        }
        let elapsed = Double(max(0, (time - anchor.schedule).value)) / speed
        // A due time past what Micros holds is never reached in a run: the latest one it can hold.
        guard elapsed < Double(Int64.max - anchor.monotonic.value) else { return Micros(Int64.max) }
        return Micros(anchor.monotonic.value + Int64(elapsed.rounded(.up)))
    }

    /// How long to wait at `now` for schedule time `time`: zero when it is due.
    public mutating func wait(for time: Timestamp, now: Micros) -> Micros {
        Micros(max(0, due(time, now: now).value - now.value))
    }
}
