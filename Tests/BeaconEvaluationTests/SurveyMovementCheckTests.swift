import BeaconCore
@testable import BeaconEvaluation
import Testing

@Suite("make eval-fleet's check of the survey's moved-beacon refusal")
struct SurveyMovementCheckTests {
    @Test("the house surveyed as make eval-fleet does: points whose holder walked 4 m away are refused as moved, still points kept, each with few exceptions")
    func movedRefusedStillKept() throws {
        let seed = FleetScenes.house.seeds[0] &+ FleetEvaluation.movementSeed
        let check = try SimulatedSurvey.movementCheck(FleetScenes.house.scene, seed: seed)
        #expect(check.still > 10 && check.moved == check.still, "\(check)")
        #expect(check.stillRefusedOtherwise == 0, "\(check.summary)")
        // Slow fading takes the odd still point past the bounds, and a move between two places a gateway
        // hears alike stays within them; but a move is told from standing still nearly always.
        #expect(Double(check.stillRefused) <= 0.1 * Double(check.still), "\(check.summary)")
        #expect(Double(check.movedRefused) >= 0.8 * Double(check.moved), "\(check.summary)")
    }
}
