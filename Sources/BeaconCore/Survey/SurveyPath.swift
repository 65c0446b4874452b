/// A walk for `beacon survey --path`: points of the site's floor plan with the times the beacon passes
/// them, carried at a steady pace from one to the next (held at the first before its time, and at the
/// last after). A path file is a JSON array of `{"x": metres, "y": metres, "t": seconds}`, `t` counted
/// from the start of the survey (its first readings message) and increasing from point to point; two
/// points at one place are a pause there.
public struct SurveyPath: Equatable, Sendable {
    public struct Waypoint: Equatable, Sendable {
        public var point: Point2
        /// From the start of the survey.
        public var time: Micros

        public init(point: Point2, time: Micros) {
            self.point = point
            self.time = time
        }
    }

    public let waypoints: [Waypoint]
    /// Metres walked from the first waypoint to each one.
    private let along: [Double]

    /// The largest path file read.
    public static let maximumFileBytes = 1 << 20
    public static let maximumWaypoints = 10_000
    /// A week: no survey walk is longer.
    public static let maximumTime = 604_800.0
    /// The walk is cut into stretches of this much path, each one point of the survey.
    public static let stretchLength = 1.0

    /// Two or more waypoints, times increasing.
    public init?(_ waypoints: [Waypoint]) {
        guard waypoints.count >= 2, zip(waypoints, waypoints.dropFirst()).allSatisfy({ $0.time < $1.time }) else { return nil }
        self.waypoints = waypoints
        var along = [0.0]
        for (from, to) in zip(waypoints, waypoints.dropFirst()) {
            along.append(along[along.count - 1] + from.point.distance(to: to.point))
        }
        self.along = along
    }

    /// From the start of the survey to the last waypoint.
    public var duration: Micros { waypoints[waypoints.count - 1].time }

    /// Metres of path.
    public var length: Double { along[along.count - 1] }

    /// How many stretches the walk is cut into: one per `stretchLength` of path, the last one shorter;
    /// one for a walk that never moves.
    public var stretchCount: Int { max(1, Int((length / Self.stretchLength).rounded(.up))) }

    /// Where the beacon is at `time` after the start, and how far along the path.
    public func place(at time: Micros) -> (point: Point2, along: Double) {
        guard time > waypoints[0].time else { return (waypoints[0].point, 0) }
        guard time < duration else { return (waypoints[waypoints.count - 1].point, length) }
        // The first waypoint at or after `time`, by bisection: a long walk has thousands.
        var low = 1, high = waypoints.count - 1
        while low < high {
            let middle = (low + high) / 2
            if waypoints[middle].time < time { low = middle + 1 } else { high = middle }
        }
        let from = waypoints[low - 1], to = waypoints[low]
        let fraction = Double(time.value - from.time.value) / Double(to.time.value - from.time.value)
        let point = Point2(x: from.point.x + fraction * (to.point.x - from.point.x),
                           y: from.point.y + fraction * (to.point.y - from.point.y))
        return (point, along[low - 1] + fraction * (along[low] - along[low - 1]))
    }

    /// The stretch that `along` metres of path fall in.
    public func stretch(along distance: Double) -> Int {
        min(max(Int(distance / Self.stretchLength), 0), stretchCount - 1)
    }

    /// Reads a path file.
    public static func decode(_ bytes: [UInt8]) throws(SurveyPathError) -> SurveyPath {
        let json: JSONValue
        do {
            json = try JSONValue.parse(bytes, maximumDepth: 3, maximumBytes: maximumFileBytes)
        } catch {
            throw SurveyPathError(error.fileReason, position: error.position)
        }
        guard let elements = json.array else { throw SurveyPathError("expected an array of {\"x\", \"y\", \"t\"}, found \(json.kind)") }
        guard elements.count >= 2 else { throw SurveyPathError("expected two or more points, found \(elements.count)") }
        guard elements.count <= maximumWaypoints else { throw SurveyPathError("more than \(maximumWaypoints) points") }
        var waypoints: [Waypoint] = []
        for (index, element) in elements.enumerated() {
            guard let members = element.object else { throw SurveyPathError("[\(index)]: expected an object, found \(element.kind)") }
            if let unknown = members.first(where: { !["x", "y", "t"].contains($0.0) }) {
                throw SurveyPathError("[\(index)]: unknown member \(JSONValue.quoted(unknown.0)); expected x, y and t")
            }
            func number(_ key: String, _ range: ClosedRange<Double>, _ what: String) throws(SurveyPathError) -> Double {
                guard let value = element[key]?.number, range.contains(value) else {
                    throw SurveyPathError("[\(index)].\(key): expected \(what)")
                }
                return value
            }
            let limit = Site.maximumCoordinate
            let x = try number("x", -limit...limit, "a coordinate within ±\(Int(limit)) m")
            let y = try number("y", -limit...limit, "a coordinate within ±\(Int(limit)) m")
            let t = try number("t", 0...maximumTime, "seconds from the start, 0 to \(Int(maximumTime))")
            let time = Micros(Int64((t * 1_000_000).rounded()))
            if let previous = waypoints.last, time <= previous.time {
                throw SurveyPathError("[\(index)].t: expected a time after the previous point's (\(previous.time.seconds) s)")
            }
            waypoints.append(Waypoint(point: Point2(x: x, y: y), time: time))
        }
        guard let path = SurveyPath(waypoints) else { throw SurveyPathError("expected two or more points, times increasing") }
        return path
    }
}

/// Why a path file was refused.
public struct SurveyPathError: Error, Equatable, Sendable, CustomStringConvertible {
    public var description: String
    /// Where in the file, when the text is not JSON.
    public var position: JSONParseError.Position?

    public init(_ description: String, position: JSONParseError.Position? = nil) {
        self.description = description
        self.position = position
    }
}
