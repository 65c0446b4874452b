/// One beacon as `beacon scan` reports it for an interval: the latest frame heard from one beacon
/// (an identity at one address; for the frames without an identity, the format at one address) and
/// the interval's readings.
public struct ScannedBeacon: Hashable, Sendable {
    /// The latest frame heard in the interval.
    public var frame: BeaconFrame
    public var address: DeviceAddress
    public var addressType: AddressType
    /// The primary PHY of the latest advertisement heard in the interval.
    public var phy: PHY
    /// Mean of the interval's RSSI readings (dBm); nil when none had one.
    public var rssi: Double?
    /// Advertisements heard in the interval (a scan response of the same event is not a second one).
    public var samples: Int
    /// When the beacon was first heard: in this run, or since a silence longer than `ScanAggregator.forgetAfter`.
    public var firstSeen: Timestamp
    public var lastSeen: Timestamp
    /// The latest unencrypted Eddystone-TLM heard in the interval from the same address (Eddystone frames only).
    public var telemetry: EddystoneTLM?

    public init(frame: BeaconFrame, address: DeviceAddress, addressType: AddressType, rssi: Double?, samples: Int,
                firstSeen: Timestamp, lastSeen: Timestamp, telemetry: EddystoneTLM? = nil, phy: PHY = .le1M) {
        self.frame = frame
        self.address = address
        self.addressType = addressType
        self.phy = phy
        self.rssi = rssi
        self.samples = samples
        self.firstSeen = firstSeen
        self.lastSeen = lastSeen
        self.telemetry = telemetry
    }
}

/// What `beacon scan` prints; each case becomes one JSON line (see `ScanLine`).
public enum ScanOutput: Hashable, Sendable {
    /// Every `--interval`, one per beacon heard in the interval.
    case beacon(ScannedBeacon, time: Timestamp, partial: Bool)
    /// With `--each`, one per advertisement.
    case advertisement(Sighting)

    public var time: Timestamp {
        switch self {
        case .beacon(_, let time, _): time
        case .advertisement(let sighting): sighting.time
        }
    }

    /// The same output with its times (and the beacon's `firstSeen` and `lastSeen`) turned from schedule
    /// time to wall-clock time by `wallTime`, which gives each the clock in effect at that time.
    public func onWallClock(_ wallTime: (Timestamp) -> Timestamp) -> ScanOutput {
        switch self {
        case .beacon(var beacon, let time, let partial):
            beacon.firstSeen = wallTime(beacon.firstSeen)
            beacon.lastSeen = wallTime(beacon.lastSeen)
            return .beacon(beacon, time: wallTime(time), partial: partial)
        case .advertisement(var sighting):
            sighting.time = wallTime(sighting.time)
            return .advertisement(sighting)
        }
    }
}

/// `beacon scan`'s state: every beacon of every format heard, summarised once per interval, or each
/// advertisement as it comes. Time is an input, as in `RegionMonitor`: ticks fall at the start time
/// plus whole intervals, and outputs carry those scheduled times, so a replay prints what the live run
/// printed. A sighting of a beacon already known allocates nothing; memory is bounded by the beacons
/// heard within `forgetAfter`, and by `maximumBeacons` (see `BeaconMemory`).
public struct ScanAggregator: Sendable {
    public let interval: Micros
    /// One line per advertisement instead of one per beacon per interval.
    public let each: Bool
    /// Beacons remembered at most; past it the least recently heard are evicted (`evictedBeacons`).
    public let maximumBeacons: Int
    /// Beacons forgotten before `forgetAfter` because the table was full.
    public private(set) var evictedBeacons = 0

    /// A beacon not heard for this long is forgotten: heard again, its `firstSeen` starts anew.
    public static let forgetAfter = Micros.seconds(60)

    private struct Key: Hashable, Comparable {
        var format: BeaconFormat
        /// Nil for the frames without an identity (one beacon per format and address).
        var identity: BeaconID?
        var address: DeviceAddress

        static func < (a: Key, b: Key) -> Bool {
            if a.format != b.format { return a.format < b.format }
            switch (a.identity, b.identity) {
            case let (x?, y?) where x != y: return x < y
            default: return a.address.value < b.address.value
            }
        }
    }

    private struct Entry {
        var frame: BeaconFrame
        var addressType: AddressType
        var phy: PHY
        var firstSeen: Timestamp
        var lastSeen: Timestamp
        var readings = IntervalSamples()

        mutating func record(_ s: Sighting, at now: Timestamp) {
            frame = s.frame
            addressType = s.addressType
            phy = s.phy
            lastSeen = now
            _ = readings.record(s, at: now)
        }
    }

    private var entries: [Key: Entry] = Dictionary(minimumCapacity: 64)
    private var startTime: Timestamp?
    private var nextTick = Timestamp(microseconds: 0)
    private var latest = Timestamp(microseconds: 0)

    public init(interval: Micros = .seconds(1), each: Bool = false, maximumBeacons: Int = BeaconMemory.maximumBeacons) {
        precondition(interval.value > 0, "scan interval must be positive")
        precondition(maximumBeacons > 0, "maximumBeacons must be positive")
        self.interval = interval
        self.each = each
        self.maximumBeacons = maximumBeacons
    }

