/// One run's two notions of time. Schedules (ranging ticks, exit deadlines, `--duration`, command
/// timeouts) run on a schedule time that never steps; printed and recorded times are wall-clock time,
/// `schedule + wallOffset`. When the wall clock steps (NTP's first sync on a Raspberry Pi, an operator's
/// `date -s`), only `wallOffset` changes: nothing scheduled freezes or fires early.
///
/// Live runs derive schedule time from the monotonic clock and watch the wall clock for steps. Replays
/// have only the capture's own timestamps: a jump backwards, or forwards by more than `maximumGap`, is
/// taken for a step of the recording machine's clock, so the schedule carries on as if no time had
/// passed and printed times follow the capture.
public struct Timeline: Sendable {
    /// Wall-clock time minus schedule time, as of the latest step.
    public private(set) var wallOffset = Micros(0)
    /// Live runs: a wall clock that differs from `schedule + wallOffset` by more than this has been set
    /// (stepped). CLOCK_REALTIME and CLOCK_MONOTONIC are slewed alike by NTP, so only setting the clock
    /// moves one against the other; NTP daemons set it only for offsets well above this (ntpd beyond
    /// 128 ms, chrony by its makestep limit, usually a second). Smaller differences, such as the
    /// few-millisecond corrections a virtual machine's host makes, are neither followed nor told.
    public let stepThreshold: Micros
    /// Replays: a forward jump in capture time larger than this is a step, not a silence.
    public let maximumGap: Micros?

    /// Schedule time minus monotonic time (live), fixed by the first reading.
    private var monotonicBase: Micros?
    /// The latest schedule time handed out.
    private var latestSchedule: Timestamp?
    /// The latest capture time seen (replay).
    private var latestCapture: Timestamp?

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
    public static let captureJitter = Micros.milliseconds(10)

    public init(stepThreshold: Micros = defaultStepThreshold, maximumGap: Micros? = nil) {
        self.stepThreshold = stepThreshold
        self.maximumGap = maximumGap
    }

    /// The wall-clock time of a schedule time.
    public func wallTime(at schedule: Timestamp) -> Timestamp {
        schedule + wallOffset
    }

    /// A live reading of both clocks: the schedule time it stands for, and the step it revealed.
    /// The first reading starts the schedule at the wall-clock time.
    public mutating func live(monotonic: Micros, wall: Timestamp) -> (schedule: Timestamp, step: Step?) {
        let wall = wall.clampedToSupportedRange
        guard let base = monotonicBase else {
            monotonicBase = wall - Timestamp(microseconds: monotonic.value)
            latestSchedule = wall
            return (wall, nil)
        }
        // Monotonic time cannot go backwards; the guard keeps a faulty reading from doing so.
        let schedule = max(Timestamp(microseconds: monotonic.value) + base, latestSchedule ?? wall)
        latestSchedule = schedule
        let drift = wall - wallTime(at: schedule)
        guard drift.value.magnitude > stepThreshold.value.magnitude else { return (schedule, nil) }
        wallOffset = wall - schedule
        return (schedule, Step(by: drift, wallTime: wall))
    }

    /// Live runs: the schedule carries on from `schedule`, an earlier time it handed out, as if no time
    /// had passed since: a stall of the process (SIGSTOP, a paused machine) is left out of schedules,
    /// while printed times keep following the wall clock.
    public mutating func resume(from schedule: Timestamp) {
        guard let base = monotonicBase, let latest = latestSchedule, schedule < latest else { return }
        let stall = latest - schedule
        monotonicBase = Micros(base.value - stall.value)
        wallOffset = Micros(wallOffset.value + stall.value)
        latestSchedule = schedule
    }

    /// A capture's timestamp: the schedule time it stands for, and the step it revealed. Small
    /// backward jitter (at most `captureJitter`) is treated as no time passing.
    public mutating func capture(_ time: Timestamp) -> (schedule: Timestamp, step: Step?) {
        let time = time.clampedToSupportedRange
        guard let previous = latestCapture, let schedule = latestSchedule else {
            latestCapture = time
            latestSchedule = time
            wallOffset = Micros(0)
            return (time, nil)
        }
        // Only a forward jump across the whole supported range overflows.
        let (difference, jumpOverflows) = time.microseconds.subtractingReportingOverflow(previous.microseconds)
        let jump = Micros(jumpOverflows ? .max : difference)
        if jump.value < 0, jump.value.magnitude <= Self.captureJitter.value.magnitude {
            return (schedule, nil)
        }
        latestCapture = time
        if jump.value < 0 || maximumGap.map({ jump > $0 }) == true {
            wallOffset = time - schedule
            return (schedule, Step(by: jump, wallTime: time))
        }
        // Saturates rather than wraps: a capture can hold any 64-bit time.
        let (sum, overflow) = schedule.microseconds.addingReportingOverflow(jump.value)
        let next = overflow ? Timestamp.supportedRange.upperBound : Timestamp(microseconds: sum).clampedToSupportedRange
        latestSchedule = next
        return (next, nil)
    }
}
