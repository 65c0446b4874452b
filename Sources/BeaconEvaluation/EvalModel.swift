import BeaconCore

/// One way of turning readings into a distance and a proximity that `make eval` compares: beacon's own
/// configurations and its peers' defaults, each configured as the `RangingEstimator` the tool runs, so
/// every row goes through the same `RegionMonitor` code and no filter or curve is written twice.
public struct EvalModel: Hashable, Sendable {
    /// The row's name in the printed tables and the data files.
    public var name: String
    public var estimator: RangingEstimator
    /// Drawn in the scene plots (a few models, so the plots stay readable).
    public var plotted: Bool

    public init(name: String, estimator: RangingEstimator, plotted: Bool = false) {
        self.name = name
        self.estimator = estimator
        self.plotted = plotted
    }

    /// The row every other row is compared with.
    public static let beaconDefaultName = "beacon default"
    /// The peer the real-data summary figure divides by.
    public static let altBeaconDefaultName = "AltBeacon default"
    /// beacon's default with the proximity hysteresis turned off: the flips target compares the two.
    public static let noHysteresisName = "beacon default, no hysteresis"

    public static let fittedLogDistanceName = "beacon, fitted log-distance"

    /// node-bleacon's proximity cut between near and far (its `proximity` getter: < 0.5 m immediate, < 4 m near).
    public static let bleaconNearBelow = 4.0

    /// The models compared on every dataset, beacon's default first. Everything but the peers' own
    /// constants (node-bleacon's 4 m) is read from the core, so a change of a default shows up here.
    public static func compared() -> [EvalModel] {
        let standard = RangingEstimator()
        var models = [EvalModel(name: beaconDefaultName, estimator: standard, plotted: true)]
        // Each of beacon's filters with the default distance model; the default one is the row above.
        for name in ["mean", "median", "trimmed", "arma", "kalman"] {
            guard let kind = RSSIFilterKind.parse(name), kind != standard.filter else { continue }
            var estimator = standard
            estimator.filter = kind
            models.append(EvalModel(name: "beacon, filter \(kind)", estimator: estimator))
        }
        var flat = standard
        flat.proximity = .plain
        models.append(EvalModel(name: noHysteresisName, estimator: flat))
        // The peers have no hysteresis; CoreLocation's classes at the core's thresholds.
        let plain = ProximityClassifier.plain
        models.append(EvalModel(name: altBeaconDefaultName,
                                estimator: RangingEstimator(filter: .altBeaconAverage, distance: .altBeacon, proximity: plain),
                                plotted: true))
        models.append(EvalModel(name: "AltBeacon ARMA",
                                estimator: RangingEstimator(filter: .altBeaconARMA, distance: .altBeacon, proximity: plain)))
        // node-bleacon computes a distance from each advertisement on its own: an ARMA coefficient of 1
        // keeps exactly the latest reading, which each ranging tick reports.
        var bleaconClasses = plain
        bleaconClasses.nearBelow = bleaconNearBelow
        models.append(EvalModel(name: "node-bleacon (per reading)",
                                estimator: RangingEstimator(filter: .arma(coefficient: 1), distance: .bleacon,
                                                            proximity: bleaconClasses),
                                plotted: true))
        models.append(EvalModel(name: "old beacon (mean, log n=2)",
                                estimator: RangingEstimator(filter: .intervalMean, distance: .logDistance(exponent: 2),
                                                            proximity: plain),
                                plotted: true))
        return models
    }

    /// beacon's default filter with the log-distance model at an exponent fitted elsewhere (on the real
    /// data: on the other phone pairs), as `beacon calibrate` would configure a site.
    public static func fittedLogDistance(exponent: Double) -> EvalModel {
        var estimator = RangingEstimator()
        estimator.distance = .logDistance(exponent: exponent)
        return EvalModel(name: fittedLogDistanceName, estimator: estimator)
    }

    /// The proximity class a true distance has: the core's default thresholds, without hysteresis.
    public static func trueProximity(_ metres: Double) -> Proximity {
        ProximityClassifier.plain.classify(metres)
    }
}
