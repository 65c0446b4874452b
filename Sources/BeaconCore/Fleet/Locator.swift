#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// `beacon locate`'s fuser: gateways' readings in, each beacon's room and position out, once per
/// interval, on the readings' own times (never on when they arrived, so a replay of the same readings
/// in any interleaving gives the same lines). Time is passed in; nothing here reads a clock. Each
/// window's readings of a beacon weigh its `PositionFilter`; its `RoomTracker` names the room.
///
/// Readings wait in time order until every live gateway has reported past a window's end (the
/// watermark), so late messages are fused where they belong. A gateway counts as live while it is not
/// offline (its status) and, with a lateness bound, while it keeps up: the watermark never trails the
/// most advanced gateway by more than `maximumLateness`, and a gateway silent for that long in arrival
/// time holds nothing back. While replays' readings come (`ReplayWatch`), every gateway is waited for, as
/// without a bound.
public struct Locator: Sendable {
    public struct Settings: Sendable {
        /// How often each beacon is located.
        public var interval = Micros.seconds(1)
        /// No gateway has heard the beacon for this long: it is away.
        public var awayAfter = Micros.seconds(30)
        /// nil: wait for every online gateway however far behind (replays).
        public var maximumLateness: Micros? = .seconds(5)
        /// An online gateway's latest reading of a beacon lists the gateway in the location lines this
        /// long, and keeps the beacon located in windows without readings.
        public var freshness = Micros.seconds(3)
        /// A beacon last heard by a gateway that has gone offline is held (located, its room kept) this
        /// long after that reading, not `awayAfter`: a gateway going offline is not evidence that the
        /// beacon left.
        public var offlineHold = Micros.seconds(60)
        /// How readings follow from where a beacon is.
        public var signal = SignalModel()
        /// Room hysteresis (`RoomTracker`).
        public var roomMargin = RoomTracker.defaultMargin
        public var roomDwell = RoomTracker.defaultDwell
        /// Fit each gateway's offset and exponent from their readings of each other's own beacons (the
        /// site's gateways[].beacon), report it, and locate with it; nil: the signal model as it is.
        public var calibration: SelfCalibration?
        /// How long after a window its lines are published, the window's estimate weighed by the readings
        /// of the windows up to then too (fixed-lag smoothing): hindsight places a walking beacon where it
        /// was, not where its readings so far suggest. A line's time is still the window it describes.
        public var smoothing = Micros(0)
        /// Mixed into each beacon's filter seed (its id's hash; 0: the id's alone): another value gives the
        /// filters other random draws, so an evaluation can average over the filter's own chance.
        public var filterSeed: UInt64 = 0

        public init() {}
    }

    /// What `receive` did with a message.
    public enum Receipt: Equatable, Sendable {
        case accepted
        /// From a gateway the site does not have.
        case unknownGateway
        /// For a window already fused.
        case late
        /// Further ahead of the other gateways than `maximumSkew` (with a lateness bound: live), or a replay's
        /// further ahead of the fuser's own clock: not trusted to move the clock.
        case fromTheFuture
        /// Dropped to keep the waiting readings within `maximumPending`.
        case overflow
        /// A message received already, delivered again (its sequence number and time): fused once.
        case repeated
    }

    /// Readings waiting to be fused, counted per beacon reading.
    public static let maximumPending = 1_000_000
    /// A message further ahead of the fused time than this is refused.
    public static let maximumSkew = Micros.seconds(600)
    /// A gateway's clock against arrival that moves more than this is warned about (`clockWarnings`).
    public static let clockDriftBound = Micros.seconds(2)
    /// Beacons tracked at once; beyond it the least recently heard go away.
    public static let maximumBeacons = 100_000

    public let site: Site
    public let settings: Settings
    private var map: SiteMap
    /// The signal model in use: the settings', with each gateway's fit once there is one, and each other
    /// gateway's learned offset once it is sure enough.
    public private(set) var signal: SignalModel
    private var calibration: SelfCalibration?
    /// Per gateway, its `--calibrate` fit (nil: none yet, or left out).
    private var fitted: [SignalModel.Receiver?]
    /// The offsets learned from the beacons' readings, for the gateways without a fit or a survey.
    public private(set) var offsets: ReceiverOffsets
    /// What the slabs the site file does not describe lose, learned from the beacons' readings.
    public private(set) var slabLosses: SlabLosses
    /// Whether gateways stand on more than one floor: only then is a slab's loss learned.
    private let gatewaysOnSeveralFloors: Bool
    private var gateways: [GatewayState]
    /// Per gateway, how its readings fit the survey (empty without one).
    private var surveyFits: [SurveyFit]
    private var pending: [GatewayReadings] = []
    private var pendingCount = 0
    private var tracks: [String: BeaconTrack] = [:]
    /// The end of the next window to fuse; nil before the first reading.
    private var nextTick: Timestamp?
    /// Everything up to here is fused.
    private var fusedUpTo: Timestamp?
    /// The first message's arrival, and the latest's, from any gateway of the site.
    private var firstArrival: Timestamp?
    private var lastArrival: Timestamp?
    /// When messages came again after every gateway had been silent for longer than the lateness bound
    /// (the broker, or the fuser's own link, was down): each gateway's silence counts from then.
    private var resumedAt: Timestamp?
    /// Whether replays are fed: then every gateway is waited for, as without a lateness bound.
    private var replays = ReplayWatch()
    /// Readings messages that never arrived, over the run: the numbers skipped in every gateway's sequence.
    public private(set) var lostMessages = 0

