/// One beacon as reported by a ranging tick, summarising the advertisements heard from one
/// (identity, device address) pair during the interval, as CoreLocation's CLBeacon.
public struct RangedBeacon: Hashable, Sendable {
    public var identity: BeaconIdentity
    /// Mean of the interval's RSSI readings in dBm; 0 when none carried an RSSI (as CoreLocation).
    public var rssi: Double
    /// Calibrated RSSI at 1 m from the latest advertisement (dBm).
    public var measuredPower: Int8
    /// Estimated distance in metres from the `DistanceModel`; -1 when unknown.
    public var accuracy: Double
    public var proximity: Proximity
    public var address: DeviceAddress
    /// Address type of the latest advertisement.
    public var addressType: AddressType
    /// Advertisements heard in the interval, with or without an RSSI.
    public var samples: Int

    public init(identity: BeaconIdentity, rssi: Double, measuredPower: Int8, accuracy: Double, proximity: Proximity,
                address: DeviceAddress, addressType: AddressType, samples: Int) {
        self.identity = identity
        self.rssi = rssi
        self.measuredPower = measuredPower
        self.accuracy = accuracy
        self.proximity = proximity
        self.address = address
        self.addressType = addressType
        self.samples = samples
    }

    /// Ranging order: nearest first (ascending accuracy), unknown accuracy last, then by identity
    /// and device address so equal distances always print in the same order.
    public static func nearerFirst(_ a: RangedBeacon, _ b: RangedBeacon) -> Bool {
        let aUnknown = !(a.accuracy >= 0), bUnknown = !(b.accuracy >= 0)
        if aUnknown != bUnknown { return bUnknown }
        if !aUnknown, a.accuracy != b.accuracy { return a.accuracy < b.accuracy }
        if a.identity != b.identity { return a.identity < b.identity }
        return a.address.value < b.address.value
    }
}
