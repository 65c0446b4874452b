/// The readings `beacon calibrate` takes, per iBeacon identity: one per advertising event with an RSSI
/// (`AdvertisingEvents`, the rule ranging counts samples by), whatever address the identity is heard
/// at. A phone or beacon with a resolvable or non-resolvable random address changes it every few
/// minutes, so one identity at a new address is the same beacon; one identity heard from an address
/// again after another took over is two transmitters advertising it at once.
public struct CalibrationReadings: Sendable {
    public struct Beacon: Sendable {
        public let identity: IBeaconID
        /// One RSSI (dBm) per advertising event that had one, in the order heard.
        public private(set) var rssi: [Double] = []
        /// The measured power of the latest advertisement.
        public private(set) var advertisedPower: Int8 = 0
        /// The address heard last.
        public private(set) var address: DeviceAddress
        /// Two addresses heard in turn (one, the other, the first again): two transmitters share the identity.
        public private(set) var concurrentAddresses: (DeviceAddress, DeviceAddress)?
        /// Addresses the identity moved away from.
        private var earlierAddresses: [DeviceAddress] = []
        private var events = AdvertisingEvents()

        init(identity: IBeaconID, address: DeviceAddress) {
            self.identity = identity
            self.address = address
        }

        mutating func add(_ s: Sighting, measuredPower: Int8) {
            if s.address != address {
                if concurrentAddresses == nil, earlierAddresses.contains(s.address) { concurrentAddresses = (s.address, address) }
                if !earlierAddresses.contains(address) { earlierAddresses.append(address) }
                address = s.address
            }
            advertisedPower = measuredPower
            guard events.isNewEvent(s, at: s.time), let reading = s.rssi else { return }
            rssi.append(Double(reading))
        }
    }

    public let region: BeaconRegion
    /// The beacons heard that match `region`, by identity.
    public private(set) var beacons: [IBeaconID: Beacon] = [:]

    public init(region: BeaconRegion) { self.region = region }

    /// Counts `s` when it is an iBeacon of `region`.
    public mutating func add(_ s: Sighting) {
        guard case .iBeacon(let beacon) = s.frame, region.matches(beacon.identity) else { return }
        beacons[beacon.identity, default: Beacon(identity: beacon.identity, address: s.address)]
            .add(s, measuredPower: beacon.measuredPower)
    }

    /// The one beacon measured, or why there is none to calibrate.
    public func measured() -> Result<Beacon, CalibrationError> {
        let heard = beacons.values.sorted { $0.identity < $1.identity }
        guard let beacon = heard.first else {
            return .failure(.init("no beacon matching \(region) was heard; check the UUID with `beacon scan` or `btmon`, and that the beacon is on"))
        }
        guard heard.count == 1 else {
            let names = heard.prefix(5).map { "\($0.identity) at \($0.address)" }.joined(separator: ", ")
            return .failure(.init("\(heard.count) beacons match \(region) (\(names)); narrow it with --major and --minor, or switch the others off"))
        }
        if let (first, second) = beacon.concurrentAddresses {
            return .failure(.init("\(beacon.identity) is advertised from \(first) and \(second) at the same time: two beacons share the identity; switch the others off"))
        }
        return .success(beacon)
    }
}
