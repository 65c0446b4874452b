import BeaconCore

/// One ranging tick at which the beacon was heard (accuracy ≥ 0), with the truth at that tick.
public struct ScoredTick: Hashable, Sendable {
    public var time: Timestamp
    /// True distance (m).
    public var truth: Double
    /// The range line's accuracy (m).
    public var estimate: Double
    public var proximity: Proximity

    public init(time: Timestamp, truth: Double, estimate: Double, proximity: Proximity) {
        self.time = time
        self.truth = truth
        self.estimate = estimate
        self.proximity = proximity
    }

    public var absoluteError: Double { abs(estimate - truth) }
}

/// The accuracy metrics every dataset has: distance error and proximity class.
public enum TickScoring {
    /// Median and 90th-percentile absolute error, and the share of ticks whose proximity is the class of
    /// the true distance (`EvalModel.trueProximity`); nothing for no ticks.
    public static func scores(_ ticks: [ScoredTick]) -> Scores {
        guard !ticks.isEmpty else { return [:] }
        let errors = ticks.map(\.absoluteError)
        let right = ticks.filter { $0.proximity == EvalModel.trueProximity($0.truth) }.count
        var scores: Scores = [:]
        scores[.medianError] = Statistics.median(errors)
        scores[.p90Error] = Statistics.quantile(errors, 0.9)
        scores[.proximityAccuracy] = 100 * Double(right) / Double(ticks.count)
        return scores
    }
}
