/// Smooths one beacon's RSSI readings into the value its distance is estimated from.
///
/// Time is an input: readings arrive with the time they were heard, and `value(at:)` is asked at
/// a ranging tick. Callers never pass a time earlier than one already given (the region monitor
/// clamps times that go backwards), but a filter stays finite for any gap, however large.
public protocol RSSIFilter {
    /// Adds one reading (dBm) heard at `time`.
    mutating func add(_ rssi: Double, at time: Timestamp)
    /// The filtered RSSI at `now` (dBm); nil when the filter holds no reading it can use.
    mutating func value(at now: Timestamp) -> Double?
    /// Called after each ranging tick has read the value: the interval mean starts afresh, the others carry on.
    mutating func endInterval()
}

/// CoreLocation's documented behaviour: the mean of the readings since the last ranging tick.
public struct IntervalMeanFilter: RSSIFilter, Sendable {
    private var sum = 0.0
    private var count = 0

    public init() {}

    public mutating func add(_ rssi: Double, at time: Timestamp) {
        sum += rssi
        count += 1
    }

    public mutating func value(at now: Timestamp) -> Double? {
        count > 0 ? sum / Double(count) : nil
    }

    public mutating func endInterval() {
        sum = 0
        count = 0
    }
}

/// A statistic over the readings of the last `window`: the running median, or AltBeacon's running
/// average, which drops a fraction of the readings from each end before averaging.
public struct WindowFilter: RSSIFilter, Sendable {
    public enum Statistic: Hashable, Sendable {
        case median
        /// Mean after removing `fraction` (0 ..< 0.5) of the readings from each side.
        case trimmedMean(fraction: Double)
    }

    public let window: Micros
    public let statistic: Statistic
    private var samples = SampleWindow()

    public init(window: Micros, statistic: Statistic) {
        self.window = window
        self.statistic = statistic
    }

    public mutating func add(_ rssi: Double, at time: Timestamp) {
        samples.append(rssi, at: time)
    }

    public mutating func value(at now: Timestamp) -> Double? {
        samples.dropOlder(than: now + Micros(-window.value))
        var sorted = samples.values
        guard !sorted.isEmpty else { return nil }
        sorted.sort()
        switch statistic {
        case .median:
            return OrderStatistics.quantile(sorted: sorted, 0.5)
        case .trimmedMean(let fraction):
            let cut = Int(Double(sorted.count) * fraction)
            let kept = sorted[cut..<(sorted.count - cut)]
            return kept.reduce(0, +) / Double(kept.count)
        }
    }

    public mutating func endInterval() {}
}

/// AltBeacon's ARMA filter: each reading moves the estimate by `coefficient` of the difference.
public struct ARMAFilter: RSSIFilter, Sendable {
    public let coefficient: Double
    private var estimate: Double?

    public init(coefficient: Double) { self.coefficient = coefficient }

    public mutating func add(_ rssi: Double, at time: Timestamp) {
        estimate = estimate.map { $0 - coefficient * ($0 - rssi) } ?? rssi
    }

    public mutating func value(at now: Timestamp) -> Double? { estimate }

    public mutating func endInterval() {}
}

/// A one-dimensional Kalman filter on RSSI with a random-walk model, as room-assistant uses, made
/// time-aware: the uncertainty grows by `processNoise` per second between readings, so the filter
/// follows a moving beacon at the same pace whatever its advertising rate.
public struct KalmanFilter: RSSIFilter, Sendable {
    /// Variance added per second (dB²/s): how fast the true RSSI is expected to drift.
    public let processNoise: Double
    /// Variance of one reading (dB²).
    public let measurementNoise: Double
    private var estimate: Double?
    private var variance = 0.0
    private var lastTime = Timestamp(microseconds: 0)

    public init(processNoise: Double, measurementNoise: Double) {
        self.processNoise = processNoise
        self.measurementNoise = measurementNoise
    }

    public mutating func add(_ rssi: Double, at time: Timestamp) {
        guard let previous = estimate else {
            estimate = rssi
            variance = measurementNoise
            lastTime = time
            return
        }
        // In floating point: the gap between two far-apart times does not fit in 64 bits.
        let seconds = max(0, (Double(time.microseconds) - Double(lastTime.microseconds)) / 1e6)
        let predicted = variance + processNoise * seconds
        let gain = predicted / (predicted + measurementNoise)
        estimate = previous + gain * (rssi - previous)
        variance = (1 - gain) * predicted
        lastTime = time
    }

    public mutating func value(at now: Timestamp) -> Double? { estimate }

    public mutating func endInterval() {}
}

/// The readings of the last window, oldest first. Storage is reused: once it has grown to the
/// busiest window's size, adding a reading allocates nothing.
struct SampleWindow: Sendable {
    /// Readings kept at most; older ones are dropped first (a 20 s window at 20 advertisements/s is 400).
    static let capacity = 1024
    private var times: [Int64] = []
    private var readings: [Double] = []
    private var head = 0

    var count: Int { readings.count - head }

    /// The readings in the window, oldest first.
    var values: [Double] { Array(readings[head...]) }

    mutating func append(_ rssi: Double, at time: Timestamp) {
        if count == Self.capacity { head += 1 }
        if head > 0, head >= readings.count / 2 { compact() }
        times.append(time.microseconds)
        readings.append(rssi)
    }

    /// Drops the readings heard before `cutoff`.
    mutating func dropOlder(than cutoff: Timestamp) {
        while head < times.count, times[head] < cutoff.microseconds { head += 1 }
        if head == times.count {
            times.removeAll(keepingCapacity: true)
            readings.removeAll(keepingCapacity: true)
            head = 0
        }
    }

    private mutating func compact() {
        times.removeFirst(head)
        readings.removeFirst(head)
        head = 0
    }
}
