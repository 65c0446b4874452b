import BeaconCore

/// A walk on a site's floor plan: the beacon is at each stop at its time, stands there for the stop's
/// pause, and goes on in a straight line at constant speed to the next. Before the first stop's time it
/// stands at the first stop, after the last stop's departure it stands at the last. Each stop is on a
/// floor; a leg between stops on different floors is a flight of stairs, climbed at a steady pace.
public struct Route: Hashable, Sendable {
    /// One point of a route, as a scene file gives it.
    public struct Stop: Hashable, Sendable {
        public var at: Point2
        /// When the beacon is there, from the start of the scene; nil: walking there from the previous
        /// stop at the route's speed (the first stop: at 0).
        public var time: Micros?
        /// How long it stands there.
        public var pause: Micros
        /// The floor (a level of the site) the point is on.
        public var floor: Int

        public init(at: Point2, time: Micros? = nil, pause: Micros = Micros(0), floor: Int = 0) {
            self.at = at
            self.time = time
            self.pause = pause
            self.floor = floor
        }
    }

    /// The most stops a route holds, as many as a site's room polygon.
    public static let maximumStops = Site.maximumPolygonPoints

    public let stops: [Stop]
    /// Metres per second to stops without a time.
    public let speed: Double
    /// Seconds from the start of the scene at which the beacon reaches each stop, and leaves it: worked
    /// out once, so finding the beacon at an instant is a search, not a walk along the route.
    public let arrivals: [Double]
    public let departures: [Double]

    public init(_ stops: [Stop], speed: Double = BeaconPath.defaultSpeed) {
        self.stops = stops
        self.speed = speed
        var arrivals: [Double] = [], departures: [Double] = []
        for (index, stop) in stops.enumerated() {
            let arrival: Double
            if let time = stop.time {
                arrival = time.seconds
            } else if let previous = departures.last {
                arrival = previous + stops[index - 1].at.distance(to: stop.at) / speed
            } else {
                arrival = 0
            }
            arrivals.append(arrival)
            departures.append(arrival + stop.pause.seconds)
        }
        self.arrivals = arrivals
        self.departures = departures
    }

    /// The first stop whose time comes before the departure from the stop before it: the beacon would
    /// have to go back in time. Nil when times never go backwards.
    public var firstBackwardsStop: Int? {
        arrivals.indices.dropFirst().first { arrivals[$0] < departures[$0 - 1] }
    }

    /// `seconds` to the millisecond, for messages: `12.500s`.
    static func text(seconds: Double) -> String {
        Micros(Int64(min(max(seconds, 0) * 1_000_000, 9e18).rounded())).secondsToTheMillisecond
    }

    /// Where the beacon is `time` seconds after the start of the scene: its point, the floor it is on (on
    /// stairs, the floor it left until half-way, then the one it climbs to), and the floors it is between
    /// with how far it has climbed (0 to 1; the same floor twice off the stairs).
    public func position(at time: Double) -> (point: Point2, floor: Int, between: (from: Int, to: Int, share: Double)) {
        guard let first = stops.first else { return (Point2(x: 0, y: 0), 0, (0, 0, 0)) }
        guard time > arrivals[0] else { return (first.at, first.floor, (first.floor, first.floor, 0)) }
        // The last stop reached at or before `time` (arrivals never decrease on a valid route).
        var low = 0, high = arrivals.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if arrivals[middle] <= time { low = middle } else { high = middle - 1 }
        }
        let from = stops[low]
        guard low + 1 < stops.count, time > departures[low] else { return (from.at, from.floor, (from.floor, from.floor, 0)) }
        let to = stops[low + 1]
        let share = (time - departures[low]) / (arrivals[low + 1] - departures[low])
        let point = Point2(x: from.at.x + (to.at.x - from.at.x) * share, y: from.at.y + (to.at.y - from.at.y) * share)
        return (point, share < 0.5 ? from.floor : to.floor, (from.floor, to.floor, share))
    }

    /// The beacon's point `time` seconds after the start of the scene.
    public func point(at time: Double) -> Point2 { position(at: time).point }
}
