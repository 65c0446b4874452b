import BeaconCore
import BeaconSimulation

/// Every shipped scene through every model: each scene is simulated once with a fixed seed and its
/// packets replayed through each model's `RangeSession`.
///
/// - Distance and proximity accuracy: every (tick, beacon) heard, against the truth at that tick.
/// - Enter and exit latency: `SceneMetrics.enterLatencies` and `exitLatencies`, median over the events.
/// - False exits per hour at 0 %, 30 % and 50 % packet loss: scenes no beacon leaves
///   (`SceneRecording.beaconsNeverLeave`), simulated again with the radio model's `loss` set to each
///   level (everything else as shipped).
/// - Proximity flips per hour per beacon: scenes whose beacons all stand still, over `flipSeeds` seeds.
/// - Lag after a step (`SceneMetrics.steps`, `lags`): the `lagScene`, median over at least `lagSteps`
///   steps (further seeds are simulated while there are fewer).
public enum SceneEvaluation {
    /// The seed of every scene's main run; further seeds count up from it.
    public static let seed: UInt64 = 2026
    /// Steps the lag median is taken over at least (as long as `lagSeeds` allows).
    public static let lagSteps = 8
    public static let lagSeeds = 10
    /// Seeds a scene of beacons standing still is simulated with to count proximity flips.
    public static let flipSeeds = 4
    /// The scene of a walk the lag is measured on: a beacon carried away and brought back to rest.
    public static let lagScene = "walk-away"

    public struct SceneResult: Sendable {
        public var dataset: DatasetResult
        public var plotFiles: [(name: String, contents: String)]
        public var malformedPackets: Int
    }

    public static func evaluate(_ scene: Scene, models: [EvalModel]) throws(SceneError) -> SceneResult {
        let main = try SceneRecording(scene, seed: seed)
        let runs = Parallel.map(models) { SceneRun(main, estimator: $0.estimator) }
        var metrics: [Metric] = [.medianError, .p90Error, .proximityAccuracy]
        var rows = runs.map { TickScoring.scores($0.ticks.map(\.tick)) }
        var detail = "simulated \(scene.duration), seed \(seed), \(runs.first?.ticks.count ?? 0) beacon-ticks scored"

        let enters = runs.map { SceneMetrics.enterLatencies($0, main) }
        let exits = runs.map { SceneMetrics.exitLatencies($0, main) }
        if enters.contains(where: { !$0.isEmpty }) { metrics.append(.enterLatency) }
        if exits.contains(where: { !$0.isEmpty }) { metrics.append(.exitLatency) }
        for i in rows.indices {
            rows[i][.enterLatency] = Statistics.median(enters[i])
            rows[i][.exitLatency] = Statistics.median(exits[i])
        }
        var malformed = runs.reduce(0) { $0 + $1.malformedPackets }

        let hours = scene.duration.seconds / 3600
        if main.beaconsNeverLeave {
            let recordings = Parallel.map(Metric.falseExitColumns) { loss, _ in
                var lossy = scene
                lossy.radio.loss = loss
                return Result { () throws(SceneError) in try SceneRecording(lossy, seed: seed) }
            }
            for ((_, metric), recording) in zip(Metric.falseExitColumns, recordings) {
                let recording = try recording.get()
                let counted = Parallel.map(models) { model in
                    let run = SceneRun(recording, estimator: model.estimator)
                    return (falseExits: SceneMetrics.falseExits(run, recording), malformed: run.malformedPackets)
                }
                for (i, count) in counted.enumerated() {
                    malformed += count.malformed
                    rows[i][metric] = Double(count.falseExits) / hours
                }
                metrics.append(metric)
            }
            detail += "; no beacon leaves: false exits re-simulated at 0/30/50 % loss"
        }
        if main.allStandStill {
            // Flips are rare events: one seed's count says little, so they are counted over several.
            var flips = runs.map { SceneMetrics.flips($0, beacons: scene.beacons.count) }
            for extra in 1..<UInt64(flipSeeds) {
                let recording = try SceneRecording(scene, seed: seed + extra)
                let more = Parallel.map(models) { SceneMetrics.flips(SceneRun(recording, estimator: $0.estimator), beacons: scene.beacons.count) }
                for i in flips.indices { flips[i] += more[i] }
            }
            metrics.append(.flips)
            let beaconHours = hours * Double(scene.beacons.count * flipSeeds)
            for i in rows.indices { rows[i][.flips] = Double(flips[i]) / beaconHours }
            detail += "; flips over \(flipSeeds) seeds"
        }
        var steps = scene.name == lagScene ? SceneMetrics.steps(main) : []
        if !steps.isEmpty {
            var lags = runs.map { SceneMetrics.lags($0, steps: steps) }
            var extra: UInt64 = 1
            while steps.count < lagSteps && extra < UInt64(lagSeeds) {
                let recording = try SceneRecording(scene, seed: seed + extra)
                let more = SceneMetrics.steps(recording)
                let moreLags = Parallel.map(models) { SceneMetrics.lags(SceneRun(recording, estimator: $0.estimator), steps: more) }
                for i in lags.indices { lags[i] += moreLags[i] }
                steps += more
                extra += 1
            }
            metrics.append(.lag)
            for i in rows.indices { rows[i][.lag] = Statistics.median(lags[i]) }
            detail += "; lag over \(steps.count) steps (\(extra.counted("seed")))"
        }
        let dataset = DatasetResult(name: scene.name, detail: detail, metrics: metrics,
                                    rows: zip(models, rows).map { ($0.name, $1) })
        let plotted = zip(models, runs).filter { $0.0.plotted }
        return SceneResult(dataset: dataset, plotFiles: ScenePlotData.files(main, runs: plotted.map { ($0.0.name, $0.1) }),
                           malformedPackets: malformed)
    }

