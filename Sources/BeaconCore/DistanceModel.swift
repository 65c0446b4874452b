#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Turns a mean RSSI into an estimated distance and a proximity class.
///
/// The estimate is the log-distance path-loss model: `d = 10^((measuredPower - rssi) / (10 n))`
/// metres, where `measuredPower` is the calibrated RSSI at 1 m the beacon advertises and `n` the
/// path-loss exponent (2.0 in free space; indoors usually 2 to 4). It is a rough figure, as
/// CoreLocation's `accuracy` is: use it to order beacons, not to survey a room.
///
/// The parameters live in this struct so another model can replace it without touching the
/// ranging state machine.
public struct DistanceModel: Hashable, Sendable {
    /// Path-loss exponent `n`; must be positive (default 2.0, free space).
    public var pathLossExponent: Double
    /// Accuracies below this many metres are `.immediate` (default 0.5 m).
    public var immediateBelow: Double
    /// Accuracies below this many metres (and not immediate) are `.near`; the rest `.far` (default 3.0 m).
    public var nearBelow: Double

    public init(pathLossExponent: Double = 2.0, immediateBelow: Double = 0.5, nearBelow: Double = 3.0) {
        self.pathLossExponent = pathLossExponent
        self.immediateBelow = immediateBelow
        self.nearBelow = nearBelow
    }

    /// Estimated distance in metres, or -1 when unknown.
    ///
    /// Unknown means `meanRSSI` is 0 (CoreLocation's "no reading": the ranging state machine passes 0
    /// when no advertisement in the interval carried an RSSI), not finite, or the exponent is not
    /// positive.
    public func accuracy(meanRSSI: Double, measuredPower: Int8) -> Double {
        guard meanRSSI != 0, meanRSSI.isFinite, pathLossExponent > 0, pathLossExponent.isFinite else { return -1 }
        let exponent = (Double(measuredPower) - meanRSSI) / (10 * pathLossExponent)
        return pow(10, exponent)
    }

    /// The proximity class of an accuracy: `.unknown` when negative (or NaN), `.immediate` below
    /// `immediateBelow`, `.near` below `nearBelow`, `.far` otherwise.
    public func proximity(accuracy: Double) -> Proximity {
        guard accuracy >= 0 else { return .unknown }
        if accuracy < immediateBelow { return .immediate }
        if accuracy < nearBelow { return .near }
        return .far
    }
}
