/// What the region monitor reports; each case becomes one JSON line (see `OutputLine`).
public enum MonitorOutput: Hashable, Sendable {
    /// The region's state was determined: `.unknown` for every region at start, `.inside` after each
    /// enter, `.outside` after each exit and for a region not heard within `exitAfter` of the start.
    case state(BeaconRegion, RegionState, Timestamp)
    /// The first matching advertisement after being unknown or outside.
    case enter(BeaconRegion, Timestamp)
    /// No matching advertisement for `exitAfter`; the time is the last sighting plus `exitAfter`.
    case exit(BeaconRegion, Timestamp)
    /// A ranging tick while inside: the beacons heard since the previous tick or within the tracking age, nearest first.
    case range(BeaconRegion, Timestamp, [RangedBeacon])
    /// An interval cut short, by an exit (just before the `exit`) or by the end of a replayed capture:
    /// the beacons heard since the previous tick.
    case partialRange(BeaconRegion, Timestamp, [RangedBeacon])
}

extension MonitorOutput {
    /// When the line happened.
    public var time: Timestamp {
        switch self {
        case let .state(_, _, time), let .enter(_, time), let .exit(_, time), let .range(_, time, _), let .partialRange(_, time, _): time
        }
    }

    /// The same output with its times (the line's and each beacon's `lastSeen`) turned from schedule
    /// time to wall-clock time by `wallTime`, which gives each the clock in effect at that time.
    public func onWallClock(_ wallTime: (Timestamp) -> Timestamp) -> MonitorOutput {
        func printed(_ beacons: [RangedBeacon]) -> [RangedBeacon] {
            beacons.map { beacon in
                var moved = beacon
                moved.lastSeen = wallTime(beacon.lastSeen)
                return moved
            }
        }
        switch self {
        case let .state(region, state, time): return .state(region, state, wallTime(time))
        case let .enter(region, time): return .enter(region, wallTime(time))
        case let .exit(region, time): return .exit(region, wallTime(time))
        case let .range(region, time, beacons): return .range(region, wallTime(time), printed(beacons))
        case let .partialRange(region, time, beacons): return .partialRange(region, wallTime(time), printed(beacons))
        }
    }
}
