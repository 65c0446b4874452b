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
}

/// Turns an estimated distance into a proximity class, with hysteresis: a beacon that sits on a
/// boundary keeps its class until its distance is past the boundary by `margin` (a fraction of the
/// boundary, on either side), so noise around a threshold does not flip the class every second.
public struct ProximityClassifier: Hashable, Sendable {
    /// Distances below this many metres are `.immediate` (default 0.5 m).
    public var immediateBelow: Double
    /// Distances below this (and not immediate) are `.near`, the rest `.far` (default 3.0 m).
    public var nearBelow: Double
    /// Relative hysteresis margin (default 0.2: leaving near for far takes 3.6 m, coming back 2.5 m).
    public var margin: Double

    public init(immediateBelow: Double = 0.5, nearBelow: Double = 3.0, margin: Double = 0.2) {
        self.immediateBelow = immediateBelow
        self.nearBelow = nearBelow
        self.margin = margin
    }

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
