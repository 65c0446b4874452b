/// CoreLocation-style monitoring and ranging of beacon regions, driven only by its inputs.
///
/// Monitoring: a region is entered on the first matching sighting and exited when no matching
/// sighting has arrived for `exitAfter` (the exit time is the last sighting plus `exitAfter`).
/// Ranging: while a region is inside, every `interval` from the start time it reports the beacons
/// heard since the previous tick, nearest first (an empty list when none were heard).
///
/// Time is an input: `start(at:)`, each sighting's time and `tick(now:)`. Outputs carry the
/// scheduled deadline times rather than the time a tick happened to run, so a capture replayed at
/// full speed prints exactly what the live run printed. Times that go backwards are treated as
/// the latest time seen; times outside `Timestamp.supportedRange` are clamped into it, so the deadline
/// arithmetic cannot wrap around (a capture can hold any 64-bit time).
///
/// Memory is bounded by the beacons heard within one interval: the per-interval accumulators are
/// emptied at every tick and nothing is kept per beacon beyond that. A sighting allocates nothing
/// once the accumulators have grown to the busiest interval's size.
public struct RegionMonitor: Sendable {
    /// The monitored regions, in the order outputs for the same instant are emitted.
    public let regions: [BeaconRegion]
    /// Silence after which an inside region is exited.
    public let exitAfter: Micros
    /// Ranging period, anchored at the start time.
    public let interval: Micros
    public let model: DistanceModel

    private enum Phase {
        case unknown
        case inside(lastSeen: Timestamp)
        case outside
    }

    /// One beacon (identity at one address) within one region during the current interval.
    private struct BeaconKey: Hashable {
        var identity: BeaconIdentity
        var address: DeviceAddress
    }

    private struct Accumulator {
        var rssiSum: Int = 0
        var rssiCount: Int = 0
        var samples: Int = 0
        var measuredPower: Int8 = 0
        var addressType: AddressType = .publicDevice

        mutating func add(_ s: Sighting) {
            samples += 1
            if let rssi = s.rssi {
                rssiSum += Int(rssi)
                rssiCount += 1
            }
            measuredPower = s.measuredPower
            addressType = s.addressType
        }
    }

    /// Initial accumulator capacity. A table grown beyond 16 times this is shrunk at a tick when the
    /// interval filled less than an eighth of it, so one burst does not pin memory for the rest of the run.
    private static let baseCapacity = 64

    private var phases: [Phase]
    private var accumulators: [[BeaconKey: Accumulator]]
    private var startTime: Timestamp?
    private var nextRangeTick = Timestamp(microseconds: 0)
    /// Latest time seen on any input; earlier times are clamped to it.
    private var latest = Timestamp(microseconds: 0)

    /// - Parameters:
    ///   - regions: regions to monitor; outputs for one instant follow this order.
    ///   - exitAfter: silence after which an inside region is exited (AltBeacon's default is 10 s); must not be negative.
    ///   - interval: ranging period (CoreLocation's is 1 s); must be positive.
    ///   - model: turns mean RSSI into accuracy and proximity.
    public init(regions: [BeaconRegion], exitAfter: Micros = .seconds(10), interval: Micros = .seconds(1),
                model: DistanceModel = DistanceModel()) {
        precondition(interval.value > 0, "ranging interval must be positive")
        precondition(exitAfter.value >= 0, "exitAfter must not be negative")
        self.regions = regions
        self.exitAfter = exitAfter
        self.interval = interval
        self.model = model
        phases = Array(repeating: .unknown, count: regions.count)
        accumulators = (0..<regions.count).map { _ in Dictionary(minimumCapacity: Self.baseCapacity) }
    }

    /// Anchors the ranging schedule at `time` (ticks at `time + k * interval`, k ≥ 1) and reports
    /// every region as `.unknown`, in the order given. Later calls are ignored. A sighting that
    /// arrives before any call starts the monitor at its own time.
    public mutating func start(at time: Timestamp, emit: (MonitorOutput) -> Void) {
        guard startTime == nil else { return }
        let time = time.clampedToSupportedRange
        startTime = time
        latest = time
        nextRangeTick = time + interval
        for region in regions {
            emit(.state(region, .unknown, time))
        }
    }

    /// Processes every deadline up to the sighting's time, then enters each matching region that
    /// is not inside and adds the advertisement to that region's interval accumulator.
    public mutating func sighting(_ s: Sighting, emit: (MonitorOutput) -> Void) {
        if startTime == nil { start(at: s.time, emit: emit) }
        let now = max(s.time.clampedToSupportedRange, latest)
        processDeadlines(upTo: now, emit: emit)
        let key = BeaconKey(identity: s.identity, address: s.address)
        for i in regions.indices where regions[i].matches(s.identity) {
            if case .inside = phases[i] {} else { emit(.enter(regions[i], now)) }
            phases[i] = .inside(lastSeen: now)
            accumulators[i][key, default: Accumulator()].add(s)
        }
    }

