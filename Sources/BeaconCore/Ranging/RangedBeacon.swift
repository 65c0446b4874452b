/// One beacon as reported by a ranging tick, summarising the advertisements heard from one
/// (identity, device address) pair, as CoreLocation's CLBeacon.
public struct RangedBeacon: Hashable, Sendable {
    public var identity: BeaconID
    /// Mean of the interval's RSSI readings in dBm; nil when none was usable (printed as 0, as CoreLocation).
    public var rssi: Double?
    /// Standard deviation of the interval's RSSI readings in dB; nil when none was usable.
    public var rssiSpread: Double?
    /// The RSSI filter's value that `accuracy` was estimated from; nil when the beacon was not heard in the interval.
    public var filteredRSSI: Double?
    /// Calibrated RSSI at 1 m from the latest advertisement (dBm), as advertised.
    public var measuredPower: Int8
    /// False when the advertised measured power is not a plausible calibration and no override was given.
    public var measuredPowerValid: Bool
    /// Estimated distance in metres; -1 when unknown.
    public var accuracy: Double
    public var proximity: Proximity
    public var address: DeviceAddress
    /// Address type of the latest advertisement.
    public var addressType: AddressType
    /// The primary PHY of the latest advertisement.
    public var phy: PHY = .le1M
    /// Advertisements heard in the interval, with or without an RSSI.
    public var samples: Int
    /// When the beacon was last heard.
    public var lastSeen: Timestamp
    /// Eddystone's Tx power at 0 m from the latest advertisement (`measuredPower` is 41 dB less).
    public var txPower: Int8?
    /// The latest Eddystone-TLM heard from the beacon's address within the tracking age.
    public var telemetry: EddystoneTLM?

    /// An iBeacon's entry.
    public init(identity: BeaconIdentity, rssi: Double?, filteredRSSI: Double? = nil, measuredPower: Int8,
                measuredPowerValid: Bool = true, accuracy: Double, proximity: Proximity,
                address: DeviceAddress, addressType: AddressType, samples: Int, lastSeen: Timestamp) {
        self.init(identity: .iBeacon(identity), rssi: rssi, filteredRSSI: filteredRSSI, measuredPower: measuredPower,
                  measuredPowerValid: measuredPowerValid, accuracy: accuracy, proximity: proximity, address: address,
                  addressType: addressType, samples: samples, lastSeen: lastSeen)
    }

    public init(identity: BeaconID, rssi: Double?, filteredRSSI: Double? = nil, measuredPower: Int8,
                measuredPowerValid: Bool = true, accuracy: Double, proximity: Proximity,
                address: DeviceAddress, addressType: AddressType, samples: Int, lastSeen: Timestamp) {
        self.identity = identity
        self.rssi = rssi
        self.filteredRSSI = filteredRSSI
        self.measuredPower = measuredPower
        self.measuredPowerValid = measuredPowerValid
        self.accuracy = accuracy
        self.proximity = proximity
        self.address = address
        self.addressType = addressType
        self.samples = samples
        self.lastSeen = lastSeen
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