    /// With `radio`, the survey's radio map places the beacons where it reaches (`RadioMap`), and each
    /// surveyed gateway's readings are checked against it (`surveyWarnings`).
    public init(site: Site, settings: Settings = Settings(), radio: RadioMap? = nil) {
        self.site = site
        self.settings = settings
        map = SiteMap(site: site, radio: radio)
        signal = settings.signal
        calibration = settings.calibration
        gateways = site.gateways.map { _ in GatewayState() }
        surveyFits = radio == nil ? [] : site.gateways.map { _ in SurveyFit() }
        fitted = site.gateways.map { _ in nil }
        offsets = ReceiverOffsets(gateways: site.gateways.count, scatter: settings.signal.scatter)
        slabLosses = SlabLosses(scatter: settings.signal.scatter)
        gatewaysOnSeveralFloors = Set(site.gateways.map(\.floor)).count > 1
        // A surveyed gateway's offset is in the radio map's corrections already.
        for index in site.gateways.indices where isSurveyed(index) { offsets.setLearning(index, false) }
    }

    /// Whether the survey's radio map covers gateway `index` on its own floor.
    private func isSurveyed(_ index: Int) -> Bool {
        map.radio?.covers(gateway: index, floor: site.gateways[index].floor) == true
    }

    /// With `--calibrate`, continues from an earlier run's calibration (its retained message) until this
    /// run's first fit, which is held to it: true when taken; false without a calibration or once this run
    /// has fitted (or resumed) already.
    public mutating func resumeCalibration(from earlier: SiteCalibration) -> Bool {
        guard calibration?.resume(from: earlier) == true else { return false }
        use(earlier)
        return true
    }

    /// Each gateway's offset and exponent as `fitted` says, the model's own for a gateway it leaves out.
    private mutating func use(_ calibration: SiteCalibration) {
        for index in site.gateways.indices {
            fitted[index] = calibration.fit(ofGateway: index).map { SignalModel.Receiver(offset: $0.offset, exponent: $0.exponent, measured: true) }
            offsets.setLearning(index, fitted[index] == nil && !isSurveyed(index))
        }
        updateReceivers()
    }

    /// The model's receivers: each gateway's fit, else its learned offset (0 until sure) at the model's exponent.
    /// A surveyed gateway hears as the distance model the radio map was drawn against: the map's corrections
    /// hold its offset, and a fit on top would count it twice.
    private mutating func updateReceivers() {
        let learned = offsets.offsets
        let own = SignalModel.Receiver(offset: 0, exponent: settings.signal.exponent)
        let receivers = site.gateways.indices.map { index in
            isSurveyed(index) ? own : fitted[index] ?? SignalModel.Receiver(offset: learned[index] ?? 0, exponent: settings.signal.exponent)
        }
        if receivers.allSatisfy({ $0 == own }) {
            signal.receivers = []
        } else {
            signal.receivers = receivers
        }
        var learnedSlabs: [SlabLosses.Floors: SignalModel.LearnedSlab] = [:]
        for floors in slabLosses.pairs {
            let unknown = site.slabs(between: floors.lower, and: floors.upper).unknown
            guard let loss = slabLosses.loss(floors, doubt: Double(unknown).squareRoot() * signal.slabDoubt) else { continue }
            learnedSlabs[floors] = SignalModel.LearnedSlab(loss: loss.mean, spread: loss.spread)
        }
        signal.learnedSlabs = learnedSlabs
    }

