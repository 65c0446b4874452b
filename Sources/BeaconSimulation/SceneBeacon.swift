import BeaconCore

/// One beacon in a scene: what it advertises, how often, when, and where it goes.
public struct SceneBeacon: Hashable, Sendable {
    /// The advertisement, of any format `beacon advertise` sends: its identity and measured power (the
    /// calibrated RSSI at 1 m it carries).
    public var beacon: AdvertisedBeacon
    public var address: DeviceAddress
    public var addressType: AddressType
    /// Advertising interval (default 100 ms, the iBeacon recommendation).
    public var interval: Micros
    /// Each event comes `interval` plus a uniform 0...`jitter` after the previous one (default 10 ms,
    /// the advDelay of Core Vol 6 Part B 4.4.2.2.1).
    public var jitter: Micros
    /// When the beacon starts advertising, from the start of the scene (default 0).
    public var start: Micros
    /// When it stops; nil advertises to the end of the scene.
    public var stop: Micros?
    public var path: BeaconPath
    /// Metres above floor 0 in a site scene (default 1.0: carried, or on a shelf).
    public var height: Double
    /// What a scan response carries; `.none` advertises non-scannable (ADV_NONCONN_IND), anything else
    /// scannable (ADV_SCAN_IND), answered only when the receiver scans actively.
    public var scanResponse: ScanResponse

    public init(beacon: AdvertisedBeacon, address: DeviceAddress, addressType: AddressType = .randomDevice,
                interval: Micros = .milliseconds(100), jitter: Micros = .milliseconds(10),
                start: Micros = Micros(0), stop: Micros? = nil, path: BeaconPath, height: Double = SceneBeacon.defaultHeight,
                scanResponse: ScanResponse = .none) {
        self.beacon = beacon
        self.address = address
        self.addressType = addressType
        self.interval = interval
        self.jitter = jitter
        self.start = start
        self.stop = stop
        self.path = path
        self.height = height
        self.scanResponse = scanResponse
    }

    /// The height of a beacon of a site scene that names none.
    public static let defaultHeight = 1.0

    /// The address beacon `index` of a scene gets when it names none: static random C0:00:00:00:00:01 onwards.
    public static func defaultAddress(index: Int) -> DeviceAddress {
        DeviceAddress(value: 0xC0_00_00_00_00_00 | UInt64(index + 1))
    }

    /// Whether the beacon advertises at `time` after the start of a scene of length `duration`.
    public func isAdvertising(at time: Micros, sceneDuration duration: Micros) -> Bool {
        time >= start && time < min(stop ?? duration, duration)
    }

    /// The data of a beacon's scan response.
    public enum ScanResponse: String, Hashable, Sendable, CaseIterable {
        /// Not scannable: no scan responses.
        case none
        /// An empty scan response (no AD structures).
        case empty
        /// The device's name, as many commercial beacons answer.
        case name
        /// The beacon's advertisement again.
        case beacon
    }

    /// The name a beacon answering with its name gives: "beacon" and the last part of its identity.
    var localName: String {
        switch beacon.identity {
        case .iBeacon(let id): "beacon \(id.minor)"
        case .altBeacon(let id): "beacon \(id.id3)"
        case .eddystoneUID(let uid): "beacon \(uid.instance)"
        case nil: "beacon"
        }
    }

    /// The scan response data for this beacon, nil when it is not scannable.
    var scanResponseData: [UInt8]? {
        switch scanResponse {
        case .none: nil
        case .empty: []
        case .name: AdvertisingData.build([(.completeLocalName, Array(localName.utf8))])
        case .beacon: beacon.advertisingData
        }
    }
}
