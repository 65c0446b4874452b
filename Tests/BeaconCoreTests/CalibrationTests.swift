import BeaconCore
import Foundation
import Testing

@Suite("Calibration")
struct CalibrationTests {
    @Test func medianAndInterquartileRangeShrugOffOutliers() throws {
        // 30 readings around -59 with three reflections far off.
        let readings = (0..<27).map { -59.0 + Double($0 % 3 - 1) } + [-90, -85, -30]
        let sample = try CalibrationSample.measure(readings, at: 1).get()
        #expect(sample.median == -59)
        #expect(sample.spread == 2)
        #expect(sample.count == 30)
    }

    @Test func refusesTooFewReadings() {
        #expect(throws: CalibrationError.self) { try CalibrationSample.measure(Array(repeating: -60, count: 19), at: 1).get() }
        #expect((try? CalibrationSample.measure(Array(repeating: -60, count: 20), at: 1).get()) != nil)
    }

    @Test func refusesReadingsSpreadTooWide() {
        let scattered = (0..<40).map { -40.0 - Double($0) }
        #expect(throws: CalibrationError.self) { try CalibrationSample.measure(scattered, at: 1).get() }
    }

    @Test func fitRecoversTheExponentAndThePowerAtOneMetre() throws {
        let samples = [1.0, 2, 4, 8].map { d in
            CalibrationSample(distance: d, count: 100, median: -61 - 27 * log10(d), spread: 2)
        }
        let fit = try PathLossFit.fit(samples).get()
        #expect(abs(fit.exponent - 2.7) < 1e-9)
        #expect(abs(fit.measuredPower - -61) < 1e-9)
        #expect(fit.residual < 1e-9)
        #expect(fit.samples == 4)
    }

    @Test func fitRefusesTooShortASpanAndImplausibleExponents() {
        let close = [CalibrationSample(distance: 1, count: 50, median: -60, spread: 1),
                     CalibrationSample(distance: 1.5, count: 50, median: -64, spread: 1)]
        #expect(throws: CalibrationError.self) { try PathLossFit.fit(close).get() }
        #expect(throws: CalibrationError.self) { try PathLossFit.fit([close[0]]).get() }
        // Weaker when nearer: mislabelled distances.
        let reversed = [CalibrationSample(distance: 1, count: 50, median: -70, spread: 1),
                        CalibrationSample(distance: 4, count: 50, median: -60, spread: 1)]
        #expect(throws: CalibrationError.self) { try PathLossFit.fit(reversed).get() }
    }

    /// `median = power - 10 n log10(d)` at each distance, plus `noise`.
    private func samples(exponent n: Double, at distances: [Double], noise: [Double]) -> [CalibrationSample] {
        zip(distances, noise).map { d, e in CalibrationSample(distance: d, count: 50, median: -60 - 10 * n * log10(d) + e, spread: 1) }
    }

    @Test("exponents from 0.5 to 6 are fitted, below 1.5 with a warning; 0.49 and 6.01 are refused")
    func exponentRange() throws {
        for n in [0.5, 0.6, 1.49, 1.5, 5.99] {
            let fit = try PathLossFit.fit(samples(exponent: n, at: [1, 2, 4], noise: [0, 0, 0])).get()
            #expect(abs(fit.exponent - n) < 1e-9)
            #expect((fit.lowExponentWarning != nil) == (n < 1.5), "\(n)")
        }
        for n in [0.49, 6.01] {
            #expect(throws: CalibrationError.self) { try PathLossFit.fit(self.samples(exponent: n, at: [1, 2, 4], noise: [0, 0, 0])).get() }
        }
    }

    @Test("a fit whose drop over the span is no larger than the scatter around it is refused: nothing followed distance")
    func dropWithinTheScatter() throws {
        // Exponent 0.7 over 1–4 m drops 4.2 dB; the noise below leaves a residual larger than that.
        let scattered = samples(exponent: 0.7, at: [1, 1.5, 2, 3, 4], noise: [0, 6, -6, 6, 0])
        let error = try #require(throws: CalibrationError.self) { try PathLossFit.fit(scattered).get() }
        #expect(error.description.contains("nothing here follows distance"), "\(error)")
        // The same exponent measured cleanly is a fit.
        #expect(throws: Never.self) { try PathLossFit.fit(self.samples(exponent: 0.7, at: [1, 1.5, 2, 3, 4], noise: [0, 0.5, -0.5, 0.5, 0])).get() }
    }

