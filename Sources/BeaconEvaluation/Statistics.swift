import BeaconCore

/// Order statistics of the evaluation.
public enum Statistics {
    /// The `fraction` quantile (0...1) of `values`, interpolated linearly between the two nearest
    /// order statistics (the sorted values at positions `(count − 1) × fraction`; an infinite neighbour
    /// is taken whole); nil for no values.
    public static func quantile(_ values: [Double], _ fraction: Double) -> Double? {
        // An infinite value ("never") is taken as it is, not interpolated into a NaN.
        values.isEmpty ? nil : OrderStatistics.quantile(sorted: values.sorted(), fraction)
    }

    public static func median(_ values: [Double]) -> Double? { quantile(values, 0.5) }

    public static func mean(_ values: [Double]) -> Double? {
        values.isEmpty ? nil : values.reduce(0, +) / Double(values.count)
    }
}