    /// The flips target, on every scene of beacons standing still (the `still` scene stands on the near/far
    /// boundary for it): beacon default's flips per hour at least ten times fewer than the same estimator's
    /// without hysteresis. Scenes without flips even without hysteresis cannot show it and are listed as such.
    public static func flipsTarget(_ datasets: [DatasetResult]) -> String? {
        let pairs = datasets.compactMap { table -> (String, Double, Double)? in
            guard let with = table.scores(of: EvalModel.beaconDefaultName)?[.flips],
                  let without = table.scores(of: EvalModel.noHysteresisName)?[.flips] else { return nil }
            return (table.name, with, without)
        }
        guard !pairs.isEmpty else { return nil }
        let list = pairs.map { name, with, without in
            let ratio = without == 0 ? "no flips either way" : with == 0 ? "none with" : "\(Fixed.text(without / with, decimals: 1))x fewer"
            return "\(name) \(Metric.flips.format(with)) vs \(Metric.flips.format(without)) (\(ratio))"
        }.joined(separator: ", ")
        let measurable = pairs.filter { $0.2 > 0 }
        let verdict = measurable.isEmpty ? "not measurable (no flips even without hysteresis)"
            : measurable.allSatisfy { $0.1 * 10 <= $0.2 } ? "met" : "NOT MET"
        return "Flips target, flips/h with vs without hysteresis (beacon default): \(list); target at least 10x fewer: \(verdict)"
    }

    /// The false-exit target: beacon default exits no region the truth has inside, at 50 % loss, on any scene.
    public static func falseExitTarget(_ datasets: [DatasetResult]) -> String? {
        let values = datasets.compactMap { table in
            table.scores(of: EvalModel.beaconDefaultName)?[.falseExits50].map { (table.name, $0) }
        }
        guard !values.isEmpty else { return nil }
        let list = values.map { "\($0.0) \(Metric.falseExits50.format($0.1))" }.joined(separator: ", ")
        return "False exits at 50 % loss, beacon default (per hour): \(list); target zero: "
            + (values.allSatisfy { $0.1 == 0 } ? "met" : "NOT MET")
    }
}
