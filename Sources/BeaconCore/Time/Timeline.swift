/// One run's two notions of time. Schedules (ranging ticks, exit deadlines, `--duration`, command
/// timeouts) run on a schedule time that never steps; printed times are wall-clock time,
/// `schedule + offset`, with the offset that was in effect at that schedule time. When the wall clock
/// steps (NTP's first sync on a Raspberry Pi, an operator's `date -s`), only the offset changes, from
/// then on: nothing scheduled freezes or fires early, and a time from before the step (a beacon's
/// `lastSeen`) keeps the clock it was heard by.
///
/// Live runs derive schedule time from the monotonic clock and watch the wall clock for steps. Replays
/// have the capture's own timestamps: a jump backwards is taken for a step of the recording machine's
/// clock (the schedule carries on as if no time had passed, printed times follow the capture); a jump
/// forwards is time that passed (unless it leaves the supported range). A recording's note of its wall clock (`note(recordedOffset:at:)`)
/// says how its record times are printed.
public struct Timeline: Sendable {
    /// Wall-clock time minus schedule time, from the latest change on.
    public private(set) var wallOffset = Micros(0)
    /// Live runs: a wall clock that differs from `schedule + wallOffset` by more than this has been set
    /// (stepped). CLOCK_REALTIME and CLOCK_MONOTONIC are slewed alike by NTP, so only setting the clock
    /// moves one against the other; NTP daemons set it only for offsets well above this (ntpd beyond
    /// 128 ms, chrony by its makestep limit, usually a second). Smaller differences, such as the
    /// few-millisecond corrections a virtual machine's host makes, are neither followed nor told.
    public let stepThreshold: Micros

    /// An offset and the schedule time it took effect at.
    public struct OffsetChange: Hashable, Sendable {
        public var from: Timestamp
        public var offset: Micros

        public init(from: Timestamp, offset: Micros) {
            self.from = from
            self.offset = offset
        }
    }

    /// The offsets before `wallOffset`, oldest first; the last is `wallOffset`'s own change. Times are
    /// rarely printed long after they were scheduled or heard, so only the latest `rememberedChanges` are kept.
    private var changes: [OffsetChange] = []
    /// The offset before the oldest change kept.
    private var offsetBeforeChanges = Micros(0)
    /// Changes made so far (including those no longer kept): `latestChange` is new when this grows.
    public private(set) var changeCount = 0

    /// Schedule time minus monotonic time (live), fixed by the first reading.
    private var monotonicBase: Micros?
    /// The latest schedule time handed out.
    @usableFromInline var latestSchedule: Timestamp?
    /// The latest capture time seen (replay).
    @usableFromInline var latestCapture: Timestamp?
    /// Replays: schedule time minus capture time, changed by each backward step.
    private var captureShift = Micros(0)
    /// Replays: printed time minus record time, as the recording's latest note gave it (0 without one).
    private var recordedOffset = Micros(0)

    /// A step the timeline re-anchored at.
    public struct Step: Hashable, Sendable, CustomStringConvertible {
        /// How far printed times moved: positive when the clock jumped forward.
        public var by: Micros
        /// The wall-clock time printed from then on.
        public var wallTime: Timestamp

        public init(by: Micros, wallTime: Timestamp) {
            self.by = by
            self.wallTime = wallTime
        }

        /// `forward 3600.000s`, `back 30.000s`.
        public var description: String {
            // Rounded to the millisecond: the two clocks are not read at quite the same instant.
            (by.value < 0 ? "back " : "forward ") + by.secondsToTheMillisecond
        }
    }

    public static let defaultStepThreshold = Micros.milliseconds(100)

    /// Replays: a capture's time going back by at most this is its writer's timestamp jitter, not a step.
    @inlinable
    public static var captureJitter: Micros { Micros.milliseconds(10) }

    /// Offset changes remembered for times printed after later changes.
    public static let rememberedChanges = 4096

    public init(stepThreshold: Micros = defaultStepThreshold) {
        self.stepThreshold = stepThreshold
    }

    /// The wall-clock time of a schedule time, by the offset in effect then.
    public func wallTime(at schedule: Timestamp) -> Timestamp {
        schedule + offset(at: schedule)
    }

    /// The offset in effect at `schedule`: the latest change at or before it.
    public func offset(at schedule: Timestamp) -> Micros {
        guard let last = changes.last else { return wallOffset }
        if schedule >= last.from { return last.offset }
        // The first change after `schedule`, by bisection; the one before it is in effect.
        var (low, high) = (0, changes.count - 1)
        while low < high {
            let middle = (low + high) / 2
            if changes[middle].from > schedule { high = middle } else { low = middle + 1 }
        }
        return low == 0 ? offsetBeforeChanges : changes[low - 1].offset
    }

    /// The latest change of the offset, nil while there was none.
    public var latestChange: OffsetChange? { changes.last }

    /// Makes `offset` the offset from schedule time `from` on (a change at the same time is replaced).
    private mutating func change(to offset: Micros, from: Timestamp) {
        guard offset != wallOffset else { return }
        if let last = changes.last, last.from == from {
            changes[changes.count - 1].offset = offset
        } else {
            changes.append(OffsetChange(from: from, offset: offset))
            if changes.count > Self.rememberedChanges {
                let forgotten = changes.count - Self.rememberedChanges / 2
                offsetBeforeChanges = changes[forgotten - 1].offset
                changes.removeFirst(forgotten)
            }
        }
        wallOffset = offset
        changeCount += 1
    }

