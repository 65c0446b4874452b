/// One beacon advertisement as heard, in any supported format: what the ranging state machine and the
/// scan aggregator consume.
public struct Sighting: Hashable, Sendable {
    public var frame: BeaconFrame
    /// Received signal strength (dBm); nil when the controller reported 127 ("not available") or
    /// another value outside -127...+20 dBm.
    public var rssi: Int8?
    public var address: DeviceAddress
    public var addressType: AddressType
    public var time: Timestamp
    /// Heard in a scan response, which answers a scan request within the same advertising event.
    public var isScanResponse: Bool
    /// The primary PHY it arrived on (LE 1M for legacy reports).
    public var phy: PHY

    public init(frame: BeaconFrame, rssi: Int8?, address: DeviceAddress, addressType: AddressType,
                time: Timestamp, isScanResponse: Bool = false, phy: PHY = .le1M) {
        self.frame = frame
        self.rssi = rssi
        self.address = address
        self.addressType = addressType
        self.time = time
        self.isScanResponse = isScanResponse
        self.phy = phy
    }

    /// An iBeacon sighting.
    public init(identity: BeaconIdentity, measuredPower: Int8, rssi: Int8?, address: DeviceAddress, addressType: AddressType,
                time: Timestamp, isScanResponse: Bool = false) {
        self.init(frame: .iBeacon(IBeacon(identity: identity, measuredPower: measuredPower)), rssi: rssi, address: address,
                  addressType: addressType, time: time, isScanResponse: isScanResponse)
    }

    public var format: BeaconFormat { frame.format }
    /// The identity a region can name; nil for Eddystone URL, TLM and EID frames.
    public var identity: BeaconID? { frame.identity }
    /// The calibrated power at 1 m (see `BeaconFrame.measuredPower`).
    public var measuredPower: Int8? { frame.measuredPower }
}
