/// What to advertise and how, validated: a beacon payload of any format plus the advertising parameters.
public struct AdvertisingPlan: Equatable, Sendable {
    public var beacon: AdvertisedBeacon
    /// Advertising interval in 0.625 ms units (Core Vol 4 Part E 7.8.5: 0x0020...0x4000, 20 ms...10.24 s).
    public var intervalSlots: UInt32
    /// ADV_IND when true, ADV_NONCONN_IND otherwise.
    public var connectable: Bool
    /// Requested transmit power in dBm (extended advertising only); nil lets the controller choose.
    public var txPower: Int8?
    /// The primary (and secondary) advertising PHY: LE 1M, or LE Coded for long range, which needs
    /// extended advertising PDUs (legacy PDUs are LE 1M only).
    public var phy: PHY

    /// The iBeacon recommendation, and the shortest interval Bluetooth 4.x controllers accept for non-connectable advertising.
    public static let recommendedIntervalSlots: UInt32 = 160
    public static let intervalSlotRange: ClosedRange<UInt32> = 0x0020...0x4000

    public init(beacon: AdvertisedBeacon, intervalSlots: UInt32 = recommendedIntervalSlots, connectable: Bool = false, txPower: Int8? = nil,
                phy: PHY = .le1M) {
        self.beacon = beacon
        self.intervalSlots = intervalSlots
        self.connectable = connectable
        self.txPower = txPower
        self.phy = phy
    }

    /// Interval in milliseconds, for output.
    public var intervalMilliseconds: Double { Double(intervalSlots) * 0.625 }

    /// Flags (LE General Discoverable, BR/EDR not supported) then the format's own structures.
    public var advertisingData: [UInt8] { beacon.advertisingData }

    /// Bluetooth 4.x controllers refuse non-connectable advertising faster than 100 ms.
    /// `hciVersion` is from Read Local Version Information (9 = Core 5.0).
    public func violatesLegacyFloor(hciVersion: UInt8) -> Bool {
        !connectable && hciVersion < 9 && intervalSlots < Self.recommendedIntervalSlots
    }

    /// Extended advertising event properties (Core Vol 4 Part E 7.8.53): legacy PDUs on LE 1M, which every
    /// scanner hears; extended PDUs (non-scannable, connectable or not) on LE Coded.
    public var extendedProperties: UInt16 {
        if phy == .leCoded {
            return connectable ? ExtendedAdvertisingProperties.connectable : 0x0000
        }
        return connectable ? ExtendedAdvertisingProperties.legacyConnectable
            : ExtendedAdvertisingProperties.legacyNonConnectable
    }

    public var legacyType: LegacyAdvertisingType { connectable ? .connectableUndirected : .nonConnectableUndirected }
}
