/// Order statistics of the evaluation.
public enum Statistics {
    /// The `fraction` quantile (0...1) of `values`, interpolated linearly between the two nearest
    /// order statistics (the sorted values at positions `(count − 1) × fraction`; an infinite neighbour
    /// is taken whole); nil for no values.
    public static func quantile(_ values: [Double], _ fraction: Double) -> Double? {
        guard !values.isEmpty else { return nil }
        let sorted = values.sorted()
        let position = Double(sorted.count - 1) * min(max(fraction, 0), 1)
        let lower = Int(position)
        let upper = min(lower + 1, sorted.count - 1)
        let fraction = position - Double(lower)
        // An infinite value ("never") is taken as it is, not interpolated into a NaN.
        guard fraction > 0, sorted[lower].isFinite, sorted[upper].isFinite else { return fraction > 0 ? sorted[upper] : sorted[lower] }
        return sorted[lower] + fraction * (sorted[upper] - sorted[lower])
    }

    public static func median(_ values: [Double]) -> Double? { quantile(values, 0.5) }

    public static func mean(_ values: [Double]) -> Double? {
        values.isEmpty ? nil : values.reduce(0, +) / Double(values.count)
    }
}
