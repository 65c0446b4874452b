/// How ranging turns one beacon's readings into a distance and a proximity: samples, then the RSSI
/// filter, then the distance model, then the proximity classifier. One value configures all of it.
public struct RangingEstimator: Hashable, Sendable {
    public var filter: RSSIFilterKind
    public var distance: DistanceModel
    public var proximity: ProximityClassifier
    /// Added to every reading before the distance is estimated (dB), for a receiver that reads high or low.
    public var rssiOffset: Double
    /// Used instead of the measured power a beacon advertises, for beacons configured badly.
    public var measuredPowerOverride: Int8?
    /// How long a beacon that was not heard stays listed (as iOS lists a beacon it just lost).
    public var trackingAge: Micros
    /// One beacon per identity, whatever address it is heard at (AltBeacon's equality), listed under the
    /// address heard last; by default an identity at each address is a beacon of its own.
    public var ignoresAddress = false

    /// AltBeacon lists a beacon for 5 s after it was last heard.
    public static let defaultTrackingAge = Micros.seconds(5)

    public init(filter: RSSIFilterKind = .standard, distance: DistanceModel = .standard,
                proximity: ProximityClassifier = ProximityClassifier(), rssiOffset: Double = 0,
                measuredPowerOverride: Int8? = nil, trackingAge: Micros = defaultTrackingAge) {
        self.filter = filter
        self.distance = distance
        self.proximity = proximity
        self.rssiOffset = rssiOffset
        self.measuredPowerOverride = measuredPowerOverride
        self.trackingAge = trackingAge
    }

    /// Advertised measured powers outside this range are not calibrations (0 dBm or more at 1 m,
    /// or weaker than -100 dBm) and give no distance.
    public static let plausibleMeasuredPower: ClosedRange<Int8> = -100...(-1)

    /// The calibrated power at 1 m to use for a beacon advertising `advertised`; nil when it is implausible.
    public func measuredPower(advertised: Int8) -> Int8? {
        if let measuredPowerOverride { return measuredPowerOverride }
        return Self.plausibleMeasuredPower.contains(advertised) ? advertised : nil
    }
}