    /// Takes one gateway's readings message, arrived at `arrival` (the fuser's clock, used only to tell
    /// a gateway that stopped sending and to estimate its clock offset).
    public mutating func receive(_ readings: GatewayReadings, arrival: Timestamp) -> Receipt {
        // Within the supported range a window's end and the next one are always representable.
        var readings = readings
        readings.time = readings.time.clampedToSupportedRange
        guard let index = site.gatewayIndex(named: readings.gateway) else { return .unknownGateway }
        switch gateways[index].sequence.judge(sequence: readings.sequence, time: readings.time) {
        case .repeated: return .repeated
        case .afterGap(let missing):
            gateways[index].lost(missing, before: readings.sequence)
            lostMessages = lostMessages.addingSaturated(missing)
        case .next, .restarted: break
        }
        guard replays.accepts(readings, time: readings.time, arrival: arrival, bounded: settings.maximumLateness != nil) else {
            return .fromTheFuture
        }
        if let lateness = settings.maximumLateness, let last = lastArrival, arrival - last > lateness { resumedAt = arrival }
        firstArrival = firstArrival ?? arrival
        lastArrival = max(lastArrival ?? arrival, arrival)
        if let fusedUpTo, readings.time <= fusedUpTo {
            // Late, but the gateway is alive and keeping up from here: it holds the watermark from now on,
            // or one gateway first heard an instant after the others would never be waited for.
            gateways[index].heard(readings.time, arrival: arrival)
            return .late
        }
        // A live gateway far ahead of the others has a wrong clock; replays (no lateness bound) run at any pace.
        if lateness(at: arrival) != nil, let reference = clockReference(excluding: index), readings.time - reference > Self.maximumSkew {
            return .fromTheFuture
        }
        guard pendingCount + readings.readings.count <= Self.maximumPending else { return .overflow }
        gateways[index].heard(readings.time, arrival: arrival)
        let position = pending.firstIndex(after: (readings.time, readings.gateway))
        pending.insert(readings, at: position)
        pendingCount += readings.readings.count
        if fusedUpTo == nil {
            // Before the first window is fused, an earlier message moves the start back.
            let tick = tickEnding(containing: readings.time)
            nextTick = min(nextTick ?? tick, tick)
        }
        return .accepted
    }

    /// A gateway's retained status (`online`, `offline`). Offline takes effect after the gateway's latest
    /// reading, on its own clock: a gateway sends its status after its readings, so the windows it is
    /// offline in are the same however the messages interleave with the other gateways'. `retained`: the
    /// broker held it when the fuser subscribed; offline, before any readings, it is an earlier run's, and
    /// the gateway is waited for as one not heard yet (a replay's gateways may start one after another).
    public mutating func status(gateway name: String, online: Bool, retained: Bool = false) -> Bool {
        guard let index = site.gatewayIndex(named: name) else { return false }
        if !online, retained, gateways[index].latest == nil { return true }
        gateways[index].online = online
        // Online to the end of the window holding its last reading.
        gateways[index].offlineAfter = online ? nil : gateways[index].latest.map(tickEnding) ?? Timestamp.supportedRange.lowerBound
        return true
    }

    /// Fuses every window that the watermark has passed at `arrival`.
    public mutating func advance(arrival: Timestamp, emit: (LocateOutput) -> Void) {
        guard let watermark = watermark(at: arrival) else { return }
        fuse(upTo: watermark, emit: emit)
    }

    /// Stopped (a signal, a duration) at `arrival`: fuses the windows every gateway that sent readings has
    /// reported past, or stopped waiting for, as `advance` would, and also those that waited only for a
    /// gateway never heard. The windows that wait for a gateway behind the others are left: fused without
    /// its readings, they could put a beacon in the wrong room.
    public mutating func stop(arrival: Timestamp, emit: (LocateOutput) -> Void) {
        guard let watermark = watermark(at: arrival, awaitingUnheard: false) else { return }
        fuse(upTo: watermark, emit: emit)
    }

    /// Fuses everything received, up to the latest complete window, and publishes every window's lines
    /// the smoothing still holds back (at the end of a run).
    public mutating func finish(emit: (LocateOutput) -> Void) {
        if let latest = pending.last?.time { fuse(upTo: latest, emit: emit) }
        for id in tracks.keys.sorted() {
            guard var track = tracks[id] else { continue }
            publish(&track, id: id, through: nil, emit: emit)
            tracks[id] = track
        }
    }

    /// Gateways whose readings messages skipped sequence numbers since the last call: how many never
    /// arrived (the broker or the gateway dropped them), and the number of the latest message after a gap.
    public mutating func lossWarnings() -> [(gateway: String, missing: Int, before: Int)] {
        site.gateways.indices.compactMap { index in
            guard let loss = gateways[index].takeLoss() else { return nil }
            return (site.gateways[index].name, loss.missing, loss.before)
        }
    }

    /// Gateways whose clock moved against arrival by more than `clockDriftBound` since the last call,
    /// each with its offset change; said once per drift.
    public mutating func clockWarnings() -> [(gateway: String, drift: Micros)] {
        var warnings: [(String, Micros)] = []
        for index in gateways.indices {
            if let drift = gateways[index].takeDrift(beyond: Self.clockDriftBound) {
                warnings.append((site.gateways[index].name, drift))
            }
        }
        return warnings
    }

