import BeaconCore

/// Shared values for the monitor and output tests.
enum Fixture {
    /// 2026-11-29T12:00:00.000Z.
    static let t0 = Timestamp(microseconds: 1_795_953_600_000_000)
    static let uuid = BeaconUUID(high: 0xE2C5_6DB5_DFFB_48D2, low: 0xB060_D0F5_A710_96E0)
    static let otherUUID = BeaconUUID(high: 0x0011_2233_4455_6677, low: 0x8899_AABB_CCDD_EEFF)
    static let address1 = DeviceAddress(value: 0xF0F1_F2F3_F401)
    static let address2 = DeviceAddress(value: 0xF0F1_F2F3_F402)

    static func at(ms: Int64) -> Timestamp { t0 + .milliseconds(ms) }

    static func sighting(uuid: BeaconUUID = uuid, major: UInt16 = 1, minor: UInt16 = 2, rssi: Int8? = -59,
                         measuredPower: Int8 = -59, address: DeviceAddress = address1,
                         addressType: AddressType = .publicDevice, ms: Int64) -> Sighting {
        Sighting(identity: IBeaconID(uuid: uuid, major: major, minor: minor), measuredPower: measuredPower,
                 rssi: rssi, address: address, addressType: addressType, time: at(ms: ms))
    }

    /// The beacon heard all through `flood`.
    static let steadyIdentity = BeaconID.iBeacon(IBeaconID(uuid: uuid, major: 9_999, minor: 1))

    /// A new identity every millisecond for `count` ms, and the steady beacon every 10 ms among them:
    /// `count + count / 10` sightings of `count + 1` beacons.
    static func flood(_ count: Int) -> [Sighting] {
        var sightings: [Sighting] = []
        for n in 0..<count {
            sightings.append(sighting(major: UInt16(n), minor: 0, ms: Int64(n)))
            if n % 10 == 0 { sightings.append(sighting(major: 9_999, minor: 1, ms: Int64(n))) }
        }
        return sightings
    }
}

/// Drives a `RegionMonitor` and keeps what it emitted.
struct MonitorHarness {
    var monitor: RegionMonitor
    var outputs: [MonitorOutput] = []

    init(_ regions: [BeaconRegion], exitAfter: Micros = .seconds(10), interval: Micros = .seconds(1),
         estimator: RangingEstimator = RangingEstimator(), startMs: Int64? = 0) {
        monitor = RegionMonitor(regions: regions, exitAfter: exitAfter, interval: interval, estimator: estimator,
                                hashKey: MultilinearHash(seed: 0))
        if let startMs {
            monitor.start(at: Fixture.at(ms: startMs)) { outputs.append($0) }
        }
    }

    /// Runs `body` and returns only what it emitted.
    @discardableResult
    mutating func sighting(_ s: Sighting) -> [MonitorOutput] {
        var new: [MonitorOutput] = []
        monitor.sighting(s) { new.append($0) }
        outputs += new
        return new
    }

    /// A region's state as the monitor last reported it: every change of state is a state line.
    func state(of region: BeaconRegion) -> RegionState {
        for case let .state(reported, state, _) in outputs.reversed() where reported == region { return state }
        return .unknown
    }

    @discardableResult
    mutating func tick(ms: Int64) -> [MonitorOutput] {
        var new: [MonitorOutput] = []
        monitor.tick(now: Fixture.at(ms: ms)) { new.append($0) }
        outputs += new
        return new
    }
}

extension MonitorOutput {
    var kind: String {
        switch self {
        case .state: "state"
        case .enter: "enter"
        case .exit: "exit"
        case .range: "range"
        case .partialRange: "partial"
        }
    }

    var time: Timestamp {
        switch self {
        case .state(_, _, let t), .enter(_, let t), .exit(_, let t), .range(_, let t, _), .partialRange(_, let t, _): t
        }
    }

    var region: BeaconRegion {
        switch self {
        case .state(let r, _, _), .enter(let r, _), .exit(let r, _), .range(let r, _, _), .partialRange(let r, _, _): r
        }
    }

    var beacons: [RangedBeacon]? {
        switch self {
        case .range(_, _, let b), .partialRange(_, _, let b): b
        default: nil
        }
    }
}
