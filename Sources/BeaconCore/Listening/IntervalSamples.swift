/// One beacon's readings within a reporting interval, as ranging and scanning count them: every
/// advertising event is one sample, with or without an RSSI, and the mean RSSI is over those that
/// had one. A scan response is not a second sample of the event it answers (`AdvertisingEvents`).
struct IntervalSamples {
    var rssiSum = 0
    var rssiSquareSum = 0
    var rssiCount = 0
    var samples = 0
    /// Kept across intervals: a scan response may straddle a tick.
    private var events = AdvertisingEvents()

    /// Counts `s` heard at `now`; returns its RSSI when it is a new sample that has one.
    mutating func record(_ s: Sighting, at now: Timestamp) -> Int8? {
        guard events.isNewEvent(s, at: now) else { return nil }
        samples += 1
        guard let rssi = s.rssi else { return nil }
        rssiSum += Int(rssi)
        rssiSquareSum += Int(rssi) * Int(rssi)
        rssiCount += 1
        return rssi
    }

    /// The interval's mean RSSI; nil when no sample had one.
    var meanRSSI: Double? { rssiCount > 0 ? Double(rssiSum) / Double(rssiCount) : nil }

    /// The standard deviation of the interval's RSSI readings (dB, over the readings themselves); nil when
    /// none had an RSSI.
    var rssiSpread: Double? {
        guard rssiCount > 0 else { return nil }
        let n = Double(rssiCount), mean = Double(rssiSum) / n
        return max(0, Double(rssiSquareSum) / n - mean * mean).squareRoot()
    }

    /// Starts the next interval.
    mutating func endInterval() {
        rssiSum = 0
        rssiSquareSum = 0
        rssiCount = 0
        samples = 0
    }
}
