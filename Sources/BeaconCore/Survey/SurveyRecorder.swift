/// `beacon survey`'s measurement: the gateways' readings of one beacon, held still at a point for a
/// duration or carried along a walk, gathered per gateway into survey points. Time is the readings'
/// own, never their arrival's: the survey starts at the time of the first readings message received,
/// and a replay of the same readings gives the same points.
///
/// It is complete once every gateway of the site has reported past its end, has gone offline after
/// reporting, or (with a lateness bound, live) has been silent that long; a gateway that sent no readings while the
/// survey ran has no point (nothing says it was listening), while one that sent readings without the
/// beacon in them is a point not heard.
public struct SurveyRecorder: Sendable {
    /// What is surveyed.
    public enum Plan: Equatable, Sendable {
        /// The beacon held still at a point for a duration.
        case still(at: Point2, duration: Micros)
        /// The beacon carried along a walk, a point per stretch of it.
        case walk(SurveyPath)

        public var duration: Micros {
            switch self {
            case .still(_, let duration): duration
            case .walk(let path): path.duration
            }
        }
    }

    /// What `receive` did with a message.
    public enum Receipt: Equatable, Sendable {
        case accepted
        /// From a gateway the site does not have.
        case unknownGateway
        /// Not later than the gateway's latest message: a repeat, dropped.
        case repeated
        /// Ticks beyond `maximumTicks`, dropped.
        case overflow
        /// Further ahead of the other gateways than `Locator.maximumSkew` (with a lateness bound: live), or a
        /// replay's further ahead of this machine's clock: dropped, as `beacon locate` drops it, so one wrong
        /// clock or forged message neither holds a gateway's later readings back as repeats nor lifts the bound.
        case fromTheFuture
    }

    /// A still point whose best gateway heard fewer readings is refused: the beacon was not there, or
    /// not on (the same minimum as `beacon calibrate`'s).
    public static let minimumSamples = 20
    /// A stretch of a walk whose best gateway heard fewer readings is left out (half a second of a
    /// beacon advertising ten times a second).
    public static let minimumStretchSamples = 5
    /// A still point is refused (the beacon moved) when a gateway that heard at least `minimumSamples`
    /// readings saw the ticks' means spread wider than this (dB, 1-σ): a beacon held still varies with
    /// the room's slow fading, about 2 to 4 dB, and one carried about a room by 5 to 10 dB near a gateway.
    public static let maximumSpread = 6.0
    /// It is also refused when the medians of the point's thirds differ by more than this (dB) at a
    /// gateway that heard enough: the spread, robust, does not see a move for less than half the point.
    /// Slow fading (seconds long) leaves a third's median about 2 dB from the level and two thirds' about
    /// 3 dB apart (1-σ); 10 dB is past three of those for every gateway of a site, while moving a beacon
    /// 2 m or more near a gateway shifts it by 10 dB or more.
    public static let maximumShift = 10.0
    /// The still point's parts whose medians are compared.
    static let parts = 3
    /// Ticks kept, over every gateway (a survey of a thousand gateways for over a quarter of an hour).
    public static let maximumTicks = 1_000_000
    /// What a survey file holds (docs/survey.md): a median outside it (a gateway's --rssi-offset can
    /// take one past -127 dBm) is written at its bound, and so are a spread and a count beyond it, so
    /// every file written is one `beacon locate --survey` reads.
    static let fileRSSI = -127.0...20.0
    static let fileSpread = 100.0
    static let fileSamples = 1_000_000_000

    public let site: Site
    /// The beacon's id, as the readings give it (mqtt_room's).
    public let beacon: String
    public let plan: Plan
    public let floor: Int
    /// nil: wait for every gateway not offline however long (replays; so does a bound while replays are fed).
    public let maximumLateness: Micros?
    private var replays = ReplayWatch()

