/// Which sightings of one beacon are advertising events of their own: the rule ranging, scanning and
/// calibration count readings by. A scan response answers a scan request within the advertising event
/// it belongs to, so it is not a second reading of that event.
public struct AdvertisingEvents: Sendable {
    /// The last sighting counted as an event, to recognise a scan response of the same event.
    private var lastEventTime: Timestamp?

    /// Two advertising events are at least 20 ms apart (Core Vol 6 Part B 4.4.2.2.1), so a scan
    /// response closer than this to the last event belongs to it.
    public static let sameEvent = Micros.milliseconds(10)

    public init() {}

    /// Whether `s`, heard at `now`, is a new advertising event (then it is the latest one): false only
    /// for a scan response less than `sameEvent` after the last event.
    @inline(__always)
    public mutating func isNewEvent(_ s: Sighting, at now: Timestamp) -> Bool {
        if s.isScanResponse, let last = lastEventTime, now - last < Self.sameEvent { return false }
        lastEventTime = now
        return true
    }
}
