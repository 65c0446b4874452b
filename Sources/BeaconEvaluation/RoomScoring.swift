import BeaconCore

/// What one rule's room estimates came to against the truth: the parts of the room metrics, so the runs of
/// several tracks and seeds add up before the metrics are taken.
///
/// The truth holds from each of its points to the next (the last point only ends the span before it); an
/// estimate holds from its time until the next estimate, and before the first there is none. Times are in
/// seconds.
public struct RoomTally: Equatable, Sendable {
    /// The time covered by the truth.
    public var scoredTime = 0.0
    /// The time the estimate named the true room, or none while the truth was in none.
    public var rightTime = 0.0
    /// The time the estimate named another room.
    public var wrongTime = 0.0
    /// At each truth point in a room with an estimated position, the distance between the two (m).
    public var positionErrors: [Double] = []
    /// Changes from one named room to another while the truth stands still, except the first arrival in the
    /// truth's room since it entered it (that is the lag `arrivals` measures, not a flap).
    public var flaps = 0
    /// The time the truth stood still: spans between two points at the same place.
    public var standingTime = 0.0
    /// For each time the truth enters a room: how long until the estimate names it; infinite when it does not
    /// before the truth leaves it or ends.
    public var arrivals: [Double] = []
    /// The confidence of each estimate that gave one.
    public var confidences: [Double] = []
    /// Away lines while a gateway could hear the beacon; nil for a rule that has no away.
    public var falseAways: Int?

    public init() {}

    /// `estimates` and `truth` in time order.
    public init(estimates: [RoomEstimate], truth: [TruthPoint]) {
        let timeline = EstimateTimeline(estimates)
        for (point, next) in zip(truth, truth.dropFirst()) {
            let span = (next.time - point.time).seconds
            scoredTime += span
            if point.x == next.x && point.y == next.y { standingTime += span }
            for (room, held) in timeline.rooms(from: point.time, to: next.time) {
                // Outside every room, naming none (away) is right.
                guard let room else {
                    if point.room == nil { rightTime += held }
                    continue
                }
                if room == point.room { rightTime += held } else { wrongTime += held }
            }
        }
        // Positions are judged on the floor plan: where the truth is in a room.
        for point in truth where point.room != nil {
            guard let estimate = timeline.estimate(at: point.time), let x = estimate.x, let y = estimate.y else { continue }
            positionErrors.append(((x - point.x) * (x - point.x) + (y - point.y) * (y - point.y)).squareRoot())
        }
        let entries = truth.indices.dropFirst().filter { truth[$0].room != truth[$0 - 1].room }
        for (order, entry) in entries.enumerated() {
            guard let room = truth[entry].room else { continue }
            let until = order + 1 < entries.count ? truth[entries[order + 1]].time : nil
            let last = truth[truth.count - 1].time
            let arrival = timeline.firstTime(of: room, from: truth[entry].time, before: until, through: last)
            arrivals.append(arrival.map { ($0 - truth[entry].time).seconds } ?? .infinity)
        }
        flaps = Self.flaps(estimates, truth: truth, entries: entries.map { truth[$0].time })
        confidences = estimates.compactMap(\.confidence)
    }

    private static func flaps(_ estimates: [RoomEstimate], truth: [TruthPoint], entries: [Timestamp]) -> Int {
        guard let start = truth.first?.time else { return 0 }
        var count = 0
        var previous: String?
        var arrived = false
        var entryIndex = 0
        var span = 0
        for estimate in estimates {
            guard let room = estimate.room else { continue }
            defer { previous = room }
            guard estimate.time >= start else { continue }
            while span + 1 < truth.count && truth[span + 1].time <= estimate.time { span += 1 }
            while entryIndex < entries.count && entries[entryIndex] <= estimate.time {
                entryIndex += 1
                // Already there when the truth came in: that was the arrival.
                arrived = previous != nil && previous == truth[span].room
            }
            let firstArrival = room == truth[span].room && !arrived
            if room == truth[span].room { arrived = true }
            guard let before = previous, before != room, span + 1 < truth.count else { continue }
            let standing = truth[span].x == truth[span + 1].x && truth[span].y == truth[span + 1].y
            if standing && !firstArrival { count += 1 }
        }
        return count
    }

    public mutating func add(_ other: RoomTally) {
        scoredTime += other.scoredTime
        rightTime += other.rightTime
        wrongTime += other.wrongTime
        positionErrors += other.positionErrors
        flaps += other.flaps
        standingTime += other.standingTime
        arrivals += other.arrivals
        confidences += other.confidences
        if let away = other.falseAways { falseAways = (falseAways ?? 0) + away }
    }

    /// The room metrics; a metric with nothing to measure is absent.
    public var scores: Scores {
        var scores: Scores = [:]
        if scoredTime > 0 {
            scores[.roomAccuracy] = 100 * rightTime / scoredTime
            scores[.wrongRoom] = 100 * wrongTime / scoredTime
        }
        scores[.positionMedian] = Statistics.median(positionErrors)
        scores[.positionP90] = Statistics.quantile(positionErrors, 0.9)
        scores[.positionP95] = Statistics.quantile(positionErrors, 0.95)
        if standingTime > 0 { scores[.roomFlaps] = Double(flaps) / (standingTime / 3600) }
        scores[.roomArrival] = Statistics.median(arrivals)
        scores[.roomArrivalP90] = Statistics.quantile(arrivals, 0.9)
        scores[.confidence] = Statistics.mean(confidences)
        scores[.falseAways] = falseAways.map(Double.init)
        return scores
    }
}

/// Estimates as a step function of time.
struct EstimateTimeline {
    let estimates: [RoomEstimate]

    init(_ estimates: [RoomEstimate]) {
        self.estimates = estimates
    }

    /// The index of the estimate holding at `time`: the last one at or before it.
    private func index(at time: Timestamp) -> Int? {
        var low = 0, high = estimates.count
        while low < high {
            let middle = (low + high) / 2
            if estimates[middle].time <= time { low = middle + 1 } else { high = middle }
        }
        return low == 0 ? nil : low - 1
    }

    func estimate(at time: Timestamp) -> RoomEstimate? {
        index(at: time).map { estimates[$0] }
    }

    /// The rooms held from `start` to `end` and for how long (s), in order; nil while there is no estimate or
    /// it names no room.
    func rooms(from start: Timestamp, to end: Timestamp) -> [(room: String?, seconds: Double)] {
        var pieces: [(String?, Double)] = []
        var time = start
        var current = index(at: start)
        var next = (current ?? -1) + 1
        while time < end {
            let changes = next < estimates.count && estimates[next].time < end ? estimates[next].time : end
            pieces.append((current.flatMap { estimates[$0].room }, (changes - time).seconds))
            time = changes
            current = next < estimates.count && estimates[next].time == changes ? next : current
            if current == next { next += 1 }
        }
        return pieces
    }

    /// The first time from `start` at which the holding estimate names `room`: at `start` itself or at an
    /// estimate's time before `before` (when given) and no later than `last`.
    func firstTime(of room: String, from start: Timestamp, before: Timestamp?, through last: Timestamp) -> Timestamp? {
        if estimate(at: start)?.room == room { return start }
        let from = (index(at: start) ?? -1) + 1
        for estimate in estimates[from...] {
            if let before, estimate.time >= before { return nil }
            if estimate.time > last { return nil }
            if estimate.room == room { return estimate.time }
        }
        return nil
    }
}