    /// Processes every deadline up to `now`, in time order: exits, then ranging ticks when both
    /// fall on the same instant. Does nothing before `start(at:)`.
    public mutating func tick(now: Timestamp, emit: (MonitorOutput) -> Void) {
        guard startTime != nil else { return }
        processDeadlines(upTo: max(now.clampedToSupportedRange, latest), emit: emit)
    }

    /// The earliest pending exit or ranging tick; nil before start and while no region is inside
    /// (then nothing can happen until a sighting arrives).
    public var nextDeadline: Timestamp? {
        guard startTime != nil, let exit = earliestExit else { return nil }
        return min(exit, nextRangeTick)
    }

    /// The current state of `region` (`.unknown` for a region that is not monitored).
    public func state(of region: BeaconRegion) -> RegionState {
        guard let i = regions.firstIndex(of: region) else { return .unknown }
        switch phases[i] {
        case .unknown: return .unknown
        case .inside: return .inside
        case .outside: return .outside
        }
    }

    /// Beacon accumulators currently held across all regions: at most the beacons heard since the
    /// last ranging tick, 0 right after a tick.
    public var trackedBeaconCount: Int {
        accumulators.reduce(0) { $0 + $1.count }
    }

    // MARK: - Deadlines

    private var earliestExit: Timestamp? {
        var earliest: Timestamp?
        for phase in phases {
            if case .inside(let lastSeen) = phase {
                let deadline = lastSeen + exitAfter
                if earliest.map({ deadline < $0 }) ?? true { earliest = deadline }
            }
        }
        return earliest
    }

    private mutating func processDeadlines(upTo now: Timestamp, emit: (MonitorOutput) -> Void) {
        latest = now
        while true {
            guard let exit = earliestExit else {
                // Nothing inside: ranging ticks would report nothing, so skip to the first one after now.
                skipRangeTicks(past: now)
                return
            }
            if exit <= nextRangeTick, exit <= now {
                exitRegions(at: exit, emit: emit)
            } else if nextRangeTick <= now {
                rangeTick(emit: emit)
            } else {
                return
            }
        }
    }

    private mutating func exitRegions(at deadline: Timestamp, emit: (MonitorOutput) -> Void) {
        for i in regions.indices {
            guard case .inside(let lastSeen) = phases[i], lastSeen + exitAfter <= deadline else { continue }
            phases[i] = .outside
            emit(.exit(regions[i], lastSeen + exitAfter))
            clearAccumulator(i)
        }
    }

    private mutating func rangeTick(emit: (MonitorOutput) -> Void) {
        let time = nextRangeTick
        for i in regions.indices {
            if case .inside = phases[i] {
                emit(.range(regions[i], time, rangedBeacons(i)))
            }
            clearAccumulator(i)
        }
        nextRangeTick = time + interval
    }

    private mutating func skipRangeTicks(past now: Timestamp) {
        guard nextRangeTick <= now else { return }
        let behind = (now - nextRangeTick).value / interval.value + 1
        nextRangeTick = nextRangeTick + Micros(behind &* interval.value)
    }

    private func rangedBeacons(_ i: Int) -> [RangedBeacon] {
        var beacons: [RangedBeacon] = []
        beacons.reserveCapacity(accumulators[i].count)
        for (key, acc) in accumulators[i] {
            let rssi = acc.rssiCount > 0 ? Double(acc.rssiSum) / Double(acc.rssiCount) : 0
            let accuracy = acc.rssiCount > 0 ? model.accuracy(meanRSSI: rssi, measuredPower: acc.measuredPower) : -1
            beacons.append(RangedBeacon(identity: key.identity, rssi: rssi, measuredPower: acc.measuredPower,
                                        accuracy: accuracy, proximity: model.proximity(accuracy: accuracy),
                                        address: key.address, addressType: acc.addressType, samples: acc.samples))
        }
        beacons.sort(by: RangedBeacon.nearerFirst)
        return beacons
    }

    /// Empties one region's accumulator, keeping its storage unless the interval used only a
    /// small part of a large table.
    private mutating func clearAccumulator(_ i: Int) {
        let used = accumulators[i].count
        let capacity = accumulators[i].capacity
        if capacity > 16 * Self.baseCapacity, used < capacity / 8 {
            accumulators[i] = Dictionary(minimumCapacity: max(used * 2, Self.baseCapacity))
        } else if used > 0 {
            accumulators[i].removeAll(keepingCapacity: true)
        }
    }

    /// Ends the run at `now` (a replayed capture ran out): processes every deadline up to `now`, then
    /// reports each inside region's beacons heard since the last tick as a `.partialRange`, so nothing
    /// heard is lost. A region with nothing heard in the partial interval prints nothing.
    public mutating func finish(at now: Timestamp, emit: (MonitorOutput) -> Void) {
        guard startTime != nil else { return }
        let now = max(now.clampedToSupportedRange, latest)
        processDeadlines(upTo: now, emit: emit)
        for i in regions.indices where !accumulators[i].isEmpty {
            if case .inside = phases[i] { emit(.partialRange(regions[i], now, rangedBeacons(i))) }
            clearAccumulator(i)
        }
    }
}
