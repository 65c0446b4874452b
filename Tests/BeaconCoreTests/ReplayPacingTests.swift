import BeaconCore
import Testing

/// `--speed`: when each of a capture's times is due on the monotonic clock, with the clock passed in.
@Suite struct ReplayPacingTests {
    let start = Timestamp(microseconds: 1_800_000_000_000_000)

    @Test("the first time is due at once and anchors the rest; speed 1 keeps the capture's gaps")
    func realTime() {
        var pacing = ReplayPacing(speed: 1)
        #expect(pacing.due(start, now: Micros(5_000)) == Micros(5_000))
        #expect(pacing.due(start + .milliseconds(250), now: Micros(5_100)) == Micros(255_000))
        #expect(pacing.due(start + .seconds(3), now: Micros(9_000)) == Micros(3_005_000))
    }

    @Test("speed 10 plays ten times faster, 0.5 twice as slowly")
    func multiplier() {
        var fast = ReplayPacing(speed: 10)
        _ = fast.due(start, now: Micros(0))
        #expect(fast.due(start + .seconds(10), now: Micros(0)) == .seconds(1))
        var slow = ReplayPacing(speed: 0.5)
        _ = slow.due(start, now: Micros(1_000))
        #expect(slow.due(start + .seconds(1), now: Micros(1_000)) == Micros(2_001_000))
    }

    @Test("the wait is what is left until the time is due, zero once it is or when the replay is behind")
    func wait() {
        var pacing = ReplayPacing(speed: 2)
        #expect(pacing.wait(for: start, now: Micros(100)) == Micros(0))
        #expect(pacing.wait(for: start + .seconds(4), now: Micros(1_000_100)) == .seconds(1))
        #expect(pacing.wait(for: start + .seconds(4), now: Micros(2_000_100)) == Micros(0))
        // Behind (a slow reader held the replay up): overdue times come at once, later ones keep the anchor.
        #expect(pacing.wait(for: start + .seconds(5), now: .seconds(9)) == Micros(0))
        #expect(pacing.wait(for: start + .seconds(20), now: .seconds(9)) == Micros(1_000_100))
    }

    @Test("a time before the anchor is due at once")
    func earlier() {
        var pacing = ReplayPacing(speed: 1)
        _ = pacing.due(start, now: .seconds(1))
        #expect(pacing.due(start + Micros(-5_000_000), now: .seconds(2)) == .seconds(1))
    }

    @Test("a time too far ahead for the clock to reach is due at the latest time it holds, without overflow")
    func farAhead() {
        var pacing = ReplayPacing(speed: 0.001)
        _ = pacing.due(Timestamp(microseconds: 0), now: Micros(Int64.max / 2))
        #expect(pacing.due(Timestamp(microseconds: Int64.max / 2), now: Micros(Int64.max / 2)) == Micros(Int64.max))
    }
}