    @Test("the median of whole-dBm readings prints exactly with the one decimal of every RSSI")
    func medianPrintsExactly() throws {
        let identity = IBeaconID(uuid: BeaconUUID(high: 1, low: 2), major: 0, minor: 7)
        for count in 20...27 {
            let readings = (0..<count).map { Double(-55 - ($0 * 5) % 11) }
            let sample = try CalibrationSample.measure(readings, at: 2).get()
            let line = OutputLine.encode(.calibration(time: Timestamp(microseconds: 0), identity: identity, address: DeviceAddress(value: 1),
                                                      advertisedPower: -59, sample: sample))
            let printed = try #require(line.firstMatch(of: /"rssi":(-?[0-9]+\.[0-9])[,}]/)?.output.1)
            #expect(Double(printed) == sample.median, "\(count) readings: median \(sample.median), printed \(printed)")
        }
    }

    @Test func linesCarryTheFlagsToUse() {
        let t = Timestamp(microseconds: 1_800_000_000_000_000)
        let identity = IBeaconID(uuid: BeaconUUID(high: 1, low: 2), major: 0, minor: 7)
        let atOneMetre = OutputLine.encode(.calibration(time: t, identity: identity, address: DeviceAddress(value: 0xC0FFEE),
                                                        advertisedPower: -59, sample: CalibrationSample(distance: 1, count: 300, median: -62.5, spread: 3)))
        #expect(atOneMetre == #"{"event":"calibration","time":"2027-01-15T08:00:00.000Z","uuid":"00000000-0000-0001-0000-000000000002","major":0,"minor":7,"address":"00:00:00:C0:FF:EE","distance":1.00,"samples":300,"rssi":-62.5,"spread":3.00,"advertisedMeasuredPower":-59,"measuredPower":-63,"flags":"--measured-power -63"}"#)
        let fit = OutputLine.encode(.fit(time: t, PathLossFit(exponent: 2.714, exponentDeviation: 0.456, measuredPower: -60.6,
                                                             measuredPowerDeviation: 2.345, residual: 0.5, samples: 3, priorWeight: 0.0625)))
        #expect(fit == #"{"event":"fit","time":"2027-01-15T08:00:00.000Z","samples":3,"pathLossExponent":2.71,"exponentDeviation":0.46,"measuredPower":-61,"measuredPowerDeviation":2.35,"residual":0.50,"priorWeight":0.0625,"flags":"--path-loss-exponent 2.71 --measured-power -61"}"#)
    }

    @Test("the fit's uncertainty: least squares' standard errors with the scatter pooled with the prior scatter, the exponent's as Student's t")
    func fitUncertainty() throws {
        // Exact samples at 1, 10 and 100 m: x = log10 d is 0, 1, 2 (mean 1, Sxx 2); no residual, so the
        // scatter is the prior's alone: sqrt(2 * 36 / (3 - 2 + 2)) = sqrt(24), with 3 degrees of freedom,
        // whose t has variance 3 / (3 - 2) times the normal's.
        let fit = try PathLossFit.fit(samples(exponent: 2, at: [1, 10, 100], noise: [0, 0, 0])).get()
        let scatter = 24.0.squareRoot()
        #expect(abs(fit.exponentDeviation - 3.0.squareRoot() * scatter / (10 * 2.0.squareRoot())) < 1e-9)
        #expect(abs(fit.measuredPowerDeviation - scatter * (1.0 / 3 + 1.0 / 2).squareRoot()) < 1e-9)
        // More samples over a wider span: a tighter exponent.
        let more = try PathLossFit.fit(samples(exponent: 2, at: [0.5, 1, 2, 4, 8, 16, 32], noise: [0, 0, 0, 0, 0, 0, 0])).get()
        #expect(more.exponentDeviation < fit.exponentDeviation)
        // Scatter around the line widens it.
        let noisy = try PathLossFit.fit(samples(exponent: 2, at: [1, 10, 100], noise: [3, -6, 3])).get()
        #expect(noisy.exponentDeviation > fit.exponentDeviation)
    }

