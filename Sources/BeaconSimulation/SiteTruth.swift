import BeaconCore

/// What was really so for one beacon of a site scene at one tick: where it was (the room and the point
/// `beacon locate` is judged against) and, for each gateway, how far it was and how loud on average.
public struct SiteTruth: Hashable, Sendable {
    /// The tick: start of the capture + k × tick.
    public var time: Timestamp
    /// Time since the start of the scene.
    public var elapsed: Micros
    /// The beacon's place in `Scene.beacons`.
    public var beaconIndex: Int
    public var identity: IBeaconID
    public var address: DeviceAddress
    /// Between the beacon's start and stop.
    public var isAdvertising: Bool
    /// On the site's floor plan, on `floor`.
    public var point: Point2
    /// The floor the beacon is on (on stairs, the one it left until half-way).
    public var floor: Int
    /// The room of `floor` holding `point` (the first listed), nil outside every room.
    public var room: String?
    /// One per gateway, in the site's order.
    public var gateways: [Gateway]

    /// One gateway's view of the beacon.
    public struct Gateway: Hashable, Sendable {
        /// Straight-line distance, metres, heights and floors counted.
        public var distance: Double
        /// Mean received power (dBm): the path loss at `distance`, less the walls crossed, plus the
        /// gateway's offset; no shadowing, fading, noise, dips, blocking or loss.
        public var meanRSSI: Double
        /// Advertising, and `meanRSSI` at or above the receiver's sensitivity.
        public var isAudible: Bool

        public init(distance: Double, meanRSSI: Double, isAudible: Bool) {
            self.distance = distance
            self.meanRSSI = meanRSSI
            self.isAudible = isAudible
        }
    }

    public init(time: Timestamp, elapsed: Micros, beaconIndex: Int, identity: IBeaconID, address: DeviceAddress,
                isAdvertising: Bool, point: Point2, floor: Int = 0, room: String?, gateways: [Gateway]) {
        self.time = time
        self.elapsed = elapsed
        self.beaconIndex = beaconIndex
        self.identity = identity
        self.address = address
        self.isAdvertising = isAdvertising
        self.point = point
        self.floor = floor
        self.room = room
        self.gateways = gateways
    }

    /// The rows of every beacon of a site scene at `elapsed` after its start, heard by `receivers` (the
    /// site's gateways, in its order) with the means the simulation uses.
    static func rows(_ scene: Scene, site: Site, receivers: [ScanningReceiver], at elapsed: Micros,
                     start: Timestamp) -> [SiteTruth] {
        // Validation admits only iBeacons to a site scene.
        scene.beacons.enumerated().compactMap { index, beacon in
            guard case .iBeacon(let iBeacon) = beacon.beacon else { return nil }
            let place = BeaconPlace(beacon, at: elapsed, site: site)
            let advertising = beacon.isAdvertising(at: elapsed, sceneDuration: scene.duration)
            let gateways = receivers.map { receiver in
                let mean = receiver.mean(measuredPower: beacon.beacon.measuredPower, at: place,
                                         wallLoss: receiver.wallLoss(from: place))
                return Gateway(distance: mean.distance, meanRSSI: mean.power,
                               isAudible: advertising && mean.power >= scene.receiver.sensitivity)
            }
            return SiteTruth(time: start + elapsed, elapsed: elapsed, beaconIndex: index, identity: iBeacon.identity,
                             address: beacon.address, isAdvertising: advertising, point: place.point, floor: place.floor,
                             room: site.room(containing: place.point, floor: place.floor).map { site.rooms[$0].name }, gateways: gateways)
        }
    }

    /// The row as one line of a ground-truth file (docs/simulate.md), without the newline: `gatewayNames`
    /// are the site's gateways' names in order.
    public func jsonLine(gatewayNames: [String]) -> String {
        var w = JSONWriter()
        w.object { o in
            o.field("time", time)
            o.field("elapsed", elapsed.seconds, decimals: 3)
            o.field("beacon", beaconIndex)
            o.field("id", BeaconID.iBeacon(identity).deviceID)
            o.field("uuid", identity.uuid.description)
            o.field("major", identity.major)
            o.field("minor", identity.minor)
            o.field("address", address.description)
            o.field("advertising", isAdvertising)
            o.field("x", point.x, decimals: 3)
            o.field("y", point.y, decimals: 3)
            o.field("floor", floor)
            o.key("room")
            if let room { o.string(room) } else { o.null() }
            o.field("gateways", object: { g in
                for (name, gateway) in zip(gatewayNames, gateways) {
                    g.key(escaping: name)
                    g.object { v in
                        v.field("distance", gateway.distance, decimals: 3)
                        v.field("meanRSSI", gateway.meanRSSI, decimals: 1)
                        v.field("audible", gateway.isAudible)
                    }
                }
            })
        }
        return w.text
    }
}
