/// Which room a beacon is in, with hysteresis, so a beacon standing near a wall does not flap between
/// the rooms either side of it:
/// - the first fix assigns its room at once;
/// - a challenger room takes over only once the beacon's position has been inside it, at least `margin`
///   from its edges, for `dwell` without a break (a fix that is not clearly inside it starts the count
///   again);
/// - a fix outside every room keeps the current room (a position error near an outer wall is not a move).
public struct RoomTracker: Sendable {
    /// How far inside a challenger room a fix must be, metres.
    public static let margin = 0.2
    /// How long a challenger must hold, from its first fix to the fix that makes it the room.
    public static let dwell = Micros.seconds(1)

    /// The current room (an index into the site's rooms), nil before the first fix inside a room.
    public private(set) var room: Int?
    private var challenger: (room: Int, since: Micros)?

    public init() {}

    /// The fix at `time` falls in `candidate` (nil: in no room), `depth` metres inside it; returns the
    /// room after it.
    public mutating func update(candidate: Int?, depth: Double, at time: Micros) -> Int? {
        guard let candidate else {
            challenger = nil
            return room
        }
        guard let current = room else {
            room = candidate
            return room
        }
        if candidate == current || !(depth >= Self.margin) {
            challenger = nil
            return room
        }
        if let held = challenger, held.room == candidate {
            // The dwell's end, unless it lies beyond Int64 (then not reached).
            let (end, beyond) = held.since.value.addingReportingOverflow(Self.dwell.value)
            if !beyond, time.value >= end {
                room = candidate
                challenger = nil
            }
        } else {
            challenger = (candidate, time)
        }
        return room
    }

    /// Forgets the room (the beacon went away): the next fix assigns at once.
    public mutating func reset() {
        room = nil
        challenger = nil
    }
}

extension Room {
    /// How far `point` is from the nearest edge of the polygon, metres.
    public func distanceToEdge(_ point: Point2) -> Double {
        guard !polygon.isEmpty else { return .infinity }
        var nearest = Double.infinity
        var previous = polygon[polygon.count - 1]
        for vertex in polygon {
            let dx = vertex.x - previous.x, dy = vertex.y - previous.y
            let lengthSquared = dx * dx + dy * dy
            var t = lengthSquared > 0 ? ((point.x - previous.x) * dx + (point.y - previous.y) * dy) / lengthSquared : 0
            t = min(1, max(0, t))
            let ex = previous.x + t * dx - point.x, ey = previous.y + t * dy - point.y
            nearest = min(nearest, (ex * ex + ey * ey).squareRoot())
            previous = vertex
        }
        return nearest
    }
}
