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

    func point(_ path: BeaconPath, _ seconds: Double) -> Point2 {
        path.place(at: Micros(Int64(seconds * 1_000_000)))
    }

    func near(_ a: Point2, _ x: Double, _ y: Double) -> Bool {
        abs(a.x - x) < 1e-9 && abs(a.y - y) < 1e-9
    }

    @Test("at: one point of the floor plan, whatever the time")
    func standingAtAPoint() {
        let path = BeaconPath.at(Point2(x: 3, y: -4))
        for t in [0.0, 1, 3600] { #expect(point(path, t) == Point2(x: 3, y: -4)) }
        #expect(path.isOnFloorPlan && !BeaconPath.standing(distance: 1).isOnFloorPlan)
    }

    @Test("the distance kinds are points on the x axis, at their distance from a receiver at the origin")
    func distancesArePointsOnTheXAxis() {
        let path = BeaconPath.leavingAndReturning(distance: 2, away: 12, speed: 1, leaveAt: .seconds(10), awayFor: .seconds(30))
        for t in [0.0, 15, 35, 55] { #expect(point(path, t) == Point2(x: distance(path, t), y: 0)) }
    }

    @Test("a route: at each point at its time, a pause there, then straight on at the route's speed")
    func routeTimesPausesAndSpeed() {
        // (0,0) at 0, pause 5 s; 10 m to (10,0) at 2 m/s: there at 10 s; 6 m to (10,6) by its time, 20 s
        // (0.6 m/s), pause 4 s; 6 m back to (10,0) at 2 m/s: there at 27 s.
        let route = Route([
            Route.Stop(at: Point2(x: 0, y: 0), pause: .seconds(5)),
            Route.Stop(at: Point2(x: 10, y: 0)),
            Route.Stop(at: Point2(x: 10, y: 6), time: .seconds(20), pause: .seconds(4)),
            Route.Stop(at: Point2(x: 10, y: 0)),
        ], speed: 2)
        #expect(route.arrivals == [0, 10, 20, 27])
        #expect(route.departures == [5, 10, 24, 27])
        #expect(route.firstBackwardsStop == nil)
        let path = BeaconPath.route(route)
        let expected: [(Double, Double, Double)] = [
            (0, 0, 0), (3, 0, 0), (5, 0, 0), (7.5, 5, 0), (10, 10, 0), (15, 10, 3), (20, 10, 6), (22, 10, 6), (24, 10, 6),
            (25.5, 10, 3), (27, 10, 0), (3600, 10, 0),
        ]
        for (t, x, y) in expected { #expect(near(point(path, t), x, y), "at \(t) s: \(point(path, t))") }
    }

    @Test("a route whose first point has a later time stands there until then; the default speed walks at 1.2 m/s")
    func routeBeforeTheFirstTime() {
        let path = BeaconPath.route(Route([Route.Stop(at: Point2(x: 1, y: 1), time: .seconds(30)), Route.Stop(at: Point2(x: 1, y: 13))]))
        #expect(near(point(path, 0), 1, 1) && near(point(path, 30), 1, 1))
        #expect(near(point(path, 35), 1, 7)) // 6 m in 5 s at 1.2 m/s
        #expect(near(point(path, 40), 1, 13) && near(point(path, 100), 1, 13))
    }

    @Test("a time before the departure from the point before goes back: the route names that point")
    func routeGoingBackInTime() {
        let route = Route([Route.Stop(at: Point2(x: 0, y: 0), time: .seconds(10), pause: .seconds(5)),
                           Route.Stop(at: Point2(x: 1, y: 0), time: .seconds(14)),
                           Route.Stop(at: Point2(x: 2, y: 0), time: .seconds(12))])
        #expect(route.firstBackwardsStop == 1)
        // Arriving exactly as the pause ends is not going back; a zero-length jump is allowed.
        #expect(Route([Route.Stop(at: Point2(x: 0, y: 0), pause: .seconds(2)), Route.Stop(at: Point2(x: 5, y: 0), time: .seconds(2))])
            .firstBackwardsStop == nil)
    }
}