    /// Gateways whose readings stopped fitting the survey's radio map since the last call (moved, or the
    /// room changed), each with its readings' median deviation from the map (in σ) and how many readings
    /// that is of; each gateway said once (`SurveyFit`).
    public mutating func surveyWarnings() -> [(gateway: String, deviation: Double, readings: Int)] {
        var warnings: [(String, Double, Int)] = []
        for index in surveyFits.indices {
            if let deviation = surveyFits[index].takeMisfit() {
                warnings.append((site.gateways[index].name, deviation, SurveyFit.window))
            }
        }
        return warnings
    }

    /// Beacons being tracked.
    public var beaconCount: Int { tracks.count }

    // MARK: - Time

    /// The end of the window (interval-aligned, windows closed at their end) that holds `time`.
    private func tickEnding(containing time: Timestamp) -> Timestamp {
        let step = settings.interval.value
        let (quotient, remainder) = time.clampedToSupportedRange.microseconds.quotientAndRemainder(dividingBy: step)
        let ceiling = remainder > 0 ? quotient + 1 : quotient
        return Timestamp(microseconds: ceiling.multipliedReportingOverflow(by: step).partialValue)
    }

    /// The lateness bound in force at `arrival`: the settings', none while replays' messages are fed
    /// (`ReplayWatch`). Without one, every gateway is waited for, and arrival says nothing of their clocks.
    public func lateness(at arrival: Timestamp) -> Micros? { replays.lateness(settings.maximumLateness, at: arrival) }

    /// The median of the latest times of the gateways other than `index` (what one gateway's clock is
    /// judged against), else the fused time.
    private func clockReference(excluding index: Int) -> Timestamp? {
        Self.clockReference(latests: gateways.map(\.latest), excluding: index) ?? fusedUpTo
    }

    /// The median of `latests` (each gateway's latest time, nil: not heard) but the one at `index`: what a
    /// live gateway's clock is judged against by the fuser and by the survey; nil when no other has reported.
    static func clockReference(latests: [Timestamp?], excluding index: Int) -> Timestamp? {
        let others = latests.indices.compactMap { $0 == index ? nil : latests[$0] }.sorted()
        return others.isEmpty ? nil : others[others.count / 2]
    }

    /// Whether a gateway is no longer waited for at `arrival`: silent for longer than the lateness bound
    /// in force. Its silence counts from its last message, from the fuser's first (one not heard yet is
    /// waited for as long as a late one) and from the end of a silence every gateway shared.
    private func isSilent(_ state: GatewayState, at arrival: Timestamp, lateness: Micros?) -> Bool {
        let graceStart = max(firstArrival ?? arrival, resumedAt ?? firstArrival ?? arrival)
        return lateness.map { arrival - max(state.lastArrival ?? graceStart, graceStart) > $0 } ?? false
    }

    /// Whether every gateway of the site is done at `arrival`: offline, or never heard and no longer
    /// waited for (`--until-offline` then ends: a gateway of the site that never came has nothing on its way).
    public func isEveryGatewayDone(at arrival: Timestamp) -> Bool {
        let lateness = lateness(at: arrival)
        return gateways.allSatisfy { $0.online == false || ($0.latest == nil && isSilent($0, at: arrival, lateness: lateness)) }
    }

    /// The time up to which every live gateway has reported. Without a lateness bound, a gateway of the
    /// site not heard from yet holds everything back (a replay's gateways may start one after another),
    /// unless `awaitingUnheard` is false (a stop: it has nothing on its way). With one, the watermark
    /// trails the gateways' median by at most the bound, so one gateway far ahead cannot move it.
    private func watermark(at arrival: Timestamp, awaitingUnheard: Bool = true) -> Timestamp? {
        let lateness = lateness(at: arrival)
        var slowest: Timestamp?
        var latests: [Timestamp] = []
        for state in gateways where state.online != false {
            let silent = isSilent(state, at: arrival, lateness: lateness)
            guard let latest = state.latest else {
                if !silent && awaitingUnheard { return nil }
                continue
            }
            latests.append(latest)
            if silent { continue }
            slowest = min(slowest ?? latest, latest)
        }
        guard !latests.isEmpty else { return pending.last?.time }  // every gateway offline: fuse what there is
        latests.sort()
        let median = latests[latests.count / 2]
        var mark = slowest ?? median
        if let lateness { mark = max(mark, median + Micros(-lateness.value)) }
        return mark
    }

    private mutating func fuse(upTo watermark: Timestamp, emit: (LocateOutput) -> Void) {
        while var tick = nextTick, tick <= watermark {
            if tracks.isEmpty, pending.isEmpty { break }
            // Windows that would change nothing and print nothing are skipped, however long the gap.
            tick = max(tick, firstEventfulTick(from: tick))
            guard tick <= watermark else { nextTick = tick; break }
            fuseWindow(endingAt: tick, emit: emit)
            fusedUpTo = tick
            nextTick = tick + settings.interval
        }
    }

