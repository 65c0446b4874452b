/// Whether the readings a fuser takes come from replays of captures (their messages say so): a replay runs
/// at any pace, its gateways all at once or one after another, so while one is fed, arrival says nothing
/// of a gateway's clock or of one falling behind, and every gateway is waited for as without a lateness
/// bound. Held for `hold` after the latest replayed message: a gateway that gives its place to the next
/// one's replay is not taken for a live site, and a forged message holds a live fuser up for that long at most.
struct ReplayWatch: Sendable {
    static let hold = Micros.seconds(60)

    /// The arrival of the latest message that came from a replay.
    private var lastArrival: Timestamp?

    mutating func received(_ readings: GatewayReadings, arrival: Timestamp) {
        if readings.replay { lastArrival = max(lastArrival ?? arrival, arrival) }
    }

    private func isReplaying(at arrival: Timestamp) -> Bool {
        lastArrival.map { arrival - $0 <= Self.hold } ?? false
    }

    /// The lateness bound in force at `arrival`: `bound`, or none while a replay is fed.
    func lateness(_ bound: Micros?, at arrival: Timestamp) -> Micros? {
        isReplaying(at: arrival) ? nil : bound
    }
}
