/// What one gateway heard of a surveyed beacon over a point (or a stretch of a walk): each tick's mean
/// RSSI, weighted by the readings it is the mean of.
///
/// The distribution is of the ticks' means, not of single packets, because that is what `beacon locate`
/// compares with a radio map: one mean per gateway and tick. Weighting each mean by its samples makes
/// the median that of the readings themselves, each taken at its tick's mean, so a tick of one packet
/// counts no more than one packet. The spread is the same distribution's median absolute deviation
/// scaled by 1.4826, the standard deviation of a normal distribution with that MAD: robust to the odd
/// tick of a body in the way, and on the scale a radio map's σ is.
public struct SurveyLevels: Sendable {
    /// The scale that makes a normal distribution's median absolute deviation its standard deviation.
    public static let madToSigma = 1.4826

    private var ticks: [(rssi: Double, samples: Int)] = []
    /// The readings the ticks are means of.
    public private(set) var samples = 0

    public init() {}

    /// One tick's mean RSSI (dBm) of `samples` readings (at least 1).
    public mutating func add(rssi: Double, samples: Int) {
        guard samples > 0, rssi.isFinite else { return }
        ticks.append((rssi, samples))
        // A tick holds at most a million readings (the readings decoder's bound): no overflow here.
        self.samples += samples
    }

    /// The weighted median, dBm; nil when nothing was heard.
    public var median: Double? {
        guard samples > 0 else { return nil }
        return Self.median(ticks.sorted { $0.rssi < $1.rssi }, total: samples)
    }

    /// The weighted median absolute deviation from the median, × 1.4826 (dB); nil when the beacon was
    /// heard in fewer than two ticks (one tick's mean has no spread to tell).
    public var spread: Double? {
        guard ticks.count >= 2, let median else { return nil }
        let deviations = ticks.map { (rssi: abs($0.rssi - median), samples: $0.samples) }.sorted { $0.rssi < $1.rssi }
        return Self.median(deviations, total: samples) * Self.madToSigma
    }

    /// The median of the readings when each tick's mean stands for its `samples` readings: the middle
    /// one of an odd count, the mean of the middle two of an even count (`OrderStatistics.quantile`'s).
    private static func median(_ sorted: [(rssi: Double, samples: Int)], total: Int) -> Double {
        let lower = (total - 1) / 2
        let upper = total / 2
        var seen = 0
        var low: Double?
        for tick in sorted {
            seen += tick.samples
            if low == nil, seen > lower { low = tick.rssi }
            if seen > upper { return ((low ?? tick.rssi) + tick.rssi) / 2 }
        }
        return sorted[sorted.count - 1].rssi
    }
}