    /// Anchors the schedule at `time`; later calls are ignored.
    public mutating func start(at time: Timestamp) {
        guard startTime == nil else { return }
        let time = time.clampedToSupportedRange
        startTime = time
        latest = time
        nextTick = time + interval
    }

    /// Adds one sighting (after the ticks due before it).
    public mutating func sighting(_ s: Sighting, emit: (ScanOutput) -> Void) {
        if startTime == nil { start(at: s.time) }
        let now = max(s.time.clampedToSupportedRange, latest)
        if each {
            latest = now
            var sighting = s
            sighting.time = now
            emit(.advertisement(sighting))
            return
        }
        tick(now: now, emit: emit)
        let key = Key(format: s.format, identity: s.identity, address: s.address)
        entries[key, default: Entry(frame: s.frame, addressType: s.addressType, phy: s.phy, firstSeen: now, lastSeen: now)].record(s, at: now)
        if entries.count > maximumBeacons { evictLeastRecentlyHeard() }
    }

    @inline(never)
    private mutating func evictLeastRecentlyHeard() {
        let count = BeaconMemory.evictionCount(from: entries.count)
        // The latest time among the `count` least recent; of the beacons last heard then, the first by
        // key go, so a replay evicts the same ones whatever the dictionary's order.
        let threshold = entries.values.map(\.lastSeen).sorted()[count - 1]
        var evicted: [Key] = []
        var tied: [Key] = []
        for (key, entry) in entries {
            if entry.lastSeen < threshold { evicted.append(key) } else if entry.lastSeen == threshold { tied.append(key) }
        }
        evicted += tied.sorted().prefix(count - evicted.count)
        for key in evicted { entries.removeValue(forKey: key) }
        evictedBeacons += count
    }

    /// The next interval's end; nil before start and with `each`.
    public var nextDeadline: Timestamp? {
        guard startTime != nil, !each else { return nil }
        return nextTick
    }

    /// Prints every interval that ended by `now`.
    public mutating func tick(now: Timestamp, emit: (ScanOutput) -> Void) {
        guard startTime != nil, !each else { return }
        let now = max(now.clampedToSupportedRange, latest)
        latest = now
        guard nextTick <= now else { return }
        report(at: nextTick, partial: false, emit: emit)
        // The intervals that ended after it, up to now, heard nothing (no sighting came in between):
        // they print nothing, however many there are.
        let lastTick = nextTick + Micros(((now - nextTick).value / interval.value) &* interval.value)
        forget(before: lastTick + Micros(-Self.forgetAfter.value))
        nextTick = lastTick + interval
    }

    /// Ends a replay at `now`: the ticks up to then, then the beacons heard since the last one, marked partial.
    public mutating func finish(at now: Timestamp, emit: (ScanOutput) -> Void) {
        guard startTime != nil else { return }
        tick(now: now, emit: emit)
        report(at: max(now.clampedToSupportedRange, latest), partial: true, emit: emit)
    }

    /// One line per beacon heard in the interval, ordered by format, identity and address; an
    /// Eddystone-TLM rides on the other Eddystone frames of its address, and is listed on its own only
    /// when there are none.
    private mutating func report(at time: Timestamp, partial: Bool, emit: (ScanOutput) -> Void) {
        var heard = entries.filter { $0.value.readings.samples > 0 }.sorted { $0.key < $1.key }
        guard !heard.isEmpty else { return }
        var telemetry: [DeviceAddress: EddystoneTLM] = [:]
        for (key, entry) in heard where key.format == .eddystoneTLM {
            if case .eddystone(.tlm(let tlm)) = entry.frame { telemetry[key.address] = tlm }
        }
        var carried: Set<DeviceAddress> = []
        if !telemetry.isEmpty {
            for (key, _) in heard where Self.carriesTelemetry(key.format) && telemetry[key.address] != nil {
                carried.insert(key.address)
            }
            heard.removeAll { $0.key.format == .eddystoneTLM && carried.contains($0.key.address) }
        }
        for (key, entry) in heard {
            var beacon = ScannedBeacon(frame: entry.frame, address: key.address, addressType: entry.addressType,
                                       rssi: entry.readings.meanRSSI, samples: entry.readings.samples, firstSeen: entry.firstSeen, lastSeen: entry.lastSeen,
                                       phy: entry.phy)
            if Self.carriesTelemetry(key.format) { beacon.telemetry = telemetry[key.address] }
            emit(.beacon(beacon, time: time, partial: partial))
        }
        // Every beacon starts a new interval, in place.
        var index = entries.values.startIndex
        while index != entries.values.endIndex {
            entries.values[index].readings.endInterval()
            entries.values.formIndex(after: &index)
        }
    }

    /// The Eddystone frames a TLM of the same address is attached to.
    private static func carriesTelemetry(_ format: BeaconFormat) -> Bool {
        format == .eddystoneUID || format == .eddystoneURL || format == .eddystoneEID
    }

    private mutating func forget(before cutoff: Timestamp) {
        let stale = entries.compactMap { $0.value.lastSeen < cutoff ? $0.key : nil }
        for key in stale { entries.removeValue(forKey: key) }
    }

    /// Beacons remembered (heard within `forgetAfter`).
    public var beaconCount: Int { entries.count }
}
