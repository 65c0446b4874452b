/// What the region monitor reports; each case becomes one JSON line (see `OutputLine`).
public enum MonitorOutput: Hashable, Sendable {
    /// The region's state was determined (at start: `.unknown` for every region).
    case state(BeaconRegion, RegionState, Timestamp)
    /// The first matching advertisement after being unknown or outside.
    case enter(BeaconRegion, Timestamp)
    /// No matching advertisement for `exitAfter`; the time is the last sighting plus `exitAfter`.
    case exit(BeaconRegion, Timestamp)
    /// A ranging tick while inside: the beacons heard since the previous tick, nearest first.
    case range(BeaconRegion, Timestamp, [RangedBeacon])
    /// The end of a replayed capture cut the last interval short: the beacons heard since the previous tick.
    case partialRange(BeaconRegion, Timestamp, [RangedBeacon])
}

extension MonitorOutput {
    /// The same output with its time moved by `offset` (schedule time to wall-clock time).
    public func shifted(by offset: Micros) -> MonitorOutput {
        switch self {
        case let .state(region, state, time): .state(region, state, time + offset)
        case let .enter(region, time): .enter(region, time + offset)
        case let .exit(region, time): .exit(region, time + offset)
        case let .range(region, time, beacons): .range(region, time + offset, beacons)
        case let .partialRange(region, time, beacons): .partialRange(region, time + offset, beacons)
        }
    }
}
