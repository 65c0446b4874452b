/// CoreLocation-style monitoring and ranging of beacon regions, driven only by its inputs.
///
/// Monitoring: every region starts `unknown`. The first matching sighting enters it (`enter`, then
/// `state inside`); no matching sighting for `exitAfter` exits it (`exit`, then `state outside`, at the
/// last sighting plus `exitAfter`). A region with no matching sighting within `exitAfter` of the start
/// becomes `outside` (`state outside` at the start plus `exitAfter`).
/// Ranging: while a region is inside, every `interval` from the start time it reports its beacons,
/// nearest first: those heard in the interval, and those heard within the estimator's tracking age
/// (listed with unknown proximity, as iOS lists a beacon it has just lost). A region that exits with
/// beacons heard since the last tick reports them first (`partialRange` at the exit's time), so a
/// visit shorter than `interval` is ranged too.
///
/// Per beacon (identity at one address; the identity alone when the estimator ignores addresses) the
/// estimator's pipeline runs: readings feed an RSSI filter, whose value at a tick gives the distance,
/// whose proximity class has hysteresis (its confirmations waived after an interval in which the beacon was
/// not heard).
/// A beacon's state lives until it has not been heard for the tracking age.
///
/// Time is an input: `start(at:)`, each sighting's time and `tick(now:)`. Outputs carry the
/// scheduled deadline times rather than the time a tick happened to run, so a capture replayed at
/// full speed prints exactly what the live run printed. Times that go backwards are treated as
/// the latest time seen; times outside `Timestamp.supportedRange` are clamped into it, so the deadline
/// arithmetic cannot wrap around (a capture can hold any 64-bit time).
///
/// A sighting of a beacon already tracked allocates nothing; memory is bounded by the beacons heard
/// within the tracking age, and by `maximumBeacons` (see `BeaconMemory`).
public struct RegionMonitor: Sendable {
    /// The monitored regions, in the order outputs for the same instant are emitted.
    public let regions: [BeaconRegion]
    /// Silence after which an inside region is exited.
    public let exitAfter: Micros
    /// Ranging period, anchored at the start time.
    public let interval: Micros
    public let estimator: RangingEstimator
    /// Beacons tracked at most; past it the least recently heard are evicted (`evictedBeacons`).
    public let maximumBeacons: Int
    /// Beacons forgotten before their tracking age because the table was full.
    public private(set) var evictedBeacons = 0

    private enum Phase {
        /// Not determined yet; becomes outside at `deadline` unless a matching beacon is heard first.
        case unknown(deadline: Timestamp)
        case inside(lastSeen: Timestamp)
        case outside

        /// When this phase ends by itself, if it does.
        func deadline(exitAfter: Micros) -> Timestamp? {
            switch self {
            case .unknown(let deadline): deadline
            case .inside(let lastSeen): lastSeen + exitAfter
            case .outside: nil
            }
        }
    }

    private struct TrackedBeacon {
        var filter: ConfiguredRSSIFilter
        /// The address heard last (the key's, unless the estimator ignores addresses).
        var address: DeviceAddress
        var proximity = ProximityState()
        var lastSeen: Timestamp
        var measuredPower: Int8 = 0
        var txPower: Int8?
        var addressType = AddressType.publicDevice
        var phy = PHY.le1M
        /// This interval's readings.
        var readings = IntervalSamples()

        @inline(__always)
        mutating func record(_ s: Sighting, at now: Timestamp) {
            lastSeen = now
            address = s.address
            measuredPower = s.measuredPower ?? 0
            if case .eddystone(let frame) = s.frame { txPower = frame.txPower }
            addressType = s.addressType
            phy = s.phy
            if let rssi = readings.record(s, at: now) { filter.add(Double(rssi), at: now) }
        }