    @Test("a handful whose points disagree is as unsure as the exponents fitted with each point left out spread")
    func jackknifeUncertainty() throws {
        // Four points on n = 2 but the farthest 12 dB low: the line through all four has a residual the
        // prior scatter dilutes, yet leaving that point out moves the exponent from 3.2 to 2.
        let handful = samples(exponent: 2, at: [1, 2, 4, 8], noise: [0, 0, 0, -12])
        let fit = try PathLossFit.fit(handful).get()
        let left = try handful.indices.map { i in try PathLossFit.fit(handful.indices.filter { $0 != i }.map { handful[$0] }).get().exponent }
        let mean = left.reduce(0, +) / 4
        let jackknife = (0.75 * left.reduce(0) { $0 + ($1 - mean) * ($1 - mean) }).squareRoot()
        #expect(abs(fit.exponentDeviation - jackknife) < 1e-9)
        // The same four points on the line: the t-scaled standard error decides, the jackknife being 0.
        let exact = try PathLossFit.fit(samples(exponent: 2, at: [1, 2, 4, 8], noise: [0, 0, 0, 0])).get()
        let x = [1.0, 2, 4, 8].map(log10), meanX = x.reduce(0, +) / 4
        let sxx = x.reduce(0) { $0 + ($1 - meanX) * ($1 - meanX) }
        let scatter = (2 * 36.0 / 4).squareRoot()
        #expect(abs(exact.exponentDeviation - 2.0.squareRoot() * scatter / (10 * sxx.squareRoot())) < 1e-9)
        #expect(fit.exponentDeviation > exact.exponentDeviation)
    }

    @Test("a handful whose left-out points its fit predicts better than the room model weighs fully")
    func clearLineWeighsFully() throws {
        // n = 1.5 exactly, well below the room model's 2...4: every left-out point is nearer the fit.
        let fit = try PathLossFit.fit(samples(exponent: 1.5, at: [0.5, 1, 2, 3, 5, 8], noise: [0, 0, 0, 0, 0, 0])).get()
        #expect(fit.priorWeight == 1)
    }

    @Test("a handful whose left-out points the room model predicts as well leaves it as it is")
    func undulatingHandfulWeighsNothing() throws {
        // n = 3, the room model's middle, with RSSI undulating 5 dB between the measured distances.
        let fit = try PathLossFit.fit(samples(exponent: 3, at: [0.5, 1, 2, 3, 5], noise: [5, 0, -5, 5, -5])).get()
        #expect(fit.priorWeight == 0)
        // Two samples cannot test each other.
        #expect(try PathLossFit.fit(samples(exponent: 1.5, at: [1, 4], noise: [0, 0])).get().priorWeight == 0)
    }

    @Test("the weight is the lightest whose held-out error is within one standard error of the best's")
    func oneStandardErrorRule() {
        // The heaviest weight is best by 0.4 m in all, 0.5 m of it on one sample of four: against the
        // lightest the paired differences (0.5, 0, 0, -0.1) have mean 0.1 m and standard error 0.14 m,
        // so the lightest is taken.
        #expect(PathLossFit.lightestWithinStandardError([[1.0, 1, 1, 1], [0.95, 0.95, 0.95, 0.95], [0.5, 1, 1, 1.1]]) == 0)
        // A gain of 0.05 m on every sample has no scatter: more than its standard error, 0.
        #expect(PathLossFit.lightestWithinStandardError([[1.0, 1, 1, 1], [0.95, 0.95, 0.95, 0.95]]) == 1)
        // One sample gives no standard error.
        #expect(PathLossFit.lightestWithinStandardError([[1.0], [0.5]]) == nil)
    }
}
