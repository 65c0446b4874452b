import BeaconCore

/// What was really so for one beacon at one tick of a simulation: the row a ranger's output is judged
/// against. A beacon is in a region while the region matches it and it is audible: advertising, with a
/// mean received power at its true distance (path loss alone: no shadowing, fading, blocking or
/// loss) at or above the receiver's sensitivity. A region is inside while any beacon is in it.
public struct GroundTruth: Hashable, Sendable {
    /// The tick: start of the capture + k × tick.
    public var time: Timestamp
    /// Time since the start of the scene.
    public var elapsed: Micros
    /// The beacon's place in `Scene.beacons`.
    public var beaconIndex: Int
    /// What the beacon advertises: its format, identity and measured power.
    public var beacon: AdvertisedBeacon
    public var address: DeviceAddress
    /// True distance from the receiver, metres.
    public var distance: Double
    /// Between the beacon's start and stop.
    public var isAdvertising: Bool
    /// Mean received power at `distance` (dBm): measured power − 10 n log10(distance).
    public var meanRSSI: Double
    /// Advertising, and `meanRSSI` at or above the receiver's sensitivity.
    public var isAudible: Bool
    /// For each region of the scene, in `Scene.regions` order: whether this beacon is in it at `time`
    /// (the region matches the beacon, and the beacon is audible).
    public var regionsInside: [Bool]

    public init(time: Timestamp, elapsed: Micros, beaconIndex: Int, beacon: AdvertisedBeacon, address: DeviceAddress,
                distance: Double, isAdvertising: Bool, meanRSSI: Double, isAudible: Bool, regionsInside: [Bool]) {
        self.time = time
        self.elapsed = elapsed
        self.beaconIndex = beaconIndex
        self.beacon = beacon
        self.address = address
        self.distance = distance
        self.isAdvertising = isAdvertising
        self.meanRSSI = meanRSSI
        self.isAudible = isAudible
        self.regionsInside = regionsInside
    }

    /// The identity a region can name; nil for an Eddystone-URL beacon, which is in no region.
    public var identity: BeaconID? { beacon.identity }

    /// The rows of every beacon of `scene` at `elapsed` after its start.
    static func rows(_ scene: Scene, at elapsed: Micros, start: Timestamp) -> [GroundTruth] {
        let beacons = scene.beacons.map { beacon -> (distance: Double, advertising: Bool, mean: Double, audible: Bool) in
            let distance = beacon.path.distance(at: elapsed)
            let advertising = beacon.isAdvertising(at: elapsed, sceneDuration: scene.duration)
            let mean = scene.radio.meanRSSI(measuredPower: beacon.beacon.measuredPower, distance: distance)
            return (distance, advertising, mean, advertising && mean >= scene.receiver.sensitivity)
        }
        return zip(scene.beacons, beacons).enumerated().map { index, pair in
            let identity = pair.0.beacon.identity
            let inside = scene.regions.map { region in pair.1.audible && identity.map(region.region.matches) == true }
            return GroundTruth(time: start + elapsed, elapsed: elapsed, beaconIndex: index, beacon: pair.0.beacon,
                               address: pair.0.address, distance: pair.1.distance, isAdvertising: pair.1.advertising,
                               meanRSSI: pair.1.mean, isAudible: pair.1.audible, regionsInside: inside)
        }
    }

    /// The row as one line of a ground-truth file (docs/simulate.md), without the newline: `regions`
    /// names the scene's regions in order.
    public func jsonLine(regions: [NamedRegion]) -> String {
        var w = JSONWriter()
        w.object { o in
            o.field("time", time)
            o.field("elapsed", elapsed.seconds, decimals: 3)
            o.field("beacon", beaconIndex)
            // An iBeacon's row has no format member, as a ranged iBeacon's entry has none.
            if beacon.format != .iBeacon { o.field("format", beacon.format.rawValue) }
            if let identity {
                OutputLine.write(identity, to: &o)
            } else if case .eddystone(let payload) = beacon, case .url(let url) = payload.frame {
                o.field("url", url.description)
            }
            o.field("address", address.description)
            o.field("distance", distance, decimals: 3)
            o.field("advertising", isAdvertising)
            o.field("meanRSSI", meanRSSI, decimals: 1)
            o.field("audible", isAudible)
            o.field("regions", object: { r in
                for (region, inside) in zip(regions, regionsInside) { r.key(escaping: region.name); r.bool(inside) }
            })
        }
        return w.text
    }
}
