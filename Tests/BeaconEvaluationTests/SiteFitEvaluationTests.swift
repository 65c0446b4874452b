import BeaconCore
import BeaconEvaluation
import Testing
#if canImport(Glibc)
import Glibc
#endif

@Suite("Site-fit evaluation, leave one distance out")
struct SiteFitEvaluationTests {
    /// 60 s at each distance of RSSI exactly on `-60 - 10 n log10 d`.
    static func file(exponent n: Double, centimetres: [Int]) -> ResearchFile {
        ResearchEvaluationTests.file("line", centimetres.map { cm in
            (cm, Int8((-60 - 10 * n * log10(Double(cm) / 100)).rounded()), 60)
        })
    }

    @Test("where RSSI follows one line, every held-out distance is fitted on the others; the fit as a prior beats the default")
    func lineFollowingDistance() throws {
        let dataset = try #require(SiteFitEvaluation.dataset(Self.file(exponent: 1.6, centimetres: [50, 100, 200, 300, 500, 800])))
        #expect(dataset.measuredPower == -60)
        let result = SiteFitEvaluation.evaluate(dataset)
        // Every distance but the 1 m calibration is held out once, and fitted on the handful without it.
        #expect(result.heldOut == 5 && result.refused == 0)
        // Whole-dBm readings move the slope a little.
        #expect(result.exponents.allSatisfy { abs($0 - 1.6) < 0.15 }, "\(result.exponents)")
        // Each handful predicts its own left-out points better than the room model: full weight.
        #expect(result.weights.count == 5 && result.weights.allSatisfy { $0 == 1 }, "\(result.weights)")
        func median(_ ticks: [ScoredTick]) -> Double { Statistics.median(ticks.map(\.absoluteError)) ?? .infinity }
        #expect(!result.priorTicks.isEmpty && result.priorTicks.count == result.defaultTicks.count)
        #expect(median(result.priorTicks) < median(result.defaultTicks))
        #expect(median(result.rawFitTicks) < 0.5)
        let report = SiteFitEvaluation.report([result]).joined(separator: "\n")
        #expect(report.contains("never worse than the default, median and p90, on any dataset): met"), "\(report)")
    }

    @Test("a set without readings at 1 m has no measured power to keep and is not a dataset")
    func needsOneMetre() {
        #expect(SiteFitEvaluation.dataset(Self.file(exponent: 2, centimetres: [50, 200, 300])) == nil)
    }

    @Test("a handful that does not follow distance is refused as calibrate refuses it, and ranged by the default")
    func refusedFits() throws {
        // Flat RSSI: nothing follows distance.
        let flat = ResearchEvaluationTests.file("flat", [50, 100, 200, 300].map { ($0, -60, 60) })
        let result = SiteFitEvaluation.evaluate(try #require(SiteFitEvaluation.dataset(flat)))
        #expect(result.refused == result.heldOut && result.heldOut == 3)
        #expect(result.priorTicks == result.defaultTicks && result.rawFitTicks == result.defaultTicks)
    }
}
