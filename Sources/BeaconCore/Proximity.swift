/// How near a ranged beacon is, as CoreLocation's CLProximity. The raw value is the JSON name.
public enum Proximity: String, Hashable, Sendable, CaseIterable {
    /// Closer than `DistanceModel.immediateBelow` (default 0.5 m).
    case immediate
    /// Closer than `DistanceModel.nearBelow` (default 3.0 m).
    case near
    /// Farther than `DistanceModel.nearBelow`.
    case far
    /// No usable RSSI reading in the interval.
    case unknown
}
