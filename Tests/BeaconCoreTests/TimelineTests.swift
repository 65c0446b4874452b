import Testing
@testable import BeaconCore

@Suite("Timeline: schedule time that never steps, wall-clock time to print")
struct TimelineTests {
    let t0 = Timestamp(microseconds: 1_800_000_000_000_000)

    @Test("live: schedule follows the monotonic clock; a wall-clock step moves only printed times, and is told once")
    func liveSteps() {
        var timeline = Timeline()
        #expect(timeline.live(monotonic: .seconds(5), wall: t0) == (t0, nil))
        // Reading jitter below the threshold is no step.
        #expect(timeline.live(monotonic: .seconds(6), wall: t0 + .seconds(1) + .milliseconds(3)) == (t0 + .seconds(1), nil))
        let back = timeline.live(monotonic: .seconds(7), wall: t0 + .seconds(-28))
        #expect(back.schedule == t0 + .seconds(2))
        #expect(back.step == Timeline.Step(by: .seconds(-30), wallTime: t0 + .seconds(-28)))
        #expect(back.step?.description == "back 30.000s")
        #expect(timeline.wallTime(at: t0 + .seconds(3)) == t0 + .seconds(-27))
        #expect(timeline.live(monotonic: .seconds(8), wall: t0 + .seconds(-27)) == (t0 + .seconds(3), nil))
        let forward = timeline.live(monotonic: .seconds(9), wall: t0 + .seconds(3600 + 4))
        #expect(forward.schedule == t0 + .seconds(4))
        #expect(forward.step?.description == "forward 3630.000s")
        #expect(timeline.wallTime(at: t0 + .seconds(4)) == t0 + .seconds(3604))
    }

    @Test("live: resuming from an earlier schedule time leaves the stall out of the schedule, not out of printed times")
    func liveResumeAfterStall() {
        var timeline = Timeline()
        #expect(timeline.live(monotonic: .seconds(5), wall: t0) == (t0, nil))
        #expect(timeline.live(monotonic: .seconds(6), wall: t0 + .seconds(1)) == (t0 + .seconds(1), nil))
        // Stopped for two minutes.
        #expect(timeline.live(monotonic: .seconds(126), wall: t0 + .seconds(121)) == (t0 + .seconds(121), nil))
        timeline.resume(from: t0 + .seconds(1))
        let after = timeline.live(monotonic: .seconds(127), wall: t0 + .seconds(122))
        #expect(after.schedule == t0 + .seconds(2))
        #expect(after.step == nil)
        #expect(timeline.wallTime(at: after.schedule) == t0 + .seconds(122))
    }

    @Test("replay: a jump back, or forward past the gap limit, is a step; small backward jitter and gaps within the limit are not")
    func captureSteps() {
        var timeline = Timeline(maximumGap: .seconds(10))
        #expect(timeline.capture(t0) == (t0, nil))
        #expect(timeline.capture(t0 + .seconds(9)) == (t0 + .seconds(9), nil))
        // 5 ms backwards: the same instant as the latest.
        #expect(timeline.capture(t0 + .milliseconds(8995)) == (t0 + .seconds(9), nil))
        let back = timeline.capture(t0 + .seconds(-21))
        #expect(back == (t0 + .seconds(9), Timeline.Step(by: .seconds(-30), wallTime: t0 + .seconds(-21))))
        #expect(timeline.capture(t0 + .seconds(-20)) == (t0 + .seconds(10), nil))
        #expect(timeline.wallTime(at: t0 + .seconds(10)) == t0 + .seconds(-20))
        let forward = timeline.capture(t0 + .seconds(3580))
        #expect(forward.schedule == t0 + .seconds(10))
        #expect(forward.step?.by == .seconds(3600))
        #expect(timeline.wallTime(at: t0 + .seconds(11)) == t0 + .seconds(3581))
    }

    @Test("replay: the ends of the 64-bit range stay in the supported range, never wrapping or going back")
    func captureExtremes() {
        var timeline = Timeline()
        var schedules: [Timestamp] = []
        for raw in [Int64.min, .max, .min, .max, 0, .max] {
            schedules.append(timeline.capture(Timestamp(microseconds: raw)).schedule)
        }
        #expect(schedules.allSatisfy { Timestamp.supportedRange.contains($0) })
        #expect(schedules == schedules.sorted())
        #expect(schedules.last.map { Timestamp.supportedRange.upperBound - $0 <= Micros(1) } == true)
    }

    @Test("replay: forward jumps carry the schedule up to the range's end and stop there")
    func captureSaturatesAtTheEnd() {
        let (low, high) = (Timestamp.supportedRange.lowerBound, Timestamp.supportedRange.upperBound)
        var timeline = Timeline()
        #expect(timeline.capture(high + .seconds(-10)).schedule == high + .seconds(-10))
        // A step back to the start of the range: the schedule carries on from where it was.
        #expect(timeline.capture(low).schedule == high + .seconds(-10))
        #expect(timeline.capture(low + .seconds(5)) == (high + .seconds(-5), nil))
        #expect(timeline.capture(low + .seconds(20)) == (high, nil))
        #expect(timeline.capture(low + .seconds(21)) == (high, nil))
        #expect(timeline.capture(low + .seconds(21)) == (high, nil))
    }

    @Test("live: the clocks moving apart by up to 100 ms is no step (neither followed nor told); by more, it is")
    func liveSmallCorrectionsAreNoStep() {
        var timeline = Timeline()
        #expect(timeline.live(monotonic: .seconds(5), wall: t0) == (t0, nil))
        #expect(timeline.live(monotonic: .seconds(6), wall: t0 + .seconds(1) + .milliseconds(20)) == (t0 + .seconds(1), nil))
        #expect(timeline.live(monotonic: .seconds(7), wall: t0 + .seconds(2) + .milliseconds(-100)) == (t0 + .seconds(2), nil))
        #expect(timeline.wallTime(at: t0 + .seconds(2)) == t0 + .seconds(2))
        let step = timeline.live(monotonic: .seconds(8), wall: t0 + .seconds(3) + .milliseconds(101))
        #expect(step.step == Timeline.Step(by: .milliseconds(101), wallTime: t0 + .seconds(3) + .milliseconds(101)))
        #expect(timeline.wallTime(at: t0 + .seconds(3)) == t0 + .seconds(3) + .milliseconds(101))
    }
}