        /// The entry a ranging tick lists: the beacon was heard in the interval or within the tracking age
        /// (nil otherwise). Starts the next interval either way.
        mutating func report(key: IdentityAtAddress, at time: Timestamp, estimator: RangingEstimator,
                             distance: inout PreparedDistanceModel, telemetry: EddystoneTLM?) -> RangedBeacon? {
            defer {
                readings.endInterval()
                filter.endInterval()
            }
            guard readings.samples > 0 || time - lastSeen <= estimator.trackingAge else { return nil }
            let calibration = estimator.measuredPower(advertised: measuredPower)
            // Only a reading in this interval gives a distance: a beacon not heard is listed as unknown.
            let filtered = readings.rssiCount > 0 ? filter.value(at: time) : nil
            var accuracy = -1.0
            if let filtered, let calibration {
                accuracy = distance.distance(rssi: filtered + estimator.rssiOffset, measuredPower: Double(calibration))
            }
            // Not heard for a whole interval, the beacon may have moved anywhere: confirmations measured
            // before the gap do not hold its class against what is measured after it.
            if readings.samples == 0 { proximity.missedInterval() }
            let classified = proximity.update(accuracy, estimator.proximity)
            var entry = RangedBeacon(
                identity: key.identity, rssi: readings.meanRSSI,
                filteredRSSI: filtered, measuredPower: measuredPower, measuredPowerValid: calibration != nil,
                accuracy: accuracy, proximity: classified, address: address, addressType: addressType,
                samples: readings.samples, lastSeen: lastSeen)
            entry.rssiSpread = readings.rssiSpread
            entry.phy = phy
            entry.txPower = txPower
            entry.telemetry = telemetry
            return entry
        }
    }

    /// The key address of every beacon when the estimator ignores addresses.
    private static let anyAddress = DeviceAddress(value: 0)

    /// The regions' first identifiers, for `mayMatch`.
    private let filter: RegionFilter
    /// Each region's constraint as masked words, by the same index as `regions`: what a sighting is matched with.
    private let patterns: [PackedConstraint]
    /// Whether a region was ever entered: some sighting matched.
    private var hasEntered = false
    private var distance: PreparedDistanceModel
    /// Telemetry is kept only when some region can range an Eddystone beacon.
    private let hasEddystoneRegion: Bool
    private var phases: [Phase]
    private var beacons: BeaconTable<TrackedBeacon>
    /// The latest Eddystone-TLM per address and when it was heard: an Eddystone beacon interleaves its
    /// UID frames with TLM frames from the same address, and its ranged entry carries the telemetry.
    private var telemetry: [DeviceAddress: (tlm: EddystoneTLM, time: Timestamp)] = [:]
    private var startTime: Timestamp?
    private var nextRangeTick = Timestamp(microseconds: 0)
    /// Latest time seen on any input; earlier times are clamped to it.
    private var latest = Timestamp(microseconds: 0)
    /// The earliest pending state change or ranging tick (`nextDeadline`), kept up to date whenever a
    /// phase or the ranging schedule changes rather than worked out per advertisement.
    private var pendingDeadline: Timestamp?

    /// - Parameters:
    ///   - regions: regions to monitor; outputs for one instant follow this order.
    ///   - exitAfter: silence after which an inside region is exited (AltBeacon's default is 10 s); must not be negative.
    ///   - interval: ranging period (CoreLocation's is 1 s); must be positive.
    ///   - estimator: turns readings into filtered RSSI, distance and proximity.
    ///   - maximumBeacons: beacons tracked at most.
    ///   - hashKey: keys the index of tracked beacons; random wherever strangers advertise (see `MultilinearHash`).
    public init(regions: [BeaconRegion], exitAfter: Micros = .seconds(10), interval: Micros = .seconds(1),
                estimator: RangingEstimator = RangingEstimator(), maximumBeacons: Int = BeaconMemory.maximumBeacons,
                hashKey: MultilinearHash) {
        precondition(maximumBeacons > 0, "maximumBeacons must be positive")
        precondition(interval.value > 0, "ranging interval must be positive")
        precondition(exitAfter.value >= 0, "exitAfter must not be negative")
        self.regions = regions
        self.exitAfter = exitAfter
        self.interval = interval
        self.estimator = estimator
        self.maximumBeacons = maximumBeacons
        distance = PreparedDistanceModel(estimator.distance)
        hasEddystoneRegion = regions.contains { $0.format == .eddystoneUID }
        filter = RegionFilter(regions)
        patterns = regions.map { PackedConstraint($0.constraint) }
        phases = Array(repeating: .outside, count: regions.count)
        beacons = BeaconTable(hash: hashKey)
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
        for i in regions.indices {
            phases[i] = .unknown(deadline: time + exitAfter)
            emit(.state(regions[i], .unknown, time))
        }
        pendingDeadline = earliestDeadline
    }