    /// The time of the first readings message: the survey's start.
    public private(set) var start: Timestamp?
    private var firstArrival: Timestamp?
    private var gateways: [GatewayProgress]
    /// By stretch index (a still point is stretch 0).
    private var stretches: [Int: Stretch] = [:]
    /// A still point's ticks again, per gateway (its index) and third.
    private var thirds: [Int: [SurveyLevels]] = [:]
    private var ticks = 0

    public init(site: Site, beacon: String, plan: Plan, floor: Int = 0, maximumLateness: Micros? = .seconds(5)) {
        self.site = site
        self.beacon = beacon
        self.plan = plan
        self.floor = floor
        self.maximumLateness = maximumLateness
        gateways = site.gateways.map { _ in GatewayProgress() }
    }

    /// The survey's end, on the readings' clock.
    public var end: Timestamp? { start.map { $0 + plan.duration } }

    /// Takes one gateway's readings message, arrived at `arrival` (used only to tell a gateway that
    /// stopped sending, with a lateness bound).
    public mutating func receive(_ readings: GatewayReadings, arrival: Timestamp) -> Receipt {
        guard let index = site.gatewayIndex(named: readings.gateway) else { return .unknownGateway }
        let time = readings.time.clampedToSupportedRange
        guard replays.accepts(readings, time: time, arrival: arrival, bounded: maximumLateness != nil) else { return .fromTheFuture }
        if replays.lateness(maximumLateness, at: arrival) != nil,
           let reference = Locator.clockReference(latests: gateways.map(\.latest), excluding: index),
           time - reference > Locator.maximumSkew {
            return .fromTheFuture
        }
        if let latest = gateways[index].latest, time <= latest { return .repeated }
        guard ticks < Self.maximumTicks else { return .overflow }
        firstArrival = firstArrival ?? arrival
        gateways[index].latest = time
        gateways[index].lastArrival = arrival
        // Sending readings, it is online (an offline status retained from an earlier run is over).
        gateways[index].offline = false
        let start = self.start ?? time
        self.start = start
        let elapsed = time - start
        guard elapsed.value >= 0, elapsed < plan.duration else { return .accepted }
        ticks += 1
        let (place, stretch) = self.place(at: elapsed)
        stretches[stretch, default: Stretch(firstTime: time)].add(place, time: time)
        // A gateway that reported without the beacon in its readings heard nothing: a level of no samples.
        var levels = stretches[stretch]?.gateways[index] ?? SurveyLevels()
        if let reading = readings.readings.first(where: { $0.id == beacon }) { levels.add(rssi: reading.rssi, samples: reading.samples) }
        stretches[stretch]?.gateways[index] = levels
        if case .still = plan, let reading = readings.readings.first(where: { $0.id == beacon }) {
            let part = min(Int(elapsed.value * Int64(Self.parts) / max(plan.duration.value, 1)), Self.parts - 1)
            thirds[index, default: Array(repeating: SurveyLevels(), count: Self.parts)][part].add(rssi: reading.rssi, samples: reading.samples)
        }
        return .accepted
    }

    /// A gateway's status (`online`, `offline`): a gateway offline after its readings is not waited
    /// for. False for a gateway the site does not have.
    public mutating func status(gateway name: String, online: Bool) -> Bool {
        guard let index = site.gatewayIndex(named: name) else { return false }
        gateways[index].offline = !online
        return true
    }

    /// Whether every gateway is done with the survey at `arrival`: each one has reported past its end,
    /// gone offline after reporting, or (with a lateness bound) been silent for longer than the bound;
    /// and some gateway reached the end, or every one that reported went offline. An offline status
    /// before any readings (retained from an earlier run) is not taken as done: a replay's gateways may
    /// start one after another.
    public func isComplete(at arrival: Timestamp) -> Bool {
        guard let end, let firstArrival else { return false }
        let reported = gateways.filter { $0.latest != nil }
        let reachedEnd = reported.contains { $0.latest.map { $0 >= end } ?? false }
        guard reachedEnd || reported.allSatisfy(\.offline) else { return false }
        return gateways.allSatisfy { gateway in
            if let latest = gateway.latest, latest >= end || gateway.offline { return true }
            guard let lateness = replays.lateness(maximumLateness, at: arrival) else { return false }
            return arrival - max(gateway.lastArrival ?? firstArrival, firstArrival) > lateness
        }
    }