    /// The first window from `tick` in which something can happen: a message falls due, a beacon's
    /// reading counts (a location line) or a beacon goes away.
    private func firstEventfulTick(from tick: Timestamp) -> Timestamp {
        var event = pending.first.map { tickEnding(containing: $0.time) }
        for track in tracks.values {
            if track.latest.contains(where: { counts($0.value, from: $0.key, at: tick) }) { return tick }
            if let held = track.unpublished.first {
                let due = tickEnding(containing: held.time + settings.smoothing)
                event = min(event ?? due, due)
            }
            // Away once more than awayAfter has passed.
            let away = tickEnding(containing: track.lastHeard + settings.awayAfter + Micros(1))
            event = min(event ?? away, away)
        }
        return event ?? tick
    }

    // MARK: - One window

    private mutating func fuseWindow(endingAt tick: Timestamp, emit: (LocateOutput) -> Void) {
        let due = pending.firstIndex(after: (tick, nil))
        var heard: [String: [SignalObservation]] = [:]
        let scatter = settings.signal.scatter * settings.signal.scatter
        for message in pending[..<due] {
            guard let gateway = site.gatewayIndex(named: message.gateway) else { continue }
            for reading in message.readings {
                // A gateway's own beacon is where the site says: heard only to calibrate the gateways.
                if site.hasGatewayBeacons, let transmitter = site.gatewayIndex(ofBeacon: reading.id) {
                    calibration?.heard(receiver: gateway, transmitter: transmitter, rssi: reading.rssi,
                                       measuredPower: reading.measuredPower, at: message.time)
                    continue
                }
                tracks[reading.id, default: BeaconTrack(id: reading.id, settings: settings)].heard(reading, by: gateway, at: message.time)
                let sigma = (scatter + reading.spread * reading.spread / Double(max(1, reading.samples))).squareRoot()
                heard[reading.id, default: []].append(SignalObservation(gateway: gateway, rssi: reading.rssi, sigma: sigma,
                                                                          measuredPower: Double(reading.measuredPower)))
            }
            pendingCount -= message.readings.count
        }
        pending.removeFirst(due)
        if tracks.count > Self.maximumBeacons { evictLeastRecent(emit: emit, at: tick) }
        if let report = calibration?.fitIfDue(at: tick, site: site, exponentPrior: settings.signal.exponent) {
            use(report.calibration)
            emit(.calibration(report))
        }

        for id in tracks.keys.sorted() {
            guard var track = tracks[id] else { continue }
            if tick > awayTime(of: track, at: tick) {
                publish(&track, id: id, through: nil, emit: emit)
                emit(.away(time: tick, beacon: id, name: site.name(ofBeacon: id), room: roomName(track)))
                tracks[id] = nil
                continue
            }
            let observations = heard[id] ?? []
            if !observations.isEmpty || track.latest.contains(where: { counts($0.value, from: $0.key, at: tick) }) {
                track.filter.step(to: tick, observations, map: &map, model: signal)
                if observations.count >= ReceiverOffsets.minimumGateways, let centre = track.filter.centre,
                   centre.error <= ReceiverOffsets.maximumError {
                    learnOffsets(observations, at: centre)
                    if gatewaysOnSeveralFloors { learnSlabs(observations, at: centre) }
                }
                if !surveyFits.isEmpty, let estimate = track.filter.estimate(at: tick, map: map) {
                    judgeSurvey(observations, at: estimate)
                }
                // Without an estimate, the gateways' calibration of the beacon (an integer mean: the same in any order).
                let power = track.filter.learnedPower ?? Double(track.latest.values.reduce(0) { $0 + $1.measuredPower }) / Double(max(1, track.latest.count))
                track.unpublished.append(BeaconTrack.Unpublished(time: tick, heard: !observations.isEmpty,
                                                                 gateways: gatewaysHearing(track, at: tick, power: power)))
            }
            publish(&track, id: id, through: tick + Micros(-settings.smoothing.value), emit: emit)
            tracks[id] = track
        }
        offsets.close(at: tick)
        slabLosses.close(at: tick)
        updateReceivers()
    }

    /// A beacon placed by the filter (`PositionFilter.centre`), as the learners take it.
    private typealias Placed = (point: Point2, error: Double, floor: Int, power: Double, walking: Double)

