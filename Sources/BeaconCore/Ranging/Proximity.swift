/// How near a ranged beacon is, as CoreLocation's CLProximity. The raw value is the JSON name.
public enum Proximity: String, Hashable, Sendable, CaseIterable {
    /// Closer than `ProximityClassifier.immediateBelow` (default 0.5 m).
    case immediate
    /// Closer than `ProximityClassifier.nearBelow` (default 3.0 m).
    case near
    /// Farther than `ProximityClassifier.nearBelow`.
    case far
    /// No usable RSSI reading in the interval.
    case unknown

    /// The JSON name (the raw value) as constant text, written without a scan for escapes.
    var name: StaticString {
        switch self {
        case .immediate: "immediate"
        case .near: "near"
        case .far: "far"
        case .unknown: "unknown"
        }
    }
}

/// Turns an estimated distance into a proximity class, with hysteresis in distance and in time: a
/// beacon that sits on a boundary keeps its class until its distance is past the boundary by `margin`
/// (a fraction of the boundary, on either side), and a new class is reported only once it has held
/// for `confirmations` ranging ticks in a row, so neither noise around a threshold nor a person
/// passing between beacon and receiver flips the class.
public struct ProximityClassifier: Hashable, Sendable {
    /// Distances below this many metres are `.immediate` (default 0.5 m).
    public var immediateBelow: Double
    /// Distances below this (and not immediate) are `.near`, the rest `.far` (default 3.0 m).
    public var nearBelow: Double
    /// Relative hysteresis margin (default 0.5: leaving near for far takes 4.5 m, coming back 2 m; about
    /// ±4 dB at the exponents of a room, the size of the slow shadowing a body or a door causes).
    public var margin: Double
    /// Ticks in a row a new class must hold before it is reported (default 3; 1 reports it at once).
    public var confirmations: Int

    public init(immediateBelow: Double = 0.5, nearBelow: Double = 3.0, margin: Double = 0.5, confirmations: Int = 3) {
        self.immediateBelow = immediateBelow
        self.nearBelow = nearBelow
        self.margin = margin
        self.confirmations = max(1, confirmations)
    }

    /// Both hystereses off: the class of each distance as it comes.
    public static let plain = ProximityClassifier(margin: 0, confirmations: 1)

    /// The class of `distance` (metres; negative or NaN is unknown), given the class the beacon had
    /// before (`.unknown` or nil: no hysteresis applies).
    public func classify(_ distance: Double, previous: Proximity? = nil) -> Proximity {
        guard distance >= 0 else { return .unknown }
        let rank = Self.rank(previous)
        // A boundary the previous class lies inside of moves outwards, and the other way round.
        func boundary(_ b: Double, between nearer: Int) -> Double {
            guard let rank else { return b }
            return rank <= nearer ? b * (1 + margin) : b / (1 + margin)
        }
        if distance < boundary(immediateBelow, between: 0) { return .immediate }
        if distance < boundary(nearBelow, between: 1) { return .near }
        return .far
    }

    private static func rank(_ p: Proximity?) -> Int? {
        switch p {
        case .immediate: 0
        case .near: 1
        case .far: 2
        case .unknown, nil: nil
        }
    }
}

/// One beacon's proximity over time: the class it is reported in, and a different class it has been
/// measured in for some ticks in a row but not yet long enough to be reported.
///
/// After an interval in which the beacon was not heard at all (`missedInterval()`), the next class
/// measured past the distance margin is reported at once: the beacon may have moved anywhere meanwhile,
/// so ticks of confirmation measured before the gap say nothing about it. The distance margin still
/// holds, so a beacon that is only lossy, sitting on a boundary, does not flip at every gap.
public struct ProximityState: Hashable, Sendable {
    /// The class last reported with a known distance; `.unknown` before the first.
    public private(set) var reported = Proximity.unknown
    private var candidate = Proximity.unknown
    private var candidateTicks = 0
    /// An interval passed without the beacon being heard since the last known distance.
    private var resumed = false

    public init() {}

    /// The beacon was not heard for a whole interval.
    public mutating func missedInterval() {
        resumed = true
        candidateTicks = 0
    }

    /// The class to report for this tick's distance (negative: unknown, which changes nothing).
    public mutating func update(_ distance: Double, _ classifier: ProximityClassifier) -> Proximity {
        let measured = classifier.classify(distance, previous: reported)
        guard measured != .unknown else { return .unknown }
        defer { resumed = false }
        if reported == .unknown || measured == reported || resumed {
            reported = measured
            candidateTicks = 0
            return measured
        }
        candidateTicks = measured == candidate ? candidateTicks + 1 : 1
        candidate = measured
        if candidateTicks >= classifier.confirmations {
            reported = measured
            candidateTicks = 0
        }
        return reported
    }
}
