import BeaconCore

/// How a beacon moves over a scene: in a scene without a site, its distance from the receiver; in a site
/// scene, its point on the site's floor plan (`at`, `route`). Distances are metres, speeds metres per
/// second, and times count from the start of the scene (not from the beacon's own start).
public enum BeaconPath: Hashable, Sendable {
    /// Standing still at `distance`.
    case standing(distance: Double)
    /// Pacing up and down: from `near` out to `far` at `speed`, a `pause` there, back to `near`, a
    /// `pause` there, and again, from the start of the scene to its end.
    case walkingAwayAndBack(near: Double, far: Double, speed: Double, pause: Micros)
    /// Walking past in a straight line at `speed`, `closest` metres away at `closestAt`:
    /// distance = √(closest² + (speed · (t − closestAt))²).
    case passingBy(closest: Double, speed: Double, closestAt: Micros)
    /// At `distance` until `leaveAt`, then walking out to `away` at `speed`, staying there for
    /// `awayFor`, and walking back at `speed` to stay at `distance`.
    case leavingAndReturning(distance: Double, away: Double, speed: Double, leaveAt: Micros, awayFor: Micros)
    /// Standing at a point of a site's floor plan, on `floor` (a level of the site).
    case at(Point2, floor: Int = 0)
    /// Walking a route on a site's floor plan.
    case route(Route)

    /// Walking pace (m/s) of a path in a scene file that names no speed.
    public static let defaultSpeed = 1.2

    /// Whether the path is a point on a site's floor plan (`at`, `route`) rather than a distance from a
    /// receiver.
    public var isOnFloorPlan: Bool {
        switch self {
        case .at, .route: true
        case .standing, .walkingAwayAndBack, .passingBy, .leavingAndReturning: false
        }
    }

    /// Where the beacon is at `time` after the start of the scene: its point on the floor plan, or, for
    /// the kinds that are distances, the point that far along the x axis from a receiver at the origin.
    public func place(at time: Micros) -> Point2 {
        switch self {
        case .at(let point, _): point
        case .route(let route): route.point(at: time.seconds)
        case .standing, .walkingAwayAndBack, .passingBy, .leavingAndReturning: Point2(x: distance(at: time), y: 0)
        }
    }

    /// The true distance in metres from the receiver at `time` after the start of the scene; for `at` and
    /// `route`, which belong to site scenes, the distance from the floor plan's origin.
    public func distance(at time: Micros) -> Double {
        let t = time.seconds
        switch self {
        case .at, .route:
            return place(at: time).distance(to: Point2(x: 0, y: 0))
        case .standing(let distance):
            return distance
        case let .walkingAwayAndBack(near, far, speed, pause):
            let leg = abs(far - near) / speed
            let rest = pause.seconds
            let period = 2 * (leg + rest)
            guard period > 0 else { return near }
            var phase = t.truncatingRemainder(dividingBy: period)
            if phase < 0 { phase += period }
            let outward: Double
            if phase < leg {
                outward = phase
            } else if phase < leg + rest {
                outward = leg
            } else if phase < 2 * leg + rest {
                outward = 2 * leg + rest - phase
            } else {
                outward = 0
            }
            return near + (far - near) * (leg > 0 ? outward / leg : 0)
        case let .passingBy(closest, speed, closestAt):
            let along = speed * (t - closestAt.seconds)
            return (closest * closest + along * along).squareRoot()
        case let .leavingAndReturning(distance, away, speed, leaveAt, awayFor):
            let travel = abs(away - distance) / speed
            let leaving = t - leaveAt.seconds
            let returning = leaving - travel - awayFor.seconds
            let fraction: Double
            if leaving <= 0 {
                fraction = 0
            } else if leaving < travel {
                fraction = leaving / travel
            } else if returning <= 0 {
                fraction = 1
            } else if returning < travel {
                fraction = 1 - returning / travel
            } else {
                fraction = 0
            }
            return distance + (away - distance) * fraction
        }
    }

    /// The path's kind as scene files name it.
    public var kind: String {
        switch self {
        case .standing: "standing"
        case .walkingAwayAndBack: "walkingAwayAndBack"
        case .passingBy: "passingBy"
        case .leavingAndReturning: "leavingAndReturning"
        case .at: "at"
        case .route: "route"
        }
    }
}