    /// Adds a confidently placed beacon's residuals to the gateways' offsets: each reading of a gateway on
    /// the beacon's floor less the model's prediction at the estimate with the beacon's learned power (no
    /// offset), its variance the reading's and what the estimate's radius does to the path loss there.
    private mutating func learnOffsets(_ observations: [SignalObservation], at centre: Placed) {
        // Only a walking beacon: standing, its place absorbs an offset, and its residuals say nothing of it.
        guard centre.walking > 0.5 else { return }
        let floor = centre.floor
        let sameFloor = observations.filter { $0.gateway >= 0 && $0.gateway < site.gateways.count
            && site.gateways[$0.gateway].floor == floor && $0.rssi.isFinite && $0.sigma.isFinite && $0.sigma > 0 }
        guard sameFloor.count >= ReceiverOffsets.minimumGateways else { return }
        for observation in sameFloor {
            let (loss, placement) = pathLoss(to: observation.gateway, from: centre, slabs: 0)
            offsets.add(gateway: observation.gateway, residual: observation.rssi + loss - centre.power,
                        variance: observation.sigma * observation.sigma + placement * placement)
        }
    }

    /// The model's path loss from a placed beacon to gateway `index` (dB, at the gateway's exponent), the
    /// walls between when they share a floor, else `slabs`; and the dB per metre of that loss there times
    /// the placement's radius: how much the place's doubt adds.
    private mutating func pathLoss(to index: Int, from centre: Placed, slabs: Double) -> (loss: Double, placement: Double) {
        let gateway = site.gateways[index]
        let exponent = signal.receiver(index).exponent
        let dx = centre.point.x - gateway.x, dy = centre.point.y - gateway.y
        let dz = map.elevation(ofGateway: index) - (map.elevation(ofFloor: centre.floor) + signal.beaconHeight)
        let distance = max(PositionFilter.minimumDistance, (dx * dx + dy * dy + dz * dz).squareRoot())
        let walls = gateway.floor == centre.floor ? map.wallLoss(gateway: index, from: centre.point, floor: centre.floor) : slabs
        return (10 * exponent * log10(distance) + walls, 10 * exponent / log(10.0) / max(1, distance) * centre.error)
    }

    /// Adds a confidently placed beacon's slab losses: for each other floor whose gateways hear it through
    /// slabs the site file does not describe, how much less their readings say of the beacon's power at
    /// 1 m than its own floor's gateways' do (each reading plus the model's path loss from the estimate,
    /// walls and known slabs, less the gateway's offset; precision-weighted means), so the power learned
    /// under the exponent hedge drops out. The variance: the two means' and what the estimate's radius
    /// does to the path loss.
    private mutating func learnSlabs(_ observations: [SignalObservation], at centre: Placed) {
        let floor = centre.floor
        // Per floor of gateways: the sums of the readings' power estimates and of their precisions, and
        // the placement's doubt.
        var sums: [Int: (power: Double, precision: Double, count: Int, placement: Double)] = [:]
        for observation in observations {
            guard observation.gateway >= 0, observation.gateway < site.gateways.count, observation.rssi.isFinite,
                  observation.sigma.isFinite, observation.sigma > 0, !isSurveyed(observation.gateway) else { continue }
            let gateway = site.gateways[observation.gateway]
            let slabs = site.slabs(between: gateway.floor, and: floor)
            guard gateway.floor == floor || slabs.unknown > 0 else { continue }
            let (loss, placement) = pathLoss(to: observation.gateway, from: centre, slabs: slabs.loss)
            let power = observation.rssi - signal.receiver(observation.gateway).offset + loss
            let precision = 1 / (observation.sigma * observation.sigma)
            var sum = sums[gateway.floor] ?? (0, 0, 0, 0)
            sum.power += precision * power
            sum.precision += precision
            sum.count += 1
            sum.placement = max(sum.placement, placement)
            sums[gateway.floor] = sum
        }
        guard let own = sums[floor], own.count >= ReceiverOffsets.minimumGateways else { return }
        for (other, sum) in sums where other != floor {
            slabLosses.add(SlabLosses.Floors(other, floor), loss: own.power / own.precision - sum.power / sum.precision,
                           variance: 1 / own.precision + 1 / sum.precision + 2 * sum.placement * sum.placement)
        }
    }

