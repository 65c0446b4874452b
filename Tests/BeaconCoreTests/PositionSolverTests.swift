import BeaconCore
import Testing

@Suite struct PositionSolverTests {
    static let room = (min: Point2(x: 0, y: 0), max: Point2(x: 10, y: 10))

    /// Exact ranges from gateways at `gateways` (x, y, z) to a beacon 1 m high at `truth`.
    private func ranges(_ gateways: [(Double, Double, Double)], to truth: Point2, sigma: Double = 1) -> [RangeObservation] {
        gateways.map { g in
            let d = ((truth.x - g.0) * (truth.x - g.0) + (truth.y - g.1) * (truth.y - g.1) + (1 - g.2) * (1 - g.2)).squareRoot()
            return RangeObservation(x: g.0, y: g.1, z: g.2, distance: d, sigma: sigma)
        }
    }

    private func distance(_ a: Point2, _ b: Point2) -> Double { ((a.x - b.x) * (a.x - b.x) + (a.y - b.y) * (a.y - b.y)).squareRoot() }

    private func isFinite(_ fix: PositionFix?) -> Bool {
        guard let fix else { return false }
        return fix.point.x.isFinite && fix.point.y.isFinite && fix.error.isFinite && fix.error > 0
    }

    @Test func noUsableObservationIsNoFix() {
        #expect(PositionSolver.solve([], within: Self.room, start: nil) == nil)
        let broken = [RangeObservation(x: .nan, y: 1, z: 1, distance: 2, sigma: 1),
                      RangeObservation(x: 1, y: 1, z: 1, distance: .nan, sigma: 1),
                      RangeObservation(x: 1, y: 1, z: 1, distance: -1, sigma: 1),
                      RangeObservation(x: 1, y: 1, z: 1, distance: 2, sigma: 0),
                      RangeObservation(x: 1, y: 1, z: 1, distance: 2, sigma: -.infinity),
                      RangeObservation(x: 1, y: 1, z: 1, distance: .infinity, sigma: 1)]
        #expect(PositionSolver.solve(broken, within: Self.room, start: nil) == nil)
    }

    @Test func oneGatewayIsItsPositionWithItsHorizontalDistanceAsTheErrorAtLeastOneMetre() {
        let far = PositionSolver.solve([RangeObservation(x: 2, y: 3, z: 1, distance: 4, sigma: 1)], within: Self.room, start: nil)
        #expect(far == PositionFix(point: Point2(x: 2, y: 3), error: 4))
        let high = PositionSolver.solve([RangeObservation(x: 2, y: 3, z: 4, distance: 5, sigma: 1)], within: Self.room, start: nil)
        #expect(high == PositionFix(point: Point2(x: 2, y: 3), error: 4))
        let near = PositionSolver.solve([RangeObservation(x: 2, y: 3, z: 1, distance: 0.3, sigma: 1)], within: Self.room, start: nil)
        #expect(near == PositionFix(point: Point2(x: 2, y: 3), error: 1))
    }

    @Test func distancesAreClampedToAHundredMetres() {
        let fix = PositionSolver.solve([RangeObservation(x: 2, y: 3, z: 1, distance: 250, sigma: 1)], within: Self.room, start: nil)
        #expect(fix?.error == 100)
    }

    @Test func twoGatewaysGiveThePointBetweenThemAtTheRatioOfTheirDistances() throws {
        let fix = try #require(PositionSolver.solve(ranges([(0, 0, 1), (4, 0, 1)], to: Point2(x: 1, y: 0)), within: Self.room, start: nil))
        #expect(fix == PositionFix(point: Point2(x: 1, y: 0), error: PositionSolver.minimumError))
        let offLine = try #require(PositionSolver.solve(ranges([(0, 0, 1), (4, 0, 1)], to: Point2(x: 2, y: 3)), within: Self.room, start: nil))
        #expect(abs(offLine.point.x - 2) < 1e-9 && offLine.point.y == 0)
        #expect(offLine.error > 2.5)  // the true point is 3 m off the line
    }

    @Test func collinearGatewaysGiveAFinitePointOnTheirLine() throws {
        let line = [(1.0, 5.0, 1.0), (4.0, 5.0, 1.0), (8.0, 5.0, 1.0)]
        let onLine = try #require(PositionSolver.solve(ranges(line, to: Point2(x: 3, y: 5)), within: Self.room, start: nil))
        #expect(distance(onLine.point, Point2(x: 3, y: 5)) < 0.05)
        let offLine = PositionSolver.solve(ranges(line, to: Point2(x: 3, y: 7)), within: Self.room, start: nil)
        #expect(isFinite(offLine))
        #expect(abs(offLine!.point.x - 3) < 0.5)
        #expect(offLine!.error >= 1 && offLine!.error < 6)
    }

