/// The part of a listening session every listening command shares: the anchor (when listening
/// started), `--duration`'s end, times clamped so they never go backwards, fragment chains, and the
/// advertising reports decoded into sightings. Live runs and capture replays feed it the same packets
/// (sent and received) with the same timestamps.
///
/// The anchor is the Command Complete of the host's LE Set (Extended) Scan Enable that turned
/// scanning on, or, in a capture that does not show scanning being turned on, the first advertising
/// report.
public struct SightingFeed {
    public let duration: Micros?
    public private(set) var anchor: Timestamp?
    /// Packets whose bytes could not be decoded; skipped, never fatal.
    public private(set) var malformedPackets = 0
    private var latest: Timestamp?
    /// The scan-enable command (with enable set) that the host sent and the controller has not yet answered.
    private var pendingScanEnable: HCIOpcode?
    /// Extended advertisers in the middle of a fragmented advertisement, whose fragments are skipped.
    private var chains = FragmentChains()

    public init(duration: Micros?) {
        self.duration = duration
    }

    /// When the session ends by itself (`--duration` after the anchor), if it does: worked out once
    /// at the anchor, as every packet and deadline tests it.
    public private(set) var endTime: Timestamp?

    public func isFinished(at now: Timestamp) -> Bool {
        endTime.map { now >= $0 } ?? false
    }

    /// The earlier of `consumer`'s next deadline and the session's end; nil before the anchor.
    public func nextDeadline(_ consumer: Timestamp?) -> Timestamp? {
        guard anchor != nil else { return nil }
        switch (consumer, endTime) {
        case (let a?, let b?): return min(a, b)
        case (let a?, nil): return a
        case (nil, let b): return b
        }
    }

    /// `now` bounded by the session's end, for deadlines.
    public func bounded(_ now: Timestamp) -> Timestamp {
        endTime.map { min($0, now) } ?? now.clampedToSupportedRange
    }

    /// Feeds one packet, read in place: `start` when it is the anchor, then for an advertising report
    /// `advance` to its time and `sighting` once per beacon it carries (whose frame `admits` takes). A
    /// packet that cannot be decoded throws after being counted; the feed stays usable.
    @inline(__always)
    public mutating func packet(_ packet: HCIPacketView, direction: PacketDirection, at rawTime: Timestamp,
                                admitting admits: (BeaconFrame) -> Bool = { _ in true }, start: (Timestamp) -> Void, advance: (Timestamp) -> Void,
                                sighting: (Sighting) -> Void) throws(DecodeError) {
        // Far-off times are clamped first: the deadline arithmetic must not wrap around.
        let clamped = rawTime.clampedToSupportedRange
        let time = max(clamped, latest ?? clamped)
        latest = time
        if let end = endTime, time > end { return }
        do {
            switch (packet.kind, direction) {
            case (.command, .sent):
                try noteCommand(packet.payload)
            case (.event, .received):
                try event(packet.payload, at: time, admitting: admits, start: start, advance: advance, sighting: sighting)
            default:
                break
            }
        } catch {
            malformedPackets += 1
            throw error
        }
    }

    /// Commands matter only until the anchor: they are decoded from a copy.
    private mutating func noteCommand(_ payload: UnsafeRawBufferPointer) throws(DecodeError) {
        guard anchor == nil else { return }
        let command = try HCICommand.decode(ArraySlice(payload))
        guard command.opcode == .leSetScanEnable || command.opcode == .leSetExtendedScanEnable else { return }
        pendingScanEnable = command.parameters.first == 1 ? command.opcode : nil
    }

    @inline(__always)
    private mutating func event(_ payload: UnsafeRawBufferPointer, at time: Timestamp, admitting admits: (BeaconFrame) -> Bool,
                                start: (Timestamp) -> Void, advance: (Timestamp) -> Void,
                                sighting: (Sighting) -> Void) throws(DecodeError) {
        if anchor == nil {
            guard try isAnchor(payload) else { return }
            anchor(at: time, start)
            if !Self.isAdvertisingReport(payload) { return }
        }
        advance(time)
        try SightingDecoder.forEachSighting(inEvent: payload, at: time, chains: &chains, admitting: admits, sighting)
    }

    /// Whether an event before the anchor is it: the success of the pending scan enable (decoded from a
    /// copy), or else the first advertising report.
    private func isAnchor(_ payload: UnsafeRawBufferPointer) throws(DecodeError) -> Bool {
        if let pending = pendingScanEnable, payload.first == HCIEventCode.commandComplete.rawValue,
           case .commandComplete(_, let opcode, let parameters) = try HCIEvent.decode(ArraySlice(payload)),
           opcode == pending, parameters.first == 0 {
            return true
        }
        return Self.isAdvertisingReport(payload)
    }

    private mutating func anchor(at time: Timestamp, _ start: (Timestamp) -> Void) {
        anchor = time
        endTime = duration.map { time + $0 }
        pendingScanEnable = nil
        start(time)
    }

    /// LE Meta event carrying LE Advertising Report (0x02) or LE Extended Advertising Report (0x0D).
    public static func isAdvertisingReport(_ payload: UnsafeRawBufferPointer) -> Bool {
        guard payload.count >= 3, payload[0] == HCIEventCode.leMeta.rawValue else { return false }
        let subevent = payload[2]
        return subevent == LESubeventCode.advertisingReport.rawValue || subevent == LESubeventCode.extendedAdvertisingReport.rawValue
    }
}