    /// Readings time surveyed so far, for progress: up to the most advanced gateway.
    public var surveyed: Micros {
        guard let start, let latest = gateways.compactMap(\.latest).max() else { return Micros(0) }
        return min(max(latest - start, Micros(0)), plan.duration)
    }

    /// The gateways of the site that sent no readings while the survey ran: they have no points.
    public var silentGateways: [String] {
        let reported = Set(stretches.values.flatMap { $0.gateways.keys })
        return site.gateways.indices.filter { !reported.contains($0) }.map { site.gateways[$0].name }
    }

    /// The survey's points, or why it cannot be trusted. A walk's stretches that too few readings were
    /// heard in are left out and counted.
    public func result() -> Result<SurveyRecording, SurveyRefusal> {
        guard let start, let end else { return .failure(.noReadings) }
        let latest = gateways.compactMap(\.latest).max() ?? start
        guard latest >= end else { return .failure(.cutShort(covered: max(latest - start, Micros(0)), of: plan.duration)) }
        let best = stretches.values.map(\.bestSamples).max() ?? 0
        switch plan {
        case let .still(point, _):
            guard best >= Self.minimumSamples else { return .failure(.tooFewSamples(heard: best, needed: Self.minimumSamples)) }
            let stretch = stretches[0] ?? Stretch(firstTime: start)
            if let refusal = movement(stretch) { return .failure(refusal) }
            return .success(SurveyRecording(points: points(stretch, at: point, time: start), leftOut: 0))
        case .walk:
            var points: [SurveyPoint] = []
            var leftOut = 0
            for index in stretches.keys.sorted() {
                guard let stretch = stretches[index] else { continue }
                guard stretch.bestSamples >= Self.minimumStretchSamples else {
                    leftOut += 1
                    continue
                }
                points += self.points(stretch, at: stretch.centre, time: stretch.firstTime)
            }
            guard !points.isEmpty else { return .failure(.tooFewSamples(heard: best, needed: Self.minimumStretchSamples)) }
            return .success(SurveyRecording(points: points, leftOut: leftOut))
        }
    }

    /// The widest spread beyond the bound among the gateways that heard enough, else the widest
    /// difference between the medians of thirds.
    private func movement(_ stretch: Stretch) -> SurveyRefusal? {
        let judged = stretch.gateways.filter { $0.value.samples >= Self.minimumSamples }.sorted { $0.key < $1.key }
        let spread = judged.compactMap { index, heard in heard.spread.map { (site.gateways[index].name, $0) } }.max { $0.1 < $1.1 }
        if let (gateway, spread) = spread, spread > Self.maximumSpread { return .moved(gateway: gateway, spread: spread) }
        // A gateway that did not hear the beacon in some third tells nothing of where it was then.
        let parts = judged.compactMap { index, _ -> (gateway: String, medians: [Double], range: Double)? in
            let medians = (thirds[index] ?? []).compactMap(\.median)
            guard medians.count == Self.parts, let high = medians.max(), let low = medians.min() else { return nil }
            return (site.gateways[index].name, medians, high - low)
        }.max { $0.range < $1.range }
        guard let parts, parts.range > Self.maximumShift else { return nil }
        return .movedPartWay(gateway: parts.gateway, medians: parts.medians)
    }