    /// The schedule time just after `schedule`: a live change takes effect after every time handed out
    /// before it, so those keep the offset they had, and a recording's note of it follows their records.
    private static func after(_ schedule: Timestamp) -> Timestamp {
        min(schedule + Micros(1), Timestamp.supportedRange.upperBound)
    }

    /// A live reading of both clocks: the schedule time it stands for, and the step it revealed.
    /// The first reading starts the schedule at the wall-clock time.
    public mutating func live(monotonic: Micros, wall: Timestamp) -> (schedule: Timestamp, step: Step?) {
        let wall = wall.clampedToSupportedRange
        guard let base = monotonicBase, let latest = latestSchedule else {
            monotonicBase = wall - Timestamp(microseconds: monotonic.value)
            latestSchedule = wall
            return (wall, nil)
        }
        // Monotonic time cannot go backwards; the guard keeps a faulty reading from doing so.
        var schedule = max(Timestamp(microseconds: monotonic.value) + base, latest)
        let drift = wall - (schedule + wallOffset)
        guard drift.value.magnitude > stepThreshold.value.magnitude else {
            latestSchedule = schedule
            return (schedule, nil)
        }
        if schedule == latest { schedule = Self.after(latest) }
        latestSchedule = schedule
        change(to: wall - schedule, from: schedule)
        return (schedule, Step(by: drift, wallTime: wall))
    }

    /// Live runs: the schedule carries on from `schedule`, an earlier time it handed out, as if no time
    /// had passed since: a stall of the process (SIGSTOP, a paused machine) is left out of schedules,
    /// while printed times keep following the wall clock. Offset changes after `schedule` are replaced.
    public mutating func resume(from schedule: Timestamp) {
        guard let base = monotonicBase, let latest = latestSchedule, schedule < latest else { return }
        let stall = latest - schedule
        monotonicBase = Micros(base.value - stall.value)
        let offset = Micros(wallOffset.value + stall.value)
        while let last = changes.last, last.from > schedule {
            changes.removeLast()
            wallOffset = changes.last?.offset ?? offsetBeforeChanges
        }
        let from = Self.after(schedule)
        latestSchedule = from
        change(to: offset, from: from)
    }

    /// A capture's timestamp: the schedule time it stands for, and the step it revealed. Small
    /// backward jitter (at most `captureJitter`) is treated as no time passing; a larger jump back is a
    /// step; a jump forward is time that passed.
    /// Inlined into the per-packet loop of a replay (in another module); the steps are out of line.
    @inlinable @inline(__always)
    public mutating func capture(_ time: Timestamp) -> (schedule: Timestamp, step: Step?) {
        let time = time.clampedToSupportedRange
        guard let previous = latestCapture, let schedule = latestSchedule else {
            latestCapture = time
            latestSchedule = time
            return (time, nil)
        }
        // Only a forward jump across the whole supported range overflows.
        let (difference, jumpOverflows) = time.microseconds.subtractingReportingOverflow(previous.microseconds)
        let jump = Micros(jumpOverflows ? .max : difference)
        if jump.value < 0, jump.value.magnitude <= Self.captureJitter.value.magnitude {
            return (schedule, nil)
        }
        latestCapture = time
        // A capture can hold any 64-bit time: a jump the schedule cannot hold (past the end of the
        // supported range) is a step, which leaves the schedule at the end and prints the capture's time.
        let (sum, overflow) = schedule.microseconds.addingReportingOverflow(jump.value)
        guard jump.value >= 0, !overflow, sum <= Timestamp.supportedRange.upperBound.microseconds else {
            return captureStep(time, by: jump, after: schedule)
        }
        let next = Timestamp(microseconds: sum)
        latestSchedule = next
        return (next, nil)
    }

    /// `capture`'s steps: a jump back (beyond the jitter), or forward past the supported range.
    @usableFromInline @inline(never)
    mutating func captureStep(_ time: Timestamp, by jump: Micros, after schedule: Timestamp) -> (schedule: Timestamp, step: Step?) {
        if jump.value < 0 {
            // The schedule carries on just after the latest time: the packets before the step keep
            // their clock, and this one is printed at its own time (the ticks after it, which the
            // capture has no time for, a microsecond earlier than a whole number of intervals).
            let next = Self.after(schedule)
            latestSchedule = next
            captureShift = next - time
            change(to: Micros(recordedOffset.value &- captureShift.value), from: next)
            return (next, Step(by: jump, wallTime: wallTime(at: next)))
        }
        let end = Timestamp.supportedRange.upperBound
        latestSchedule = end
        captureShift = end - time
        change(to: Micros(recordedOffset.value &- captureShift.value), from: end)
        return (end, Step(by: jump, wallTime: wallTime(at: end)))
    }

    /// A recording's note that from capture time `time` on, its records are printed `recordedOffset`
    /// later (how beacon's `--record` keeps the steps of the wall clock it printed by). The note's time
    /// is taken like a record's: its schedule time, and the step it revealed if its time jumped back.
    public mutating func note(recordedOffset offset: Micros, at time: Timestamp) -> (schedule: Timestamp, step: Step?) {
        let (schedule, step) = capture(time)
        recordedOffset = offset
        change(to: Micros(offset.value &- captureShift.value), from: schedule)
        return (schedule, step)
    }
}
