/// Whether the readings a fuser takes come from replays of captures (their messages say so): a replay runs
/// at any pace, its gateways all at once or one after another, so while one is fed, arrival says nothing
/// of a gateway's clock or of one falling behind, and every gateway is waited for as without a lateness
/// bound. Held for `hold` after the latest replayed message: a gateway that gives its place to the next
/// one's replay is not taken for a live site, and a forged message holds a live fuser up for that long at most.
struct ReplayWatch: Sendable {
    static let hold = Micros.seconds(60)

    /// The arrival of the latest message that came from a replay.
    private var lastArrival: Timestamp?

    /// Takes a message dated `time` (clamped to the supported range). No capture is dated far ahead of the
    /// machine that replays it: false for a replay's message more than `Locator.maximumSkew` ahead of its
    /// arrival while `bounded` (a lateness bound is set: the fuser is live), which then neither turns the
    /// bound off nor takes the fuser's clock there. With no bound (--max-lateness none), such captures are
    /// taken all the same.
    mutating func accepts(_ readings: GatewayReadings, time: Timestamp, arrival: Timestamp, bounded: Bool) -> Bool {
        guard readings.replay else { return true }
        if bounded, time - arrival > Locator.maximumSkew { return false }
        lastArrival = max(lastArrival ?? arrival, arrival)
        return true
    }

    private func isReplaying(at arrival: Timestamp) -> Bool {
        lastArrival.map { arrival - $0 <= Self.hold } ?? false
    }

    /// The lateness bound in force at `arrival`: `bound`, or none while a replay is fed.
    func lateness(_ bound: Micros?, at arrival: Timestamp) -> Micros? {
        isReplaying(at: arrival) ? nil : bound
    }
}