    @Test func gatewaysAllAtOnePointGiveThatPoint() throws {
        let same = (0..<4).map { RangeObservation(x: 6, y: 2, z: 1, distance: Double($0) + 2, sigma: 1) }
        let fix = try #require(PositionSolver.solve(same, within: Self.room, start: nil))
        #expect(fix.point == Point2(x: 6, y: 2))
        #expect(fix.error >= 2 && fix.error.isFinite)
    }

    @Test func findsTheBeaconFromThreeOrMoreGatewaysAtTheirHeights() throws {
        let truth = Point2(x: 3, y: 7)
        let gateways = [(0.0, 0.0, 2.5), (10.0, 0.0, 2.5), (10.0, 10.0, 1.0), (0.0, 10.0, 2.0)]
        let fix = try #require(PositionSolver.solve(ranges(gateways, to: truth, sigma: 0.5), within: Self.room, start: nil))
        #expect(distance(fix.point, truth) < 1e-3)
        #expect(fix.error == PositionSolver.minimumError || fix.error < 1)
    }

    @Test func aDistanceOfZeroPutsTheBeaconAtThatGateway() throws {
        let gateways = [(2.0, 2.0, 1.0), (10.0, 0.0, 1.0), (5.0, 10.0, 1.0)]
        let fix = try #require(PositionSolver.solve(ranges(gateways, to: Point2(x: 2, y: 2)), within: Self.room, start: nil))
        #expect(distance(fix.point, Point2(x: 2, y: 2)) < 0.01)
    }

    @Test func theRobustLossRejectsAnOutlierThatPullsPlainLeastSquaresAway() throws {
        let truth = Point2(x: 3, y: 4)
        let gateways = [(0.0, 0.0, 1.0), (10.0, 0.0, 1.0), (10.0, 10.0, 1.0), (0.0, 10.0, 1.0), (5.0, 5.0, 1.0)]
        var observations = ranges(gateways, to: truth, sigma: 0.5)
        observations[1].distance += 6
        let fix = try #require(PositionSolver.solve(observations, within: Self.room, start: nil))
        #expect(distance(fix.point, truth) < 0.5)

        // Plain least squares, by a search over a 1 cm grid of the room.
        var best = (point: Point2(x: 0, y: 0), cost: Double.infinity)
        for i in 0...1000 {
            for j in 0...1000 {
                let p = Point2(x: Double(i) / 100, y: Double(j) / 100)
                let cost = observations.reduce(0.0) { sum, o in
                    let r = ((p.x - o.x) * (p.x - o.x) + (p.y - o.y) * (p.y - o.y)).squareRoot() - o.distance
                    return sum + r * r
                }
                if cost < best.cost { best = (p, cost) }
            }
        }
        #expect(distance(best.point, truth) > 0.5)
    }

    @Test func theFixStaysWithinTheBoundsAndStartsFromTheGivenPoint() throws {
        let gateways = [(0.0, 0.0, 1.0), (10.0, 0.0, 1.0), (0.0, 10.0, 1.0)]
        let outside = try #require(PositionSolver.solve(ranges(gateways, to: Point2(x: 14, y: 12)), within: Self.room, start: nil))
        #expect(outside.point.x <= 10 && outside.point.y <= 10)
        let started = try #require(PositionSolver.solve(ranges(gateways, to: Point2(x: 6, y: 6)), within: Self.room, start: Point2(x: 6, y: 6)))
        #expect(distance(started.point, Point2(x: 6, y: 6)) < 1e-3)
    }

    @Test func neverGivesANaNWhateverTheObservations() {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next() -> Double {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Double(state >> 11) / Double(1 << 53)
        }
        let odd: [Double] = [0, -0.0, 1e-300, 1e300, -5, .nan, .infinity, 100, 1e-9]
        for round in 0..<2000 {
            let count = 1 + Int(next() * 6)
            let observations = (0..<count).map { _ in
                let pick = { () -> Double in next() < 0.1 ? odd[Int(next() * Double(odd.count))] : next() * 20 - 5 }
                // Every other round, gateways on one line or at one point.
                let x = round % 3 == 0 ? 4 : pick(), y = round % 3 == 1 ? 2 * x : pick()
                return RangeObservation(x: x, y: y, z: pick(), distance: pick(), sigma: pick())
            }
            let start = next() < 0.5 ? Point2(x: next() * 10, y: .nan) : nil
            guard let fix = PositionSolver.solve(observations, within: Self.room, start: start) else { continue }
            #expect(isFinite(fix), "round \(round): \(observations) gave \(fix)")
        }
    }
}