    /// Processes every deadline up to the sighting's time, then enters each matching region that
    /// is not inside and adds the advertisement to its beacon's readings. An Eddystone-TLM is kept as
    /// its address's telemetry; other frames without an identity match nothing.
    public mutating func sighting(_ s: Sighting, emit: (MonitorOutput) -> Void) {
        if startTime == nil { start(at: s.time, emit: emit) }
        let now = max(s.time.clampedToSupportedRange, latest)
        processDeadlines(upTo: now, emit: emit)
        guard let identity = PackedIdentity(s.frame) else {
            if case .eddystone(.tlm(let tlm)) = s.frame, hasEddystoneRegion { telemetry[s.address] = (tlm, now) }
            return
        }
        var matched = false
        var deadlineMoved = false
        for i in patterns.indices where patterns[i].matches(identity) {
            matched = true
            if case .inside(let lastSeen) = phases[i] {
                deadlineMoved = deadlineMoved || lastSeen + exitAfter == pendingDeadline
            } else {
                // Ranging ticks start (from the next one after now): they are deadlines now.
                if !anyInside { skipRangeTicks(past: now) }
                deadlineMoved = true
                hasEntered = true
                emit(.enter(regions[i], now))
                emit(.state(regions[i], .inside, now))
            }
            phases[i] = .inside(lastSeen: now)
        }
        if deadlineMoved { pendingDeadline = earliestDeadline }
        guard matched else { return }
        let key = IdentityAtAddress(identity, address: estimator.ignoresAddress ? Self.anyAddress : s.address)
        let index = beacons.index(of: key) {
            TrackedBeacon(filter: ConfiguredRSSIFilter(estimator.filter), address: s.address, lastSeen: now)
        }
        beacons.values[index].record(s, at: now)
        if beacons.count > maximumBeacons { evictLeastRecentlyHeard() }
    }

    @inline(never)
    private mutating func evictLeastRecentlyHeard() {
        let count = BeaconMemory.evictionCount(from: beacons.count)
        beacons.removeLeastRecent(count) { $0.lastSeen }
        evictedBeacons += count
    }

    /// Whether a sighting of `frame` may change anything once deadlines are processed: false when a
    /// region was entered and the frame can match none (`RangeSession` then makes no sighting of it).
    @inline(__always)
    public func mayMatch(_ frame: BeaconFrame) -> Bool {
        !hasEntered || filter.admits(frame)
    }

    /// Processes every deadline up to `now`, in time order: state changes, then ranging ticks when
    /// both fall on the same instant. Does nothing before `start(at:)`.
    public mutating func tick(now: Timestamp, emit: (MonitorOutput) -> Void) {
        guard startTime != nil else { return }
        processDeadlines(upTo: max(now.clampedToSupportedRange, latest), emit: emit)
    }

    /// The latest tick of the ranging schedule at or before the latest time handled, whether or not a
    /// region was inside to report it (ticks with nothing inside are skipped, not run); nil before the first.
    public var lastRangeTick: Timestamp? {
        guard let startTime, latest - startTime >= interval else { return nil }
        let ticks = (latest - startTime).value / interval.value
        return startTime + Micros(ticks &* interval.value)
    }

    /// The earliest pending state change or ranging tick; nil before start and while every region is
    /// outside (then nothing can happen until a sighting arrives).
    public var nextDeadline: Timestamp? { pendingDeadline }

    /// Beacons whose state is kept: those heard within the tracking age in a region that is inside.
    public var trackedBeaconCount: Int { beacons.count }

    // MARK: - Deadlines

    /// `nextDeadline` worked out from the phases and the ranging schedule.
    private var earliestDeadline: Timestamp? {
        guard startTime != nil, let change = earliestStateChange else { return nil }
        return anyInside ? min(change, nextRangeTick) : change
    }

    /// Looked up on every sighting, so it walks the phases without building anything.
    private var earliestStateChange: Timestamp? {
        var earliest: Timestamp?
        for phase in phases {
            if let deadline = phase.deadline(exitAfter: exitAfter), earliest.map({ deadline < $0 }) ?? true { earliest = deadline }
        }
        return earliest
    }

    private var anyInside: Bool {
        phases.contains { if case .inside = $0 { true } else { false } }
    }

