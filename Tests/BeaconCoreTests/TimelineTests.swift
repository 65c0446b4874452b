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
        // Times before each step keep the clock they were on.
        #expect(timeline.wallTime(at: t0 + .seconds(1)) == t0 + .seconds(1))
        #expect(timeline.wallTime(at: t0 + .seconds(3)) == t0 + .seconds(-27))
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
        // The stall is a change of the offset just after the time the wait began; times before keep theirs.
        #expect(timeline.latestChange == Timeline.OffsetChange(from: t0 + .seconds(1) + Micros(1), offset: .seconds(120)))
        #expect(timeline.wallTime(at: t0 + .seconds(1)) == t0 + .seconds(1))
    }

    @Test("live: a step found on waking from a stall is replaced by the stall's change")
    func liveStepDuringStall() {
        var timeline = Timeline()
        _ = timeline.live(monotonic: .seconds(5), wall: t0)
        _ = timeline.live(monotonic: .seconds(6), wall: t0 + .seconds(1))
        // Stopped for two minutes, during which the wall clock was also set an hour forward.
        let woke = timeline.live(monotonic: .seconds(126), wall: t0 + .seconds(3721))
        #expect(woke.step?.by == .seconds(3600))
        timeline.resume(from: t0 + .seconds(1))
        #expect(timeline.latestChange == Timeline.OffsetChange(from: t0 + .seconds(1) + Micros(1), offset: .seconds(3720)))
        #expect(timeline.live(monotonic: .seconds(127), wall: t0 + .seconds(3722)) == (t0 + .seconds(2), nil))
        #expect(timeline.wallTime(at: t0 + .seconds(1)) == t0 + .seconds(1))
    }

    @Test("replay: a jump back is a step; backward jitter of up to 10 ms is no time; a forward jump of any size is time that passed")
    func captureSteps() {
        var timeline = Timeline()
        #expect(timeline.capture(t0) == (t0, nil))
        #expect(timeline.capture(t0 + .seconds(9)) == (t0 + .seconds(9), nil))
        // 10 ms backwards: the same instant as the latest; 10.001 ms: a step.
        #expect(timeline.capture(t0 + .milliseconds(8990)) == (t0 + .seconds(9), nil))
        #expect(timeline.changeCount == 0)
        let back = timeline.capture(t0 + .seconds(-21))
        // The schedule carries on just after the latest time, so the times before keep their clock.
        #expect(back == (t0 + .seconds(9) + Micros(1), Timeline.Step(by: .seconds(-30), wallTime: t0 + .seconds(-21))))
        #expect(timeline.capture(t0 + .seconds(-20)) == (t0 + .seconds(10) + Micros(1), nil))
        #expect(timeline.wallTime(at: t0 + .seconds(10) + Micros(1)) == t0 + .seconds(-20))
        #expect(timeline.wallTime(at: t0 + .seconds(9)) == t0 + .seconds(9))
        // An hour of silence is an hour.
        #expect(timeline.capture(t0 + .seconds(3580)) == (t0 + .seconds(3610) + Micros(1), nil))
        #expect(timeline.wallTime(at: t0 + .seconds(3610) + Micros(1)) == t0 + .seconds(3580))
        #expect(timeline.changeCount == 1)
        let edge = timeline.capture(t0 + .seconds(3580) + .milliseconds(-10) + Micros(-1))
        #expect(edge.step?.by == Micros(-10_001))
    }

    @Test("replay: a recording's note changes printed times from its own time on, and leaves the schedule alone")
    func recordingNotes() {
        var timeline = Timeline()
        #expect(timeline.capture(t0) == (t0, nil))
        #expect(timeline.capture(t0 + .seconds(2)) == (t0 + .seconds(2), nil))
        let noted = timeline.note(recordedOffset: .seconds(3600), at: t0 + .seconds(2) + Micros(1))
        #expect(noted == (t0 + .seconds(2) + Micros(1), nil))
        #expect(timeline.capture(t0 + .seconds(3)) == (t0 + .seconds(3), nil))
        #expect(timeline.wallTime(at: t0 + .seconds(2)) == t0 + .seconds(2))
        #expect(timeline.wallTime(at: t0 + .seconds(2) + Micros(1)) == t0 + .seconds(3602) + Micros(1))
        #expect(timeline.wallTime(at: t0 + .seconds(3)) == t0 + .seconds(3603))
        // Back to the first clock: a note of 0.
        _ = timeline.note(recordedOffset: Micros(0), at: t0 + .seconds(4))
        #expect(timeline.wallTime(at: t0 + .seconds(5)) == t0 + .seconds(5))
        #expect(timeline.wallTime(at: t0 + .seconds(3)) == t0 + .seconds(3603))
        #expect(timeline.changeCount == 2)
    }

    @Test("replay: a step back after a note keeps the note's offset on top of the capture's own times")
    func noteThenStepBack() {
        var timeline = Timeline()
        _ = timeline.capture(t0)
        _ = timeline.note(recordedOffset: .seconds(-60), at: t0 + .seconds(1))
        _ = timeline.capture(t0 + .seconds(2))
        let back = timeline.capture(t0 + .seconds(-8))
        #expect(back.schedule == t0 + .seconds(2) + Micros(1))
        // Printed: the record's time, plus the note's offset.
        #expect(back.step?.wallTime == t0 + .seconds(-68))
        #expect(timeline.wallTime(at: t0 + .seconds(2)) == t0 + .seconds(-58))
        #expect(timeline.capture(t0 + .seconds(-7)) == (t0 + .seconds(3) + Micros(1), nil))
        #expect(timeline.wallTime(at: t0 + .seconds(3) + Micros(1)) == t0 + .seconds(-67))
    }

    @Test("a time is printed by the offset in effect when it was scheduled, however many changes came after")
    func offsetAtEarlierTimes() {
        var timeline = Timeline()
        _ = timeline.capture(t0)
        for n in 1...10 {
            _ = timeline.note(recordedOffset: .seconds(Int64(n) * 100), at: t0 + .seconds(Int64(n)))
        }
        #expect(timeline.wallTime(at: t0 + .milliseconds(999)) == t0 + .milliseconds(999))
        for n in 1...10 {
            let time = t0 + .seconds(Int64(n)) + .milliseconds(500)
            #expect(timeline.wallTime(at: time) == time + .seconds(Int64(n) * 100))
            #expect(timeline.wallTime(at: t0 + .seconds(Int64(n))) == t0 + .seconds(Int64(n) * 101))
        }
    }

    @Test("past the changes remembered, the oldest half are forgotten and the times before them use the latest forgotten")
    func rememberedChanges() {
        var timeline = Timeline()
        _ = timeline.capture(t0)
        let count = Timeline.rememberedChanges + 1
        for n in 1...count {
            _ = timeline.note(recordedOffset: .seconds(Int64(n)), at: t0 + .seconds(Int64(n)))
        }
        #expect(timeline.changeCount == count)
        let kept = Timeline.rememberedChanges / 2
        let oldestKept = Int64(count - kept + 1)
        #expect(timeline.offset(at: t0 + .seconds(oldestKept)) == .seconds(oldestKept))
        #expect(timeline.offset(at: t0 + .seconds(oldestKept - 1)) == .seconds(oldestKept - 1))
        #expect(timeline.offset(at: t0 + .seconds(Int64(count))) == .seconds(Int64(count)))
    }

    @Test("live: a step found by a reading in the same microsecond as the previous one takes effect just after it")
    func liveStepInTheSameMicrosecond() {
        var timeline = Timeline()
        #expect(timeline.live(monotonic: .seconds(5), wall: t0) == (t0, nil))
        let step = timeline.live(monotonic: .seconds(5), wall: t0 + .seconds(3))
        #expect(step.schedule == t0 + Micros(1))
        #expect(timeline.wallTime(at: t0) == t0)
        #expect(timeline.wallTime(at: t0 + Micros(1)) == t0 + .seconds(3))
        #expect(timeline.latestChange == Timeline.OffsetChange(from: t0 + Micros(1), offset: Micros(2_999_999)))
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

    @Test("replay: forward jumps carry the schedule up to the range's end; one past it is a step that prints the capture's time")
    func captureSaturatesAtTheEnd() {
        let (low, high) = (Timestamp.supportedRange.lowerBound, Timestamp.supportedRange.upperBound)
        var timeline = Timeline()
        #expect(timeline.capture(high + .seconds(-10)).schedule == high + .seconds(-10))
        // A step back to the start of the range: the schedule carries on from where it was.
        #expect(timeline.capture(low).schedule == high + .seconds(-10) + Micros(1))
        #expect(timeline.capture(low + .seconds(5)) == (high + .seconds(-5) + Micros(1), nil))
        let past = timeline.capture(low + .seconds(20))
        #expect(past == (high, Timeline.Step(by: .seconds(15), wallTime: low + .seconds(20))))
        #expect(timeline.capture(low + .seconds(21)).schedule == high)
        #expect(timeline.wallTime(at: high) == low + .seconds(21))
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
