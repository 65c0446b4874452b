import BeaconCore
import Testing

@Suite struct MotionFilterTests {
    private func distance(_ a: Point2, _ b: Point2) -> Double { ((a.x - b.x) * (a.x - b.x) + (a.y - b.y) * (a.y - b.y)).squareRoot() }

    private func fix(_ x: Double, _ y: Double, error: Double = 1) -> PositionFix { PositionFix(point: Point2(x: x, y: y), error: error) }

    @Test func theFirstFixIsTakenAsItIs() {
        var filter = MotionFilter()
        #expect(filter.current == nil)
        #expect(filter.update(fix: fix(3, 4, error: 2), at: .seconds(10)) == fix(3, 4, error: 2))
        #expect(filter.current?.point == Point2(x: 3, y: 4))
    }

    @Test func aStationaryBeaconsNoisyFixesConvergeAndTheErrorShrinks() throws {
        var filter = MotionFilter()
        let truth = Point2(x: 5, y: 5)
        // Noise of up to ±0.8 m, the same every run.
        let offsets = [0.8, -0.5, 0.3, -0.7, 0.6, -0.2, 0.1, -0.8, 0.5, -0.4]
        var errors: [Double] = []
        var estimate = PositionFix(point: truth, error: 0)
        // Four fixes a second for 20 seconds.
        for step in 0..<80 {
            let dx = offsets[step % offsets.count], dy = offsets[(step * 3 + 1) % offsets.count]
            estimate = filter.update(fix: fix(truth.x + dx, truth.y + dy), at: .milliseconds(Int64(step) * 250))
            errors.append(estimate.error)
        }
        // Walking-speed process noise keeps it from shrinking far below the fixes' own error.
        #expect(errors.last! < 0.65 * errors.first!)
        #expect(errors[79] < errors[4] && errors[4] < errors[0])
        #expect(distance(estimate.point, truth) < 0.4)
    }

    @Test func aTenMetreJumpInOneSecondMovesAtMostTheSpeedCapPlusTheError() throws {
        var filter = MotionFilter()
        var before = PositionFix(point: Point2(x: 0, y: 0), error: 0)
        for second in 0..<10 {
            before = filter.update(fix: fix(0, 0, error: 0.5), at: .seconds(Int64(second)))
        }
        let after = filter.update(fix: fix(10, 0, error: 0.5), at: .seconds(10))
        let moved = distance(after.point, before.point)
        #expect(moved > MotionFilter.maximumSpeed)  // the cap, not the gain, held it back
        #expect(moved <= MotionFilter.maximumSpeed * 1 + before.error)
    }

    @Test func theVelocityNeverExceedsTheSpeedCap() {
        var filter = MotionFilter()
        for tenth in 0..<100 {
            _ = filter.update(fix: fix(Double(tenth) * 0.5, 0, error: 0.3), at: .milliseconds(Int64(tenth) * 100))
            let v = filter.velocity
            #expect((v.x * v.x + v.y * v.y).squareRoot() <= MotionFilter.maximumSpeed + 1e-9)
        }
    }

    @Test func aFixNoLaterThanTheLastChangesNothing() {
        var filter = MotionFilter()
        _ = filter.update(fix: fix(1, 1), at: .seconds(5))
        let state = filter.update(fix: fix(2, 1), at: .seconds(6))
        var replayed = filter
        #expect(filter.update(fix: fix(9, 9), at: .seconds(4)) == state)
        #expect(filter.update(fix: fix(9, 9), at: .seconds(6)) == state)
        #expect(filter.update(fix: fix(3, 1), at: .seconds(7)) == replayed.update(fix: fix(3, 1), at: .seconds(7)))
    }

    @Test func aNonFiniteFixChangesNothing() {
        var filter = MotionFilter()
        let nan = PositionFix(point: Point2(x: .nan, y: 0), error: 1)
        #expect(filter.update(fix: nan, at: .seconds(1)).point.x.isNaN)
        #expect(filter.current == nil)
        let state = filter.update(fix: fix(1, 1), at: .seconds(2))
        #expect(filter.update(fix: PositionFix(point: Point2(x: 1, y: 1), error: .infinity), at: .seconds(3)) == state)
        #expect(filter.update(fix: nan, at: .seconds(4)) == state)
    }

    @Test func farApartTimesStayFinite() {
        var filter = MotionFilter()
        _ = filter.update(fix: fix(1, 1), at: Micros(.min))
        let after = filter.update(fix: fix(2, 2), at: Micros(.max))
        #expect(after.point.x.isFinite && after.point.y.isFinite && after.error.isFinite)
    }
}
