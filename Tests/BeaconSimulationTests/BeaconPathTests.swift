import BeaconCore
import BeaconSimulation
import Testing

@Suite("Beacon paths")
struct BeaconPathTests {
    func distance(_ path: BeaconPath, _ seconds: Double) -> Double {
        path.distance(at: Micros(Int64(seconds * 1_000_000)))
    }

    @Test func standingNeverMoves() {
        let path = BeaconPath.standing(distance: 2.5)
        for t in [0.0, 1, 3600] { #expect(distance(path, t) == 2.5) }
    }

    @Test("walking away and back: out at speed, a pause at each end, then again")
    func walkingAwayAndBack() {
        // 1 m to 11 m at 2 m/s: 5 s each way, 1 s pauses, a 12 s period.
        let path = BeaconPath.walkingAwayAndBack(near: 1, far: 11, speed: 2, pause: .seconds(1))
        let expected: [(Double, Double)] = [
            (0, 1), (2.5, 6), (5, 11), (5.5, 11), (6, 11), (8.5, 6), (11, 1), (11.5, 1), (12, 1), (14.5, 6), (17, 11),
            (12 * 100 + 2.5, 6),
        ]
        for (t, d) in expected { #expect(abs(distance(path, t) - d) < 1e-9, "at \(t) s") }
    }

    @Test("walking without pauses turns round at once; a zero-length walk stays put")
    func walkingEdges() {
        let path = BeaconPath.walkingAwayAndBack(near: 2, far: 4, speed: 1, pause: Micros(0))
        #expect(abs(distance(path, 2) - 4) < 1e-9)
        #expect(abs(distance(path, 3) - 3) < 1e-9)
        #expect(abs(distance(path, 4) - 2) < 1e-9)
        #expect(distance(.walkingAwayAndBack(near: 3, far: 3, speed: 1, pause: .seconds(1)), 7) == 3)
    }

    @Test("passing by: closest at closestAt, symmetric, Pythagoras elsewhere")
    func passingBy() {
        let path = BeaconPath.passingBy(closest: 3, speed: 2, closestAt: .seconds(10))
        #expect(distance(path, 10) == 3)
        #expect(abs(distance(path, 12) - 5) < 1e-9) // 4 m along, 3 m across
        #expect(abs(distance(path, 8) - 5) < 1e-9)
        #expect(abs(distance(path, 0) - (9 + 400.0).squareRoot()) < 1e-9)
        #expect(distance(.passingBy(closest: 0, speed: 1, closestAt: .seconds(5)), 5) == 0)
    }

    @Test("leaving and returning: there, out, away, back, there again")
    func leavingAndReturning() {
        // 2 m, out to 12 m at 1 m/s from 10 s (arrives 20 s), away until 50 s, back by 60 s.
        let path = BeaconPath.leavingAndReturning(distance: 2, away: 12, speed: 1, leaveAt: .seconds(10), awayFor: .seconds(30))
        let expected: [(Double, Double)] = [(0, 2), (10, 2), (15, 7), (20, 12), (35, 12), (50, 12), (55, 7), (60, 2), (600, 2)]
        for (t, d) in expected { #expect(abs(distance(path, t) - d) < 1e-9, "at \(t) s") }
    }
}
