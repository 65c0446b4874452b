extension AdvertisingPlan {
    /// The power at 1 m a gateway's own beacon advertises (dBm): the iBeacon default, as a gateway's
    /// radio is usually not calibrated either; `beacon locate --calibrate` pins every transmitter to it.
    public static let gatewayBeaconPower: Int8 = -59

    /// A gateway's own beacon (`beacon range --advertise-self`): the range's UUID, so the other gateways
    /// ranging it hear it, and major and minor from the gateway's name (the top and next 16 bits of its
    /// 64-bit FNV-1a hash), so each gateway's is its own without configuration.
    public static func gatewayBeacon(uuid: BeaconUUID, gateway: String) -> AdvertisingPlan {
        let hash = StableHash.fnv1a(gateway)
        let identity = IBeaconID(uuid: uuid, major: UInt16(truncatingIfNeeded: hash >> 48),
                                      minor: UInt16(truncatingIfNeeded: hash >> 32))
        return AdvertisingPlan(beacon: .iBeacon(IBeacon(identity: identity, measuredPower: gatewayBeaconPower)))
    }

    /// The id the gateways' readings give the beacon (mqtt_room's; the site file's gateways[].beacon);
    /// nil for a format the readings do not carry.
    public var beaconID: String? {
        guard case .iBeacon(let beacon) = beacon else { return nil }
        return BeaconID.iBeacon(beacon.identity).deviceID
    }
}