    /// Runs on every advertisement, most often to find nothing due: that test is inlined, the work is not.
    @inline(__always)
    private mutating func processDeadlines(upTo now: Timestamp, emit: (MonitorOutput) -> Void) {
        latest = now
        guard let pending = pendingDeadline, now >= pending else { return }
        runDeadlines(upTo: now, emit: emit)
    }

    @inline(never)
    private mutating func runDeadlines(upTo now: Timestamp, emit: (MonitorOutput) -> Void) {
        defer { pendingDeadline = earliestDeadline }
        while true {
            let rangeTick: Timestamp? = anyInside ? nextRangeTick : nil
            // Nothing inside: ranging ticks would report nothing, so they are skipped.
            if rangeTick == nil { skipRangeTicks(past: now) }
            if let change = earliestStateChange, change <= now, rangeTick.map({ change <= $0 }) ?? true {
                changeStates(at: change, emit: emit)
            } else if let rangeTick, rangeTick <= now {
                self.rangeTick(emit: emit)
            } else {
                return
            }
        }
    }

    private mutating func changeStates(at deadline: Timestamp, emit: (MonitorOutput) -> Void) {
        var exited = false
        for i in regions.indices {
            switch phases[i] {
            case .unknown(let end) where end <= deadline:
                phases[i] = .outside
                emit(.state(regions[i], .outside, end))
            case .inside(let lastSeen) where lastSeen + exitAfter <= deadline:
                phases[i] = .outside
                reportUnranged(regions[i], at: lastSeen + exitAfter, emit: emit)
                emit(.exit(regions[i], lastSeen + exitAfter))
                emit(.state(regions[i], .outside, lastSeen + exitAfter))
                exited = true
            default:
                break
            }
        }
        if exited { forgetBeaconsOutside() }
    }

    /// A region exiting before the next tick (an `interval` longer than `exitAfter`, or the tick on the
    /// exit's instant) would take the beacons heard since the last tick out of every report: they are
    /// reported first, as a partial range at the exit's time. The beacons' own intervals carry on, for
    /// any other region that still ranges them.
    private mutating func reportUnranged(_ region: BeaconRegion, at time: Timestamp, emit: (MonitorOutput) -> Void) {
        var heard: [RangedBeacon] = []
        for index in beacons.keys.indices where beacons.values[index].readings.samples > 0 {
            let key = beacons.keys[index]
            guard region.matches(key.identity) else { continue }
            var beacon = beacons.values[index]
            if let entry = beacon.report(key: key, at: time, estimator: estimator, distance: &distance,
                                         telemetry: telemetry(of: key.identity, at: beacon.address, time)) {
                heard.append(entry)
            }
        }
        guard !heard.isEmpty else { return }
        Self.sortNearestFirst(&heard)
        emit(.partialRange(region, time, heard))
    }

    private mutating func rangeTick(emit: (MonitorOutput) -> Void) {
        let time = nextRangeTick
        let reports = endInterval(at: time)
        for i in regions.indices {
            guard case .inside = phases[i] else { continue }
            emit(.range(regions[i], time, Self.beacons(of: regions[i], in: reports)))
        }
        let cutoff = time + Micros(-estimator.trackingAge.value)
        if reports.count < beacons.count {
            beacons.removeAll { _, beacon in beacon.lastSeen < cutoff }
        }
        if !telemetry.isEmpty { telemetry = telemetry.filter { $0.value.time >= cutoff } }
        nextRangeTick = time + interval
    }

    /// Every beacon's entry at `time`, nearest first (those to list: heard in the interval or within the
    /// tracking age); every beacon starts a new interval.
    private mutating func endInterval(at time: Timestamp) -> [RangedBeacon] {
        var reports: [RangedBeacon] = []
        reports.reserveCapacity(beacons.count)
        for index in beacons.keys.indices {
            let key = beacons.keys[index]
            let tlm = telemetry(of: key.identity, at: beacons.values[index].address, time)
            if let report = beacons.values[index].report(key: key, at: time, estimator: estimator, distance: &distance,
                                                         telemetry: tlm) {
                reports.append(report)
            }
        }
        Self.sortNearestFirst(&reports)
        return reports
    }

    /// The latest telemetry of an Eddystone-UID beacon's address, when heard within the tracking age of `time`.
    private func telemetry(of identity: BeaconID, at address: DeviceAddress, _ time: Timestamp) -> EddystoneTLM? {
        guard case .eddystoneUID = identity, let latest = telemetry[address],
              time - latest.time <= estimator.trackingAge else { return nil }
        return latest.tlm
    }