    private func points(_ stretch: Stretch, at point: Point2, time: Timestamp) -> [SurveyPoint] {
        site.gateways.indices.compactMap { index in
            guard let heard = stretch.gateways[index] else { return nil }
            return SurveyPoint(point: point, floor: floor, gateway: site.gateways[index].name,
                               rssi: heard.median.map { min(max($0, Self.fileRSSI.lowerBound), Self.fileRSSI.upperBound) },
                               samples: min(heard.samples, Self.fileSamples), spread: heard.spread.map { min($0, Self.fileSpread) }, time: time)
        }
    }

    /// Where the beacon was `elapsed` after the start, and the stretch that is in.
    private func place(at elapsed: Micros) -> (Point2, Int) {
        switch plan {
        case .still(let point, _): return (point, 0)
        case .walk(let path):
            let place = path.place(at: elapsed)
            return (place.point, path.stretch(along: place.along))
        }
    }
}

/// A survey's points, and how many stretches of a walk were left out for too few readings.
public struct SurveyRecording: Equatable, Sendable {
    public var points: [SurveyPoint]
    public var leftOut: Int

    public init(points: [SurveyPoint], leftOut: Int) {
        self.points = points
        self.leftOut = leftOut
    }
}

/// Why a survey wrote nothing.
public enum SurveyRefusal: Error, Equatable, Sendable, CustomStringConvertible {
    /// No readings message came from any gateway of the site.
    case noReadings
    /// The gateways stopped (went offline) before the survey's end.
    case cutShort(covered: Micros, of: Micros)
    /// The gateway that heard the beacon most heard it this often.
    case tooFewSamples(heard: Int, needed: Int)
    /// This gateway's ticks spread this wide (dB, 1-σ).
    case moved(gateway: String, spread: Double)
    /// The medians of this gateway's thirds of the point, dBm, differ by more than the bound.
    case movedPartWay(gateway: String, medians: [Double])

    public var description: String {
        switch self {
        case .noReadings:
            "no readings came from the site's gateways"
        case let .cutShort(covered, of):
            "the gateways stopped after \(covered.secondsToTheMillisecond) of the \(of.secondsToTheMillisecond) surveyed"
        case let .tooFewSamples(heard, needed):
            "the beacon was heard \(heard) times by the gateway that heard it most, fewer than the \(needed) needed: "
                + "is it there and advertising, and is --beacon its id?"
        case let .moved(gateway, spread):
            "the beacon moved: \(gateway) heard it spread over \((spread * 10).rounded() / 10) dB (1-σ), more than the "
                + "\(Int(SurveyRecorder.maximumSpread)) dB of a beacon held still"
        case let .movedPartWay(gateway, medians):
            "the beacon moved part-way: \(gateway) heard it at \(medians.map { "\(($0 * 10).rounded() / 10)" }.joined(separator: ", ")) dBm "
                + "in the point's thirds, more than \(Int(SurveyRecorder.maximumShift)) dB apart"
        }
    }
}

/// How far one gateway has reported.
private struct GatewayProgress: Sendable {
    /// Its latest status said offline, and it has sent no readings since.
    var offline = false
    /// The time of its latest readings message.
    var latest: Timestamp?
    var lastArrival: Timestamp?
}

/// One stretch of a walk (or the still point): where the beacon was at its ticks, and what each
/// gateway that reported in it heard.
private struct Stretch: Sendable {
    var firstTime: Timestamp
    private var sumX = 0.0
    private var sumY = 0.0
    private var places = 0
    /// What each gateway that reported in it heard, by its index in the site.
    var gateways: [Int: SurveyLevels] = [:]

    init(firstTime: Timestamp) { self.firstTime = firstTime }

    mutating func add(_ place: Point2, time: Timestamp) {
        sumX += place.x
        sumY += place.y
        places += 1
        firstTime = min(firstTime, time)
    }

    /// The mean of the places of its ticks: a pause weighs as long as it lasted.
    var centre: Point2 { Point2(x: sumX / Double(max(places, 1)), y: sumY / Double(max(places, 1))) }

    var bestSamples: Int { gateways.values.map(\.samples).max() ?? 0 }
}
