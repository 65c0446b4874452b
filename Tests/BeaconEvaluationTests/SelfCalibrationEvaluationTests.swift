import BeaconCore
@testable import BeaconEvaluation
import Testing

@Suite("make eval-fleet's self-calibration scene")
struct SelfCalibrationEvaluationTests {
    @Test("one run: every gateway's fitted offset within 2 dB and exponent within 0.3 of the simulated truth, only the walking beacon scored")
    func fitWithinTargets() throws {
        let outcome = try SelfCalibrationEvaluation.run(seed: SelfCalibrationEvaluation.scene.seeds[0])
        let fit = try #require(outcome.fit)
        #expect(fit.gateways.count == SelfCalibrationEvaluation.gateways.count)
        for (index, gateway) in SelfCalibrationEvaluation.gateways.enumerated() {
            let fitted = try #require(fit.fit(ofGateway: index))
            #expect(abs(fitted.offset - gateway.offset) <= SelfCalibrationEvaluation.offsetTarget, "\(gateway.name) \(fitted)")
            #expect(abs(fitted.exponent - gateway.exponent) <= SelfCalibrationEvaluation.exponentTarget, "\(gateway.name) \(fitted)")
        }
        #expect(outcome.calibrated.positionErrors.count == outcome.uncalibrated.positionErrors.count)
        #expect(outcome.calibrated.positionErrors.count > 500)
    }
}
