/// One iBeacon advertisement as heard: what the ranging state machine consumes.
public struct Sighting: Hashable, Sendable {
    public var identity: BeaconIdentity
    /// Calibrated RSSI at 1 m carried in the advertisement (dBm).
    public var measuredPower: Int8
    /// Received signal strength (dBm); nil when the controller reported 127 ("not available") or
    /// another value outside -127...+20 dBm.
    public var rssi: Int8?
    public var address: DeviceAddress
    public var addressType: AddressType
    public var time: Timestamp
    /// Heard in a scan response, which answers a scan request within the same advertising event.
    public var isScanResponse: Bool

    public init(identity: BeaconIdentity, measuredPower: Int8, rssi: Int8?, address: DeviceAddress, addressType: AddressType,
                time: Timestamp, isScanResponse: Bool = false) {
        self.identity = identity
        self.measuredPower = measuredPower
        self.rssi = rssi
        self.address = address
        self.addressType = addressType
        self.time = time
        self.isScanResponse = isScanResponse
    }
}