    /// Publishes the beacon's windows up to `through` (nil: all) that are not published yet, each with
    /// its estimate as the filter has it now: its room (and a room line on a change), its location line.
    private mutating func publish(_ track: inout BeaconTrack, id: String, through: Timestamp?, emit: (LocateOutput) -> Void) {
        let name = site.name(ofBeacon: id)
        while let window = track.unpublished.first, through.map({ window.time <= $0 }) ?? true {
            track.unpublished.removeFirst()
            let estimate = track.filter.estimate(at: window.time, map: map)
            track.filter.forget(through: window.time)
            var room = track.room.room ?? nil  // nil: none yet, or none
            if let estimate, window.heard {
                // Only readings move a beacon to another room: a window without them only spreads the estimate.
                room = track.room.update(estimate.rooms, at: Micros(window.time.microseconds))
            }
            let before = track.reportedRoom
            if track.room.room != nil, room != before {
                emit(.room(time: window.time, beacon: id, name: name, from: before.map { site.rooms[$0].name },
                           to: room.map { site.rooms[$0].name }))
                track.reportedRoom = room
            }
            let confidence = estimate?.rooms.first { $0.room == room }?.probability
            emit(.location(LocatedBeacon(time: window.time, beacon: id, name: name, room: room.map { site.rooms[$0].name },
                                         fix: estimate.map { PositionFix(point: $0.point, error: $0.error, floor: $0.floor) },
                                         confidence: confidence, gateways: window.gateways)))
        }
    }

    /// Each surveyed gateway's reading against the radio map at a confident estimate: how many σ the
    /// beacon's power at 1 m that its reading says there is from the power the other gateways' readings
    /// say (left out of that, a moved gateway cannot vouch for itself).
    private mutating func judgeSurvey(_ observations: [SignalObservation], at estimate: PositionEstimate) {
        guard estimate.error <= SurveyFit.maximumError, observations.count >= 3 else { return }
        let model = settings.signal
        var powers: [Double] = [], variances: [Double] = [], surveyed: [Bool] = []
        for observation in observations {
            let survey = map.surveyed(gateway: observation.gateway, at: estimate.point, floor: estimate.floor)
            powers.append(observation.rssi + RadioMap.pathLoss(site: site, gateway: observation.gateway, at: estimate.point,
                                                               floor: estimate.floor, model: model) - (survey?.correction ?? 0))
            let own = observation.sigma * observation.sigma
            variances.append(max(0.25, survey.map { own - model.scatter * model.scatter + $0.variance } ?? own))
            surveyed.append(survey != nil)
        }
        let precision = variances.reduce(0) { $0 + 1 / $1 }
        let weighted = zip(powers, variances).reduce(0) { $0 + $1.0 / $1.1 }
        for (index, observation) in observations.enumerated() where surveyed[index] {
            let othersPrecision = precision - 1 / variances[index]
            let others = (weighted - powers[index] / variances[index]) / othersPrecision
            let deviation = abs(powers[index] - others) / (variances[index] + 1 / othersPrecision).squareRoot()
            surveyFits[observation.gateway].add(deviation)
        }
    }

    /// The gateways whose latest reading of the beacon still counts at `tick`, nearest first, each with the
    /// distance the signal model gives its reading at the beacon's learned power.
    private func gatewaysHearing(_ track: BeaconTrack, at tick: Timestamp, power: Double) -> [(name: String, distance: Double, online: Bool)] {
        track.latest.filter { counts($0.value, from: $0.key, at: tick) }
            .map { (gateway: $0.key, distance: signal.distance(rssi: $0.value.rssi, power: power, gateway: $0.key)) }
            .sorted { ($0.distance, $0.gateway) < ($1.distance, $1.gateway) }
            .map { (site.gateways[$0.gateway].name, $0.distance, gateways[$0.gateway].isOnline(at: tick)) }
    }

    /// A gateway's latest reading still counts at `tick` (the beacon is located, the gateway listed): not
    /// older than the freshness, or than the offline hold for a gateway that has gone offline.
    private func counts(_ reading: BeaconTrack.Latest, from gateway: Int, at tick: Timestamp) -> Bool {
        let limit = gateways[gateway].isOnline(at: tick) ? settings.freshness : settings.offlineHold
        return tick - reading.time <= limit
    }

    /// After this the beacon is away: no reading for `awayAfter`, or for the offline hold when the gateway
    /// that heard it last has gone offline.
    private func awayTime(of track: BeaconTrack, at tick: Timestamp) -> Timestamp {
        var latest = track.lastHeard + settings.awayAfter
        for (gateway, reading) in track.latest where !gateways[gateway].isOnline(at: tick) {
            latest = max(latest, reading.time + max(settings.awayAfter, settings.offlineHold))
        }
        return latest
    }

    private mutating func evictLeastRecent(emit: (LocateOutput) -> Void, at tick: Timestamp) {
        let excess = tracks.count - Self.maximumBeacons + Self.maximumBeacons / 8
        let oldest = tracks.sorted { ($0.value.lastHeard, $0.key) < ($1.value.lastHeard, $1.key) }.prefix(excess)
        for (id, var track) in oldest {
            publish(&track, id: id, through: nil, emit: emit)
            emit(.away(time: tick, beacon: id, name: site.name(ofBeacon: id), room: roomName(track)))
            tracks[id] = nil
        }
    }

    /// The name of the beacon's room, nil when it has none (or none yet).
    private func roomName(_ track: BeaconTrack) -> String? {
        track.room.room.flatMap { $0.map { site.rooms[$0].name } }
    }
}

