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
}
