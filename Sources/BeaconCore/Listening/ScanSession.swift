/// `beacon scan`'s session: the shared feed (anchor, `--duration`, fragment chains) in front of the
/// filter and the aggregator.
public struct ScanSession {
    public private(set) var aggregator: ScanAggregator
    public let filter: ScanFilter
    private var feed: SightingFeed
    /// Whether `heard` still wants sightings: false once it said it has had enough.
    private var tellsHeard = true

    public init(aggregator: ScanAggregator, filter: ScanFilter = ScanFilter(), duration: Micros?) {
        self.aggregator = aggregator
        self.filter = filter
        feed = SightingFeed(duration: duration)
    }

    public var anchor: Timestamp? { feed.anchor }
    public var malformedPackets: Int { feed.malformedPackets }
    /// Beacons forgotten early because the aggregator's table was full.
    public var evictedBeacons: Int { aggregator.evictedBeacons }
    public var endTime: Timestamp? { feed.endTime }

    public var nextDeadline: Timestamp? {
        feed.nextDeadline(aggregator.nextDeadline)
    }

    public func isFinished(at now: Timestamp) -> Bool { feed.isFinished(at: now) }

    /// Feeds one packet; `heard` sees every sighting before the filter, until it returns false (it is
    /// not called again after that).
    public mutating func packet(_ packet: HCIPacket, direction: PacketDirection, at rawTime: Timestamp,
                                emit: (ScanOutput) -> Void, heard: (Sighting) -> Bool = { _ in false }) throws(DecodeError) {
        try packet.withView { view throws(DecodeError) in
            try self.packet(view, direction: direction, at: rawTime, emit: emit, heard: heard)
        }
    }

    /// The same for a packet read in place.
    public mutating func packet(_ packet: HCIPacketView, direction: PacketDirection, at rawTime: Timestamp,
                                emit: (ScanOutput) -> Void, heard: (Sighting) -> Bool = { _ in false }) throws(DecodeError) {
        let filter = filter
        try feed.packet(packet, direction: direction, at: rawTime,
                        start: { aggregator.start(at: $0) },
                        advance: { aggregator.tick(now: $0, emit: emit) },
                        sighting: { sighting in
                            if tellsHeard { tellsHeard = heard(sighting) }
                            if filter.admits(sighting) { aggregator.sighting(sighting, emit: emit) }
                        })
    }

    public mutating func advance(to now: Timestamp, emit: (ScanOutput) -> Void) {
        guard anchor != nil else { return }
        aggregator.tick(now: feed.bounded(now), emit: emit)
    }

    public mutating func finish(at now: Timestamp, emit: (ScanOutput) -> Void) {
        guard anchor != nil else { return }
        aggregator.finish(at: feed.bounded(now), emit: emit)
    }
}