/// What the fuser knows of one gateway.
private struct GatewayState: Sendable {
    /// nil until a status arrives: a gateway that sends readings is taken to be online.
    var online: Bool?
    /// Set by an offline status: the end of the window of the gateway's latest reading then, after which it is offline.
    var offlineAfter: Timestamp?

    func isOnline(at tick: Timestamp) -> Bool {
        offlineAfter.map { tick <= $0 } ?? true
    }
    /// The time of its latest readings, on its own clock.
    var latest: Timestamp?
    var lastArrival: Timestamp?
    /// Arrival minus reading time: the smallest over the recent messages (the least delayed one).
    private var offset: Micros?
    private var reportedOffset: Micros?
    /// Messages heard: the offset is taken as the gateway's own only after `settledAfter` of them, since
    /// the first ones are often held up while the gateway connects.
    private var messages = 0
    static let settledAfter = 10

    /// Its readings messages' sequence numbers, and the messages found missing since the last report.
    var sequence = ReadingsSequence()
    private var loss: (missing: Int, before: Int)?

    mutating func lost(_ missing: Int, before: Int) {
        loss = ((loss?.missing ?? 0).addingSaturated(missing), before)
    }

    mutating func takeLoss() -> (missing: Int, before: Int)? {
        defer { loss = nil }
        return loss
    }

    mutating func heard(_ time: Timestamp, arrival: Timestamp) {
        latest = max(latest ?? time, time)
        lastArrival = max(lastArrival ?? arrival, arrival)
        let sample = arrival - time
        // The minimum delay, forgetting slowly (1 ms a message) so a clock that steps later is followed.
        offset = offset.map { min(Micros($0.value + 1_000), sample) } ?? sample
        messages += 1
        if online == nil { online = true }
    }

    mutating func takeDrift(beyond bound: Micros) -> Micros? {
        guard let offset, messages >= Self.settledAfter else { return nil }
        guard let reported = reportedOffset else {
            reportedOffset = offset
            return nil
        }
        let drift = Micros(offset.value - reported.value)
        guard abs(drift.value) > bound.value else { return nil }
        reportedOffset = offset
        return drift
    }
}

/// What the fuser keeps per beacon.
private struct BeaconTrack: Sendable {
    struct Latest: Sendable {
        var time: Timestamp
        var rssi: Double
        var measuredPower: Int
    }

    /// Per gateway index, its latest reading of the beacon.
    var latest: [Int: Latest] = [:]
    var lastHeard = Timestamp(microseconds: Int64.min)
    var filter: PositionFilter
    var room: RoomTracker
    /// The room last reported in a `room` line.
    var reportedRoom: Int?
    /// A window the filter has stepped to whose lines the smoothing holds back.
    struct Unpublished: Sendable {
        var time: Timestamp
        /// Whether a gateway heard the beacon in the window (only readings move it to another room).
        var heard: Bool
        /// The gateways listed in its location line.
        var gateways: [(name: String, distance: Double, online: Bool)]
    }
    /// Oldest first.
    var unpublished: [Unpublished] = []

    /// The filter's draws are seeded by the beacon's id (and `filterSeed`): the same readings give the same
    /// estimates in any run and in any shard.
    init(id: String, settings: Locator.Settings) {
        filter = PositionFilter(seed: StableHash.fnv1a(settings.filterSeed == 0 ? id : "\(id)#\(settings.filterSeed)"))
        room = RoomTracker(margin: settings.roomMargin, dwell: settings.roomDwell)
    }

    mutating func heard(_ reading: BeaconReading, by gateway: Int, at time: Timestamp) {
        if let previous = latest[gateway], previous.time > time { return }
        latest[gateway] = Latest(time: time, rssi: reading.rssi, measuredPower: reading.measuredPower)
        lastHeard = max(lastHeard, time)
    }
}

extension [GatewayReadings] {
    /// In an array sorted by time then gateway: the index of the first message after `key` (a nil
    /// gateway: after every message of that time), by binary search.
    fileprivate func firstIndex(after key: (time: Timestamp, gateway: String?)) -> Int {
        var low = 0, high = count
        while low < high {
            let middle = (low + high) / 2
            let message = self[middle]
            let isAfter = message.time > key.time || (message.time == key.time && key.gateway.map { message.gateway > $0 } == true)
            if isAfter { high = middle } else { low = middle + 1 }
        }
        return low
    }
}

extension Int {
    /// Counts of messages lost stop at `Int.max`: hostile sequence numbers may skip up to 2^53 a message.
    fileprivate func addingSaturated(_ other: Int) -> Int {
        let (sum, overflow) = addingReportingOverflow(other)
        return overflow ? Int.max : sum
    }
}
