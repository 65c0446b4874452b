import BeaconCore
import Testing

@Suite("room hysteresis: a challenger room takes over only from well inside it, after the dwell")
struct RoomTrackerTests {
    @Test("the first fix inside a room assigns it at once")
    func firstFix() {
        var tracker = RoomTracker()
        #expect(tracker.update(candidate: nil, depth: 0, at: .seconds(0)) == nil)
        #expect(tracker.update(candidate: 1, depth: 0.01, at: .seconds(1)) == 1)
    }

    /// `start` plus `dwells` times the dwell.
    func after(_ dwells: Double, from start: Micros = .seconds(1)) -> Micros {
        Micros(start.value + Int64(dwells * Double(RoomTracker.dwell.value)))
    }

    @Test("a challenger held for the dwell, at least the margin inside, takes over; not before")
    func dwell() {
        var tracker = RoomTracker()
        _ = tracker.update(candidate: 0, depth: 1, at: .seconds(0))
        #expect(tracker.update(candidate: 1, depth: 1, at: .seconds(1)) == 0)
        #expect(tracker.update(candidate: 1, depth: 1, at: Micros(after(1).value - 1)) == 0)
        #expect(tracker.update(candidate: 1, depth: 1, at: after(1)) == 1)
    }

    @Test("a fix shallower than the margin, back in the room or outside every room starts the count again")
    func breaks() {
        for interruption: (Int?, Double) in [(1, RoomTracker.margin / 2), (0, 1), (nil, 0)] {
            var tracker = RoomTracker()
            _ = tracker.update(candidate: 0, depth: 1, at: .seconds(0))
            _ = tracker.update(candidate: 1, depth: 1, at: .seconds(1))
            #expect(tracker.update(candidate: interruption.0, depth: interruption.1, at: after(0.5)) == 0)
            #expect(tracker.update(candidate: 1, depth: 1, at: after(1)) == 0)
            #expect(tracker.update(candidate: 1, depth: 1, at: after(2)) == 1)
        }
    }

    @Test("a NaN depth is not inside the margin")
    func nanDepth() {
        var tracker = RoomTracker()
        _ = tracker.update(candidate: 0, depth: 1, at: .seconds(0))
        _ = tracker.update(candidate: 1, depth: .nan, at: .seconds(1))
        #expect(tracker.update(candidate: 1, depth: .nan, at: .seconds(10)) == 0)
    }

    @Test("times at the ends of Int64 do not trap")
    func extremeTimes() {
        var tracker = RoomTracker()
        _ = tracker.update(candidate: 0, depth: 1, at: Micros(Int64.min))
        _ = tracker.update(candidate: 1, depth: 1, at: Micros(Int64.max))
        #expect(tracker.update(candidate: 1, depth: 1, at: Micros(Int64.min)) == 0)
    }

    @Test("the distance to a room's edge: inside a rectangle, on a line polygon and on an empty one")
    func distanceToEdge() {
        let square = Room(name: "A", polygon: LocatorFixture.rectangle(0, 0, 3, 4))
        #expect(abs(square.distanceToEdge(Point2(x: 1, y: 2)) - 1) < 1e-9)
        let line = Room(name: "L", polygon: [Point2(x: 0, y: 0), Point2(x: 6, y: 0)])
        #expect(abs(line.distanceToEdge(Point2(x: 2, y: 1)) - 1) < 1e-9)
        let point = Room(name: "P", polygon: [Point2(x: 1, y: 1), Point2(x: 1, y: 1)])
        #expect(abs(point.distanceToEdge(Point2(x: 1, y: 2)) - 1) < 1e-9)
    }
}
