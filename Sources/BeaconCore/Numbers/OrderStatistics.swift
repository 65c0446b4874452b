/// Quantiles of sorted values, the one definition ranging, calibration and the evaluation share.
public enum OrderStatistics {
    /// The `fraction` quantile (0...1) of `sorted` (ascending, not empty), interpolated linearly between
    /// the two nearest order statistics (the values at positions `(count − 1) × fraction`, the common
    /// "type 7" definition; an even count's median is the mean of the middle two). An infinite
    /// neighbour is taken whole rather than interpolated into a NaN.
    public static func quantile(sorted: [Double], _ fraction: Double) -> Double {
        precondition(!sorted.isEmpty, "a quantile of no values")
        let position = Double(sorted.count - 1) * min(max(fraction, 0), 1)
        let lower = Int(position)
        let upper = min(lower + 1, sorted.count - 1)
        let weight = position - Double(lower)
        guard weight > 0, sorted[lower].isFinite, sorted[upper].isFinite else { return weight > 0 ? sorted[upper] : sorted[lower] }
        return sorted[lower] + weight * (sorted[upper] - sorted[lower])
    }
}
