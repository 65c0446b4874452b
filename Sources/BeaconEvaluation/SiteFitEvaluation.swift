#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import BeaconCore

/// A site's calibration judged on distances it did not measure (leave one distance out): for each distance
/// of a real RSSI-versus-distance set, `beacon calibrate --sample` is fitted to the handful of other
/// distances a person would measure, and that distance's readings are ranged three ways: by the default
/// room model, by the fit replacing it (`--path-loss-exponent` and the fit's `--measured-power`), and by
/// the fit as a prior (`--site-fit`, the measured 1 m power kept). Every run goes through the region
/// monitor the tool ships, as `ResearchEvaluation`'s.
public enum SiteFitEvaluation {
    /// One RSSI-versus-distance set: its readings grouped by the distance they were taken at.
    public struct Dataset: Sendable {
        public var name: String
        public var detail: String
        /// Each distance (m) and its readings, nearest first; a reading's own truth may differ from the
        /// group's distance (the flat's readings are grouped in bins).
        public var positions: [(distance: Double, readings: [ResearchReading])]
        /// The RSSI at 1 m a user would take: the median of the group at 1 m.
        public var measuredPower: Int8
        /// The index in `positions` of that group: a calibration, never scored.
        public var calibration: Int

        init?(name: String, detail: String, positions: [(distance: Double, readings: [ResearchReading])]) {
            guard let index = positions.indices.first(where: { positions[$0].distance == 1
                                                                && positions[$0].readings.count >= CalibrationSample.minimumCount }),
                  let median = Statistics.median(positions[index].readings.map { Double($0.rssi) }),
                  let power = Int8(exactly: median.rounded(.toNearestOrAwayFromZero)),
                  RangingEstimator.plausibleMeasuredPower.contains(power) else { return nil }
            self.name = name
            self.detail = detail
            self.positions = positions
            measuredPower = power
            calibration = index
        }

        /// The groups scored: all but the calibration.
        var scored: [Int] { positions.indices.filter { $0 != calibration } }
    }

    /// The distances a person calibrating a site would measure at (m); each picks the dataset's distance
    /// nearest it, within a quarter of it.
    public static let calibrationDistances = [0.5, 1, 2, 3, 5, 8]

    /// A Herald file as a dataset: its readings at each distance (0 cm, where the casings touch, left out).
    public static func dataset(_ file: ResearchFile) -> Dataset? {
        var groups: [Int: [ResearchReading]] = [:]
        for reading in file.readings where reading.centimetres > 0 { groups[reading.centimetres, default: []].append(reading) }
        let positions = groups.keys.sorted().map { (distance: Double($0) / 100, readings: groups[$0]!) }
        return Dataset(name: file.name, detail: "Herald phone pair, \(positions.count) distances", positions: positions)
    }

    /// Bin width of the flat's distances (m): the robot never stops at the same distance twice.
    static let flatBin = 0.5
    /// The tag's height above the floor in the flat (the dataset's description).
    static let flatTagHeight = 1.3

    /// One anchor of the Kolakowski flat's survey as a dataset: every reading with its 3-D distance from
    /// the anchor, grouped in half-metre bins.
    public static func dataset(_ survey: RecordedDrive, anchor: Int) -> Dataset? {
        let position = survey.site.gateways[anchor]
        var groups: [Int: [ResearchReading]] = [:]
        for row in survey.rows {
            guard let rssi = row.rssi[anchor], let whole = Int8(exactly: rssi.rounded(.toNearestOrAwayFromZero)) else { continue }
            let dx = row.x - position.x, dy = row.y - position.y, dz = position.z - flatTagHeight
            let metres = (dx * dx + dy * dy + dz * dz).squareRoot()
            groups[Int((metres / flatBin).rounded()), default: []]
                .append(ResearchReading(time: row.time, rssi: whole, centimetres: Int((metres * 100).rounded())))
        }
        let positions = groups.keys.sorted().map { (distance: Double($0) * flatBin, readings: groups[$0]!) }
        return Dataset(name: "flat \(position.name)", detail: "Kolakowski flat survey, anchor at \(Fixed.text(position.z, decimals: 2)) m, "
                       + "\(positions.count) half-metre bins", positions: positions)
    }

    /// What one dataset gave: each way's scored ticks over every held-out distance, and the fits refused.
    public struct Result: Sendable {
        public var dataset: String
        public var detail: String
        public var heldOut: Int
        /// Held-out distances whose handful `beacon calibrate` refused to fit: ranged by the default in every way.
        public var refused: Int
        public var exponents: [Double]
        /// The prior weight of each fit (`PathLossFit.priorWeight`).
        public var weights: [Double]
        public var defaultTicks: [ScoredTick]
        public var rawFitTicks: [ScoredTick]
        public var priorTicks: [ScoredTick]
    }

