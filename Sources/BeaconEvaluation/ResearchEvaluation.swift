#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import BeaconCore

/// Runs the real measurements through the region monitor the tool ships, one model at a time.
///
/// Each file is calibrated from its own data (`ResearchFile.measuredPower`: the median RSSI at exactly
/// 1 m) and scored at every other distance. Its readings become sightings of one iBeacon at their own
/// times (0.2–1.3 readings per second, with gaps while the robot moves), through a monitor with the
/// tool's defaults (`--exit-after 10s`, `--interval 1s`). Every ranging tick at which the beacon was
/// heard is scored against the distance of the latest reading at or before the tick.
public enum ResearchEvaluation {
    static let identity = IBeaconID(uuid: BeaconUUID(high: 0x4845_5241_4C44_4544, low: 0x4953_4F4E_0000_0001),
                                         major: 1, minor: 1)
    static let address = DeviceAddress(value: 0xC0_00_00_00_00_01)

    /// The ranging ticks of `file` at which the beacon was heard, the calibration distance included.
    public static func ticks(_ file: ResearchFile, measuredPower: Int8, estimator: RangingEstimator) -> [ScoredTick] {
        var monitor = RegionMonitor(regions: [BeaconRegion(uuid: identity.uuid)], estimator: estimator,
                                    hashKey: MultilinearHash(seed: 0))
        var ticks: [ScoredTick] = []
        var truth: Double?
        func emit(_ output: MonitorOutput) {
            guard case .range(_, let time, let beacons) = output, let truth else { return }
            for beacon in beacons where beacon.accuracy >= 0 {
                ticks.append(ScoredTick(time: time, truth: truth, estimate: beacon.accuracy, proximity: beacon.proximity))
            }
        }
        for reading in file.readings {
            // Deadlines up to the reading's time run first, so ticks before it still see the previous truth.
            monitor.sighting(Sighting(identity: identity, measuredPower: measuredPower, rssi: reading.rssi, address: address,
                                      addressType: .publicDevice, time: reading.time), emit: emit)
            truth = reading.metres
        }
        if let last = file.readings.last { monitor.tick(now: last.time + monitor.interval, emit: emit) }
        return ticks
    }

    /// The ticks that are scored: all but those at the calibration distance.
    public static func scored(_ ticks: [ScoredTick]) -> [ScoredTick] {
        let calibration = Double(ResearchFile.calibrationCentimetres) / 100
        return ticks.filter { $0.truth != calibration }
    }

    /// The log-distance exponent that fits `files` best: least squares of `attenuation = 10 n log10 d`
    /// over every reading (0 m and the 1 m calibration left out), each file calibrated from its own
    /// data and weighted equally whatever its number of readings. Nil when nothing can be fitted.
    public static func fittedExponent(_ files: [ResearchFile]) -> Double? {
        var numerator = 0.0, denominator = 0.0
        for file in files {
            guard let measuredPower = file.measuredPower else { continue }
            var fileNumerator = 0.0, fileDenominator = 0.0, count = 0
            for reading in file.readings where reading.centimetres > 0 && reading.centimetres != ResearchFile.calibrationCentimetres {
                let x = 10 * log10(reading.metres)
                fileNumerator += (Double(measuredPower) - Double(reading.rssi)) * x
                fileDenominator += x * x
                count += 1
            }
            guard count > 0 else { continue }
            numerator += fileNumerator / Double(count)
            denominator += fileDenominator / Double(count)
        }
        guard denominator > 0 else { return nil }
        let n = numerator / denominator
        return n.isFinite && n > 0 ? n : nil
    }

    /// One file's evaluation.
    public struct FileResult: Sendable {
        public var file: String
        public var measuredPower: Int8
        /// Fitted on the other phone pairs only; nil when they give none (the row is then left out).
        public var fittedExponent: Double?
        public var models: [EvalModel]
        /// Per model, in `models` order: the scored ticks.
        public var ticks: [[ScoredTick]]
        /// The file's readings, for the plots.
        public var readings: [ResearchReading]

        public var dataset: DatasetResult {
            var detail = "real data: measured power \(measuredPower) dBm (median at 1 m), \(ticks.first?.count ?? 0) ticks scored"
            if let n = fittedExponent { detail += ", fitted n = \(Fixed.text(n, decimals: 2)) on the other pairs" }
            return DatasetResult(name: file, detail: detail, metrics: [.medianError, .p90Error, .proximityAccuracy],
                                 rows: zip(models, ticks).map { ($0.name, TickScoring.scores($1)) })
        }
    }

    /// Every file through every model, leaving the file's own phone pair out of anything fitted. A file
    /// without readings at 1 m cannot be calibrated and is left out, with a note.
    public static func evaluate(_ files: [ResearchFile], models: [EvalModel], notes: inout [String]) -> [FileResult] {
        var results: [FileResult] = []
        for file in files {
            guard let measuredPower = file.measuredPower else {
                notes.append("\(file.name): no plausible median RSSI at exactly 1 m to calibrate from; left out")
                continue
            }
            let exponent = fittedExponent(files.filter { $0.pair != file.pair })
            var fileModels = models
            if let exponent {
                // After beacon's own variants, before the peers.
                let at = fileModels.firstIndex { $0.name == EvalModel.noHysteresisName }.map { $0 + 1 } ?? fileModels.count
                fileModels.insert(.fittedLogDistance(exponent: exponent), at: at)
            }
            results.append(FileResult(file: file.name, measuredPower: measuredPower, fittedExponent: exponent,
                                      models: fileModels, ticks: [], readings: file.readings))
        }
        // Every (file, model) run on its own.
        let jobs = results.indices.flatMap { r in
            results[r].models.map { (r, ResearchFile(name: results[r].file, readings: results[r].readings),
                                     results[r].measuredPower, $0.estimator) }
        }
        let ticks = Parallel.map(jobs) { _, file, measuredPower, estimator in
            scored(Self.ticks(file, measuredPower: measuredPower, estimator: estimator))
        }
        for (job, scored) in zip(jobs, ticks) { results[job.0].ticks.append(scored) }
        return results
    }
}
