import BeaconCore
import Testing

@Suite("room hysteresis: a challenger room takes over only when more likely by the margin, for the dwell")
struct RoomTrackerTests {
    /// Room 0 with probability `p`, room 1 with the rest.
    func split(_ p: Double) -> [(room: Int?, probability: Double)] {
        [(room: 0, probability: p), (room: 1, probability: 1 - p)].sorted { $0.probability > $1.probability }
    }

    @Test("the first window assigns its likeliest room at once, even outside every room")
    func firstWindow() {
        var tracker = RoomTracker()
        #expect(tracker.update([(room: nil, probability: 0.6), (room: 1, probability: 0.4)], at: .seconds(0)) == nil)
        #expect(tracker.room == .some(nil))
        var other = RoomTracker()
        #expect(other.update(split(0.3), at: .seconds(0)) == 1)
        #expect(other.confidence == 0.7)
    }

    @Test("no probabilities (nothing located) keep the room; before the first window there is none")
    func nothingLocated() {
        var tracker = RoomTracker()
        #expect(tracker.update([], at: .seconds(0)) == nil)
        #expect(tracker.room == nil)
        _ = tracker.update(split(0.9), at: .seconds(1))
        #expect(tracker.update([], at: .seconds(2)) == 0)
    }

    @Test("a challenger ahead by less than the margin does not take over; by the margin it does")
    func margin() {
        var tracker = RoomTracker(margin: 0.2, dwell: Micros(0))
        _ = tracker.update(split(0.9), at: .seconds(0))
        #expect(tracker.update(split(0.45), at: .seconds(1)) == 0)
        #expect(tracker.update(split(0.41), at: .seconds(2)) == 0)
        #expect(tracker.confidence == 0.41)
        #expect(tracker.update(split(0.39), at: .seconds(3)) == 1)
        #expect(tracker.confidence == 0.61)
    }

    @Test("with a dwell, the challenger must stay ahead by the margin from its first window until the dwell has passed")
    func dwell() {
        var tracker = RoomTracker(margin: 0.2, dwell: .seconds(2))
        _ = tracker.update(split(0.9), at: .seconds(0))
        #expect(tracker.update(split(0.1), at: .seconds(1)) == 0)
        #expect(tracker.update(split(0.1), at: .seconds(2)) == 0)
        #expect(tracker.update(split(0.1), at: .seconds(3)) == 1)
    }

    @Test("a window in which the challenger falls back starts its count again")
    func interrupted() {
        var tracker = RoomTracker(margin: 0.2, dwell: .seconds(2))
        _ = tracker.update(split(0.9), at: .seconds(0))
        _ = tracker.update(split(0.1), at: .seconds(1))
        #expect(tracker.update(split(0.5), at: .seconds(2)) == 0)
        #expect(tracker.update(split(0.1), at: .seconds(3)) == 0)
        #expect(tracker.update(split(0.1), at: .seconds(4)) == 0)
        #expect(tracker.update(split(0.1), at: .seconds(5)) == 1)
    }

    @Test("NaN probabilities change nothing, and times at the ends of Int64 do not trap")
    func awkwardInputs() {
        var tracker = RoomTracker(margin: 0.2, dwell: .seconds(1))
        _ = tracker.update(split(0.9), at: Micros(Int64.min))
        #expect(tracker.update([(room: 1, probability: .nan)], at: Micros(0)) == 0)
        _ = tracker.update(split(0.0), at: Micros(Int64.max))
        #expect(tracker.update(split(0.0), at: Micros(Int64.min)) == 0)
    }
}