    /// Leave one distance out over `dataset`.
    public static func evaluate(_ dataset: Dataset) -> Result {
        let samples = dataset.positions.map { position in
            CalibrationSample(distance: Statistics.median(position.readings.map(\.metres)) ?? position.distance,
                              count: position.readings.count,
                              median: Statistics.median(position.readings.map { Double($0.rssi) }) ?? 0, spread: 0)
        }
        // Each calibration distance's nearest group with enough readings, once.
        var handful: [Int] = []
        for target in calibrationDistances {
            let nearest = samples.indices.filter { samples[$0].count >= CalibrationSample.minimumCount }
                .min { abs(samples[$0].distance - target) < abs(samples[$1].distance - target) }
            guard let nearest, abs(samples[nearest].distance - target) <= target / 4, !handful.contains(nearest) else { continue }
            handful.append(nearest)
        }
        let jobs = dataset.scored
        let chosen = handful
        let runs = Parallel.map(jobs) { held -> (refused: Bool, fit: PathLossFit?, [[ScoredTick]]) in
            let file = ResearchFile(name: dataset.name, readings: dataset.positions[held].readings)
            func ticks(_ estimator: RangingEstimator, power: Int8) -> [ScoredTick] {
                ResearchEvaluation.ticks(file, measuredPower: power, estimator: estimator)
            }
            let standard = ticks(RangingEstimator(), power: dataset.measuredPower)
            guard case .success(let fit) = PathLossFit.fit(chosen.filter { $0 != held }.map { samples[$0] }) else {
                return (true, nil, [standard, standard, standard])
            }
            var raw = RangingEstimator(), prior = RangingEstimator()
            raw.distance = .logDistance(exponent: fit.exponent)
            prior.distance = .room(RoomPrior().narrowed(by: SitePrior(fit)))
            return (false, fit, [standard, ticks(raw, power: Int8(MeasuredPowerAtOneMetre.flag(fit.measuredPower))),
                                          ticks(prior, power: dataset.measuredPower)])
        }
        return Result(dataset: dataset.name, detail: dataset.detail, heldOut: jobs.count, refused: runs.filter(\.refused).count,
                      exponents: runs.compactMap(\.fit?.exponent), weights: runs.compactMap(\.fit?.priorWeight),
                      defaultTicks: runs.flatMap { $0.2[0] }, rawFitTicks: runs.flatMap { $0.2[1] }, priorTicks: runs.flatMap { $0.2[2] })
    }

    /// Every model on every distance of `dataset` but the 1 m one (its calibration), each distance's
    /// readings ranged on their own: nothing is fitted to the dataset.
    public static func models(_ dataset: Dataset, _ models: [EvalModel]) -> DatasetResult {
        let groups = dataset.scored.map { dataset.positions[$0] }
        let ticks = Parallel.map(models) { model in
            groups.flatMap { ResearchEvaluation.ticks(ResearchFile(name: dataset.name, readings: $0.readings),
                                                      measuredPower: dataset.measuredPower, estimator: model.estimator) }
        }
        return DatasetResult(name: dataset.name, detail: "\(dataset.detail), measured power \(dataset.measuredPower) dBm, "
                             + "\(ticks.first?.count ?? 0) ticks scored",
                             metrics: [.medianError, .p90Error, .proximityAccuracy],
                             rows: zip(models, ticks).map { ($0.name, TickScoring.scores($1)) })
    }

    /// The printed table: per dataset, each way's median and 90th-percentile error, and the target.
    public static func report(_ results: [Result]) -> [String] {
        func errors(_ ticks: [ScoredTick]) -> (median: Double, p90: Double)? {
            let e = ticks.map(\.absoluteError)
            guard let median = Statistics.median(e), let p90 = Statistics.quantile(e, 0.9) else { return nil }
            return (median, p90)
        }
        func pair(_ e: (median: Double, p90: Double)?) -> String {
            e.map { Fixed.text($0.median, decimals: 2) + " / " + Fixed.text($0.p90, decimals: 2) } ?? "-"
        }
        func pad(_ s: String, _ width: Int, left: Bool = false) -> String {
            let fill = String(repeating: " ", count: max(0, width - s.count))
            return left ? s + fill : fill + s
        }
        let nameWidth = max(7, results.map(\.dataset.count).max() ?? 0)
        var lines = ["Site fit, leave one distance out: per dataset, each distance but the 1 m one ranged with `beacon calibrate --sample` "
                     + "fitted to the distances nearest " + calibrationDistances.map { Fixed.text($0, decimals: 1) }.joined(separator: ", ")
                     + " m but it; median / p90 error (m) over all its ticks",
                     pad("dataset", nameWidth, left: true) + pad("held", 6) + pad("refused", 9) + pad("fitted n", 12) + pad("weight", 12)
                     + pad("default", 15) + pad("raw fit", 15) + pad("fit as prior", 15) + "  prior vs default"]
        var losses: [String] = []
        for r in results {
            let (a, b, c) = (errors(r.defaultTicks), errors(r.rawFitTicks), errors(r.priorTicks))
            func span(_ values: [Double], decimals: Int) -> String {
                guard let low = values.min(), let high = values.max() else { return "-" }
                return Fixed.text(low, decimals: decimals) + "-" + Fixed.text(high, decimals: decimals)
            }
            let n = span(r.exponents, decimals: 1)
            var verdict = "-"
            if let a, let c {
                verdict = "median \(ratio(c.median, a.median)), p90 \(ratio(c.p90, a.p90))"
                if c.median > a.median { losses.append("\(r.dataset) median \(Fixed.text(c.median, decimals: 2)) > \(Fixed.text(a.median, decimals: 2))") }
                if c.p90 > a.p90 { losses.append("\(r.dataset) p90 \(Fixed.text(c.p90, decimals: 2)) > \(Fixed.text(a.p90, decimals: 2))") }
            }
            lines.append(pad(r.dataset, nameWidth, left: true) + pad("\(r.heldOut)", 6) + pad("\(r.refused)", 9) + pad(n, 12) + pad(span(r.weights, decimals: 2), 12)
                         + pad(pair(a), 15) + pad(pair(b), 15) + pad(pair(c), 15) + "  " + verdict)
        }
        lines.append("Site-fit target (the fit as a prior never worse than the default, median and p90, on any dataset): "
                     + (losses.isEmpty ? "met" : "NOT MET: " + losses.joined(separator: "; ")))
        return [lines.joined(separator: "\n")]
    }

    /// `new / old` as a factor, `x0.52`.
    static func ratio(_ new: Double, _ old: Double) -> String {
        old > 0 ? "x" + Fixed.text(new / old, decimals: 2) : "-"
    }
}
