/// Turns the packets of a scanning session into monitoring and ranging output. Live runs and
/// capture replays feed it the same packets (sent and received) with the same timestamps, so both
/// print the same lines.
///
/// Monitoring starts at the anchor (see `SightingFeed`); ranging ticks and `--duration` are counted
/// from it.
public struct RangeSession {
    public private(set) var monitor: RegionMonitor
    private var feed: SightingFeed
    /// Whether `heard` still wants sightings: false once it said it has had enough.
    private var tellsHeard = true

    public init(monitor: RegionMonitor, duration: Micros?) {
        self.monitor = monitor
        feed = SightingFeed(duration: duration)
    }

    public var duration: Micros? { feed.duration }
    public var anchor: Timestamp? { feed.anchor }
    /// Packets whose bytes could not be decoded; skipped, never fatal.
    public var malformedPackets: Int { feed.malformedPackets }
    /// Beacons forgotten early because the monitor's table was full.
    public var evictedBeacons: Int { monitor.evictedBeacons }
    /// The latest ranging tick passed (schedule time), whether or not a region was inside.
    public var lastTick: Timestamp? { monitor.lastRangeTick }
    /// When the session ends by itself (`--duration` after the anchor), if it does.
    public var endTime: Timestamp? { feed.endTime }

    /// The next instant at which `advance(to:)` has something to do.
    public var nextDeadline: Timestamp? {
        feed.nextDeadline(monitor.nextDeadline)
    }

    public func isFinished(at now: Timestamp) -> Bool { feed.isFinished(at: now) }

    /// Feeds one packet. A packet that cannot be decoded throws after being counted; the session stays usable.
    /// `heard` sees every sighting until a region is first entered (what a hint that no beacon matches
    /// needs), then those that may match a region (`beacon calibrate` keeps their readings): from then on
    /// the others are dropped where they are found, since they cannot change the monitor. It returns
    /// whether it wants more: once it returns false, the session does not call it again.
    public mutating func packet(_ packet: HCIPacket, direction: PacketDirection, at rawTime: Timestamp,
                                emit: (MonitorOutput) -> Void, heard: (Sighting) -> Bool = { _ in false }) throws(DecodeError) {
        try packet.withView { view throws(DecodeError) in
            try self.packet(view, direction: direction, at: rawTime, emit: emit, heard: heard)
        }
    }

    /// The same for a packet read in place.
    public mutating func packet(_ packet: HCIPacketView, direction: PacketDirection, at rawTime: Timestamp,
                                emit: (MonitorOutput) -> Void, heard: (Sighting) -> Bool = { _ in false }) throws(DecodeError) {
        try feed.packet(packet, direction: direction, at: rawTime, admitting: { monitor.mayMatch($0) },
                        start: { monitor.start(at: $0, emit: emit) },
                        advance: { monitor.tick(now: $0, emit: emit) },
                        sighting: { sighting in
                            if tellsHeard { tellsHeard = heard(sighting) }
                            monitor.sighting(sighting, emit: emit)
                        })
    }

    /// Runs every deadline up to `now` (bounded by the session's end).
    public mutating func advance(to now: Timestamp, emit: (MonitorOutput) -> Void) {
        guard anchor != nil else { return }
        monitor.tick(now: feed.bounded(now), emit: emit)
    }

    /// Ends a replay whose capture ran out at `now`: the deadlines up to then (bounded by the
    /// session's end), then the last, partial interval (see `RegionMonitor.finish`).
    public mutating func finish(at now: Timestamp, emit: (MonitorOutput) -> Void) {
        guard anchor != nil else { return }
        monitor.finish(at: feed.bounded(now), emit: emit)
    }
}
