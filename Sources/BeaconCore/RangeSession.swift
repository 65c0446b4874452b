/// Turns the packets of a scanning session into monitoring and ranging output. Live runs and
/// capture replays feed it the same packets (sent and received) with the same timestamps, so both
/// print the same lines.
///
/// Monitoring starts at the anchor: the Command Complete of the host's LE Set (Extended) Scan Enable
/// that turned scanning on, or, in a capture that does not show scanning being turned on, the first
/// advertising report. Ranging ticks and `--duration` are counted from the anchor.
public struct RangeSession {
    public private(set) var monitor: RegionMonitor
    public let duration: Micros?
    public private(set) var anchor: Timestamp?
    /// Packets whose bytes could not be decoded; skipped, never fatal.
    public private(set) var malformedPackets = 0
    private var latest: Timestamp?
    /// The scan-enable command (with enable set) that the host sent and the controller has not yet answered.
    private var pendingScanEnable: HCIOpcode?
    /// Extended advertisers in the middle of a fragmented advertisement, whose fragments are skipped.
    private var chains = FragmentChains()

    public init(monitor: RegionMonitor, duration: Micros?) {
        self.monitor = monitor
        self.duration = duration
    }

    /// When the session ends by itself (`--duration` after the anchor), if it does.
    public var endTime: Timestamp? {
        guard let anchor, let duration else { return nil }
        return anchor + duration
    }

    /// The next instant at which `advance(to:)` has something to do.
    public var nextDeadline: Timestamp? {
        guard anchor != nil else { return nil }
        switch (monitor.nextDeadline, endTime) {
        case (let a?, let b?): return min(a, b)
        case (let a?, nil): return a
        case (nil, let b): return b
        }
    }

    public func isFinished(at now: Timestamp) -> Bool {
        endTime.map { now >= $0 } ?? false
    }

    /// Feeds one packet. A packet that cannot be decoded throws after being counted; the session stays usable.
    /// `heard` sees every sighting the monitor is given (`beacon calibrate` keeps their readings).
    public mutating func packet(_ packet: HCIPacket, direction: PacketDirection, at rawTime: Timestamp,
                                emit: (MonitorOutput) -> Void, heard: (Sighting) -> Void = { _ in }) throws(DecodeError) {
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
                try event(packet.payload, at: time, emit: emit, heard: heard)
            default:
                break
            }
        } catch {
            malformedPackets += 1
            throw error
        }
    }

    /// Runs every deadline up to `now` (bounded by the session's end).
    public mutating func advance(to now: Timestamp, emit: (MonitorOutput) -> Void) {
        guard anchor != nil else { return }
        let bounded = endTime.map { min($0, now) } ?? now.clampedToSupportedRange
        monitor.tick(now: bounded, emit: emit)
    }

    /// Ends a replay whose capture ran out at `now`: the deadlines up to then (bounded by the
    /// session's end), then the last, partial interval (see `RegionMonitor.finish`).
    public mutating func finish(at now: Timestamp, emit: (MonitorOutput) -> Void) {
        guard anchor != nil else { return }
        let bounded = endTime.map { min($0, now) } ?? now.clampedToSupportedRange
        monitor.finish(at: bounded, emit: emit)
    }

    private mutating func noteCommand(_ payload: ArraySlice<UInt8>) throws(DecodeError) {
        guard anchor == nil else { return }
        let command = try HCICommand.decode(payload)
        guard command.opcode == .leSetScanEnable || command.opcode == .leSetExtendedScanEnable else { return }
        pendingScanEnable = command.parameters.first == 1 ? command.opcode : nil
    }

    private mutating func event(_ payload: ArraySlice<UInt8>, at time: Timestamp, emit: (MonitorOutput) -> Void,
                                heard: (Sighting) -> Void) throws(DecodeError) {
        if anchor == nil {
            if let pending = pendingScanEnable, payload.first == HCIEventCode.commandComplete.rawValue,
               case .commandComplete(_, let opcode, let parameters) = try HCIEvent.decode(payload),
               opcode == pending, parameters.first == 0 {
                start(at: time, emit: emit)
                return
            }
            guard Self.isAdvertisingReport(payload) else { return }
            start(at: time, emit: emit)
        }
        monitor.tick(now: time, emit: emit)
        try SightingDecoder.forEachSighting(inEvent: payload, at: time, chains: &chains) { sighting in
            heard(sighting)
            monitor.sighting(sighting, emit: emit)
        }
    }

    private mutating func start(at time: Timestamp, emit: (MonitorOutput) -> Void) {
        anchor = time
        pendingScanEnable = nil
        monitor.start(at: time, emit: emit)
    }

    /// LE Meta event carrying LE Advertising Report (0x02) or LE Extended Advertising Report (0x0D).
    static func isAdvertisingReport(_ payload: ArraySlice<UInt8>) -> Bool {
        guard payload.count >= 3, payload.first == HCIEventCode.leMeta.rawValue else { return false }
        let subevent = payload[payload.startIndex + 2]
        return subevent == 0x02 || subevent == 0x0D
    }
}