    /// Sorts `reports` nearest first through a list of their indices, then moves each entry once into
    /// place, cycle by cycle: an entry is large, and a sort that moves entries moves each many times.
    /// `RangedBeacon.nearerFirst`'s order: the list is of plain integers, each an entry's distance (unknown
    /// ones last) as the bits of a number that is not negative, which order as the numbers do, with its
    /// lowest bits replaced by the entry's index. Each run of entries whose distances agree in the bits kept
    /// (equal distances are common: beacons not heard, equal readings) is then sorted by `nearerFirst`.
    private static func sortNearestFirst(_ reports: inout [RangedBeacon]) {
        guard reports.count > 1 else { return }
        let indexBits = Int.bitWidth - (reports.count - 1).leadingZeroBitCount
        let indexMask = UInt64(1) << indexBits - 1
        var keyed = reports.indices.map { i in
            let accuracy = reports[i].accuracy
            // +0 for both zeros; NaN and unknown (-1) as infinity.
            let distance = accuracy > 0 ? accuracy : accuracy == 0 ? 0 : Double.infinity
            return distance.bitPattern & ~indexMask | UInt64(i)
        }
        keyed.sort()
        var runStart = 0
        while runStart < keyed.count {
            let distance = keyed[runStart] & ~indexMask
            var runEnd = runStart + 1
            while runEnd < keyed.count, keyed[runEnd] & ~indexMask == distance { runEnd += 1 }
            if runEnd - runStart > 1 {
                reports.withUnsafeBufferPointer { entries in
                    keyed[runStart..<runEnd].sort { a, b in
                        RangedBeacon.nearerFirst(entries[Int(a & indexMask)], entries[Int(b & indexMask)])
                    }
                }
            }
            runStart = runEnd
        }
        // keyed[i]'s index is that of the entry that belongs at i; a position done points at itself.
        var order = keyed.map { Int($0 & indexMask) }
        for start in order.indices where order[start] != start {
            let first = reports[start]
            var at = start
            while order[at] != start {
                let from = order[at]
                reports[at] = reports[from]
                order[at] = at
                at = from
            }
            reports[at] = first
            order[at] = at
        }
    }

    /// The entries of `reports` that `region` ranges, in their order. Most often that is all of them (one
    /// region, or every tracked beacon in it): the list is then shared, not copied, which matters for
    /// memory when thousands of beacons are in range.
    private static func beacons(of region: BeaconRegion, in reports: [RangedBeacon]) -> [RangedBeacon] {
        reports.allSatisfy { region.matches($0.identity) } ? reports : reports.filter { region.matches($0.identity) }
    }

    private mutating func skipRangeTicks(past now: Timestamp) {
        guard nextRangeTick <= now else { return }
        let behind = (now - nextRangeTick).value / interval.value + 1
        nextRangeTick = nextRangeTick + Micros(behind &* interval.value)
    }

    // MARK: - Forgetting

    /// Drops the beacons that match no inside region: nothing will report them.
    private mutating func forgetBeaconsOutside() {
        let inside = regions.indices.compactMap { i -> BeaconRegion? in
            if case .inside = phases[i] { regions[i] } else { nil }
        }
        beacons.removeAll { key, _ in !inside.contains { $0.matches(key.identity) } }
    }

    /// Ends the run at `now` (a replayed capture ran out): processes every deadline up to `now`, then
    /// reports each inside region's beacons heard since the last tick as a `.partialRange`, so nothing
    /// heard is lost. A region with nothing heard in the partial interval prints nothing.
    public mutating func finish(at now: Timestamp, emit: (MonitorOutput) -> Void) {
        guard startTime != nil else { return }
        let now = max(now.clampedToSupportedRange, latest)
        processDeadlines(upTo: now, emit: emit)
        // Filtered in place: a second list of thousands of entries would raise the peak memory of the run.
        var heard = endInterval(at: now)
        heard.removeAll { $0.samples == 0 }
        for i in regions.indices {
            guard case .inside = phases[i] else { continue }
            let list = Self.beacons(of: regions[i], in: heard)
            if !list.isEmpty { emit(.partialRange(regions[i], now, list)) }
        }
    }
}
