/// Which room a beacon is in, with hysteresis, so a beacon standing near a wall does not flap between
/// the rooms either side of it. It takes each window's room probabilities (the position filter's):
/// - the first window with readings assigns its likeliest room at once;
/// - a challenger room (or none: outside every room) takes over only once it has been more likely
///   than the current room by `margin` for `dwell` without a break;
/// - the room is the likeliest one's, so near a wall the posterior's own spread is the hysteresis: the
///   surer the position, the closer to the wall a move is seen.
public struct RoomTracker: Sendable {
    /// How much more likely than the current room a challenger must be.
    public var margin: Double
    /// How long a challenger must hold, from its first window to the window that makes it the room.
    public var dwell: Micros

    public static let defaultMargin = 0.2
    public static let defaultDwell = Micros(0)

    /// The current room (an index into the site's rooms; nil: in none), nil before the first window.
    public private(set) var room: Int??
    /// The current room's probability in the last window.
    public private(set) var confidence = 0.0
    private var challenger: (room: Int?, since: Micros)?

    public init(margin: Double = RoomTracker.defaultMargin, dwell: Micros = RoomTracker.defaultDwell) {
        self.margin = margin
        self.dwell = dwell
    }

    /// The window at `time` gives `rooms` (probabilities, largest first); returns the room after it.
    public mutating func update(_ rooms: [(room: Int?, probability: Double)], at time: Micros) -> Int? {
        guard let likeliest = rooms.first else { return room ?? nil }
        guard let current = room else {
            room = .some(likeliest.room)
            confidence = likeliest.probability
            return likeliest.room
        }
        let currentProbability = rooms.first { $0.room == current }?.probability ?? 0
        confidence = currentProbability
        guard likeliest.room != current, likeliest.probability >= currentProbability + margin else {
            challenger = nil
            return current
        }
        if let held = challenger, held.room == likeliest.room {
            // The dwell's end, unless it lies beyond Int64 (then not reached).
            let (end, beyond) = held.since.value.addingReportingOverflow(dwell.value)
            guard !beyond, time.value >= end else { return current }
        } else {
            challenger = (likeliest.room, time)
            guard dwell.value <= 0 else { return current }
        }
        room = .some(likeliest.room)
        confidence = likeliest.probability
        challenger = nil
        return likeliest.room
    }
}
