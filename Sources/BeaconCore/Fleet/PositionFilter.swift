#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// One gateway's reading of a beacon in one window, as the position filter weighs it.
public struct SignalObservation: Equatable, Sendable {
    /// The gateway's index in the site.
    public var gateway: Int
    /// The mean RSSI of the gateway's tick (dBm).
    public var rssi: Double
    /// That mean's 1-σ against the signal model (dB): the model's scatter and the tick's own spread.
    public var sigma: Double
    /// The beacon's calibrated power at 1 m, as the gateway took it (dBm).
    public var measuredPower: Double

    public init(gateway: Int, rssi: Double, sigma: Double, measuredPower: Double) {
        self.gateway = gateway
        self.rssi = rssi
        self.sigma = sigma
        self.measuredPower = measuredPower
    }
}

/// How the filter expects a reading to follow from where the beacon is: log-distance path loss from a
/// power at 1 m that is the beacon's own (learned, starting at its measured power), less the walls
/// between, with heavy-tailed scatter (Student's t) so a body or a reflection does not drag the fix.
public struct SignalModel: Equatable, Sendable {
    /// The path-loss exponent: 2 in the open, up to 4 among furniture and people.
    public var exponent = 2.5
    /// The exponents a site may have, as multiples of a gateway's own, as likely as each other: each
    /// window's readings are judged under every one and the likelihoods averaged. No one exponent fits
    /// every building (below 1.5 with receivers mounted high, near 4 among furniture), and held to the
    /// wrong one the filter reads the pattern of the gateways' readings as another place: too steep an
    /// exponent explains an even pattern by a place far from every gateway, the floor's edge. A gateway
    /// whose exponent was measured (`Receiver.measured`) uses its own alone; a surveyed one is hedged by
    /// as much as its radio map would not move with the exponent (`RadioMap.Prediction.exponentLeverage`).
    public var exponentHedge: [Double] = [0.7, 1, 1.3]
    /// The scatter of one tick's mean RSSI about the model, dB: shadowing and multipath that no site
    /// file describes.
    public var scatter = 4.0
    /// Degrees of freedom of the scatter's Student's t: small for heavy tails.
    public var tails = 4.0
    /// How far the beacon's power at 1 m may be from its advertised measured power, dB (1-σ, before
    /// anything is heard): calibrations are often off by several dB.
    public var powerSpread = 8.0
    /// How fast the beacon's power at 1 m may change (a pocket, a hand), dB per √s.
    public var powerDrift = 0.5
    /// The beacon's height above its floor, metres (carried, or on a desk).
    public var beaconHeight = 1.0
    /// The 1-σ of what a slab loses when the site file does not say, dB: from a few dB (timber) to 25
    /// (reinforced concrete). The readings of one floor's gateways across such a slab share that doubt (one
    /// slab, one loss): their common level is doubted and their differences still place the beacon, so
    /// gateways on another floor help decide the floor without dragging the place by what the slab loses.
    public var slabDoubt = 10.0
    /// What the slabs the site file does not describe lose between pairs of floors, as `beacon locate`
    /// learned it (`SlabLosses`): used in place of the doubt.
    public var learnedSlabs: [SlabLosses.Floors: LearnedSlab] = [:]

    /// A slab loss learned: dB, and its 1-σ.
    public struct LearnedSlab: Equatable, Sendable {
        public var loss: Double
        public var spread: Double

        public init(loss: Double, spread: Double) {
            self.loss = loss
            self.spread = spread
        }
    }
    /// How each gateway hears, by gateway index, as `beacon locate --calibrate` fitted it; a gateway
    /// beyond the array hears as the model says (offset 0, `exponent`).
    public var receivers: [Receiver] = []

    /// One gateway's own offset (dB it reads above the model) and path-loss exponent.
    public struct Receiver: Equatable, Sendable {
        public var offset: Double
        public var exponent: Double
        /// Whether the exponent was measured (`beacon locate --calibrate`): not hedged (`exponentHedge`).
        public var measured: Bool

        public init(offset: Double, exponent: Double, measured: Bool = false) {
            self.offset = offset
            self.exponent = exponent
            self.measured = measured
        }
    }

    public init() {}

    /// How gateway `index` hears.
    public func receiver(_ index: Int) -> Receiver {
        receivers.indices.contains(index) ? receivers[index] : Receiver(offset: 0, exponent: exponent)
    }

    /// The distance (m) at which the model puts a reading of `rssi` by gateway `gateway` from a beacon of
    /// power `power` at 1 m, with no wall between.
    public func distance(rssi: Double, power: Double, gateway: Int) -> Double {
        let receiver = receiver(gateway)
        return pow(10, (power + receiver.offset - rssi) / (10 * receiver.exponent))
    }
}

/// Where a beacon is, and how sure: the estimate after a window.
public struct PositionEstimate: Sendable {
    public var point: Point2
    /// 1-σ radius, metres.
    public var error: Double
    public var floor: Int
    /// The probability of each room (nil: in none), largest first; together 1.
    public var rooms: [(room: Int?, probability: Double)]
    /// The beacon's power at 1 m as the gateways hear it (dBm), as learned so far.
    public var power: Double
}

/// Where one beacon is on its floor, tracked over time: a particle filter. Each particle is a place and
/// a way of moving (standing nearly still, or walking with a velocity that changes smoothly, capped at
/// `maximumSpeed`), so a beacon on a desk is averaged over many windows and a walking one is followed
/// without lag; the readings of each window weigh the particles by the signal model, the beacon's own
/// power at 1 m profiled out (only the differences between the gateways' readings place it, so a
/// miscalibrated beacon is placed as well as a calibrated one). Each particle stands on a floor, drawn
/// about a hearing gateway on that gateway's floor, so every floor's readings decide the floor together.
/// The estimate is the weighted mean of the particles on the likeliest floor, its error their weighted
/// spread, and each room's probability (on any floor) the weight of the particles in it,
/// all taken before the particles are resampled (at the next step), so the resampling adds no noise to them.
///
/// The filter also remembers where each particle was at its recent steps, carried through resampling so
/// each particle keeps its own past (fixed-lag smoothing): a step's estimate can be taken with hindsight,
/// the particles' places then weighed by what was heard after it (`estimate(at:map:)`), until the step is
/// forgotten (`forget(through:)`).
///
/// Random draws come from the filter's own generator, seeded by the caller (per beacon), so the same
/// readings always give the same estimates.
public struct PositionFilter: Sendable {
    /// Particles per beacon.
    public static let particleCount = 200
    /// At most this many gateways' readings are weighed in one window, the loudest, so a beacon that every
    /// gateway of a large building hears costs a bounded amount. Below it, every gateway that hears the
    /// beacon counts: a quiet reading says where the beacon is not as much as a loud one says where it is.
    public static let maximumObservations = 16
    /// Fastest a beacon moves, metres per second: brisk walking.
    public static let maximumSpeed = 2.0
    /// How much a standing beacon drifts, metres per √s (someone shifting on a chair).
    static let standingDrift = 0.05
    /// The spread of a walking beacon's velocity per axis, metres per second.
    static let walkingSpeed = 0.7
    /// How long a walking beacon keeps its velocity, seconds (the correlation time).
    static let velocityMemory = 5.0
    /// How often a beacon starts or stops walking, per second.
    static let modeChangeRate = 0.1
    /// Readings closer than this to a gateway count as this close, metres.
    static let minimumDistance = 0.1
    /// Log-likelihood added each window to a particle outside every room: beacons are mostly in rooms,
    /// so a place outside them must be supported by the readings (walls the site file knows) to be held.
    static let outsidePenalty = log(0.3)
    /// The share of first particles spread over the whole floor rather than about the gateways.
    static let uniformShare = 0.2
    /// The share of particles drawn afresh about the hearing gateways at each move (`refresh`).
    static let freshShare = 0.05
    /// How often a beacon changes floors, per second: once in ten minutes (a floor is left by the stairs,
    /// rarely, while a window's readings may favour another floor by chance).
    static let floorChangeRate = 1.0 / 600
    /// The kernel's width after resampling, as a share of the cloud's spread: Silverman's rule for
    /// `particleCount` particles in two dimensions, (4 / (n (d + 2)))^(1 / (d + 4)).
    static let kernelBandwidth = pow(4 / (Double(particleCount) * 4), 1.0 / 6)

    private(set) var x: [Float] = []
    private(set) var y: [Float] = []
    /// Each particle's floor (a level of the site).
    private(set) var level: [Int] = []
    private var vx: [Float] = []
    private var vy: [Float] = []
    private var weight: [Float] = []
    private(set) var walking: [Bool] = []
    private var rng: SplitMix64
    /// The weights have collapsed: resample before the next move.
    private var needsResampling = false
    private var time: Timestamp?
    /// The steps not forgotten yet, oldest first.
    private(set) var past: [PastStep] = []
    /// The beacon's power at 1 m: mean and variance (dBm, dB²).
    private var power: (mean: Double, variance: Double)?

    public init(seed: UInt64) {
        rng = SplitMix64(seed: seed)
    }

    /// Moves the particles on to `time` and weighs them by `observations` (none: the estimate only
    /// spreads), keeping where they were at `time` (`estimate(at:map:)`). Returns whether the filter
    /// places the beacon: not before the first window with an observation.
    @discardableResult
    public mutating func step(to time: Timestamp, _ observations: [SignalObservation], map: inout SiteMap,
                              model: SignalModel) -> Bool {
        let usable = Self.strongest(observations.filter { $0.rssi.isFinite && $0.sigma.isFinite && $0.sigma > 0
            && $0.measuredPower.isFinite && $0.gateway >= 0 && $0.gateway < map.site.gateways.count })
        if let last = self.time, !x.isEmpty {
            if time > last {
                let seconds = min(60, (Double(time.microseconds) - Double(last.microseconds)) / 1e6)
                // Resampled only now, not right after weighing: the last step's estimate is taken from the
                // weighted particles, without the resampling's own noise.
                if needsResampling { resample(map: map) }
                predict(seconds, map: map, model: model)
                refresh(usable, seconds: seconds, map: map, model: model)
                self.time = time
            }
        } else {
            guard !usable.isEmpty else { return false }
            self.time = time
            start(usable, map: map, model: model)
        }
        if past.last.map({ $0.time < time }) ?? true { past.append(PastStep(time: time, x: x, y: y, level: level)) }
        if !usable.isEmpty { weigh(usable, map: &map, model: model) }
        return true
    }

    /// The beacon's power at 1 m as the gateways hear it (dBm), as learned so far; nil before the first step
    /// that places it.
    public var learnedPower: Double? { power?.mean }

    /// The particles' weighted mean and 1-σ radius now (after the last step's readings) on the floor
    /// holding most of their weight, with that floor, the learned power and the weight of the walking
    /// particles (the chance the beacon is walking): the estimate without rooms or hindsight; nil before
    /// the first step that places the beacon.
    public var centre: (point: Point2, error: Double, floor: Int, power: Double, walking: Double)? {
        guard let power, let moments = moments(x: x, y: y, level: level) else { return nil }
        return (moments.point, moments.error, moments.floor, power.mean, moments.walking)
    }

    /// The estimate of the step at `time` (a time `step` was given, not forgotten yet), its particles'
    /// places then weighed by everything heard since; nil for a step that was not kept.
    public func estimate(at time: Timestamp, map: SiteMap) -> PositionEstimate? {
        guard let step = past.last(where: { $0.time == time }) else { return nil }
        return estimate(x: step.x, y: step.y, level: step.level, map: map)
    }

    /// Forgets the steps up to `time`: every step is kept until forgotten.
    public mutating func forget(through time: Timestamp) {
        past.removeAll { $0.time <= time }
    }

    /// The loudest `maximumObservations`, loudest first.
    private static func strongest(_ observations: [SignalObservation]) -> [SignalObservation] {
        Array(observations.sorted { ($0.rssi, -$0.gateway) > ($1.rssi, -$1.gateway) }.prefix(maximumObservations))
    }

    // MARK: - Particles

    /// The floors the particles stand on, lowest first, and each particle's index into them.
    private func floorSlots() -> (floors: [Int], slots: [Int]) {
        let floors = Array(Set(level)).sorted()
        var slotOf: [Int: Int] = [:]
        for (slot, floor) in floors.enumerated() { slotOf[floor] = slot }
        return (floors, level.map { slotOf[$0] ?? 0 })
    }

    /// The box of each floor that `levels` holds.
    private static func boxes(of levels: [Int], map: SiteMap) -> [Int: SiteMap.Box] {
        var boxes: [Int: SiteMap.Box] = [:]
        for level in Set(levels) { boxes[level] = map.bounds(floor: level) }
        return boxes
    }

    /// First particles: most about the gateways that heard the beacon (the louder, the likelier), within
    /// the distance their readings suggest, on the gateway's floor; some anywhere on the loudest's floor.
    private mutating func start(_ observations: [SignalObservation], map: SiteMap, model: SignalModel) {
        let count = Self.particleCount
        x = []; y = []; level = []; vx = []; vy = []; walking = []
        x.reserveCapacity(count); y.reserveCapacity(count); level.reserveCapacity(count)
        let (chances, total) = Self.nearestChances(observations)
        for index in 0..<count {
            let place = draw(observations, chances: chances, total: total, uniform: Double(index) < Self.uniformShare * Double(count),
                             map: map, model: model)
            x.append(Float(place.point.x)); y.append(Float(place.point.y)); level.append(place.floor)
            vx.append(0); vy.append(0)
            walking.append(rng.chance(0.5))
        }
        weight = [Float](repeating: 1 / Float(count), count: count)
        needsResampling = false
        let measured = observations.map(\.measuredPower).reduce(0, +) / Double(observations.count)
        power = (measured, model.powerSpread * model.powerSpread)
    }

    /// How likely each gateway of `observations` (loudest first) is the nearest, and the chances' sum: a
    /// gateway 6 dB quieter is e times less likely.
    private static func nearestChances(_ observations: [SignalObservation]) -> (chances: [Double], total: Double) {
        let loudest = observations[0].rssi
        let chances = observations.map { exp(($0.rssi - loudest) / 6) }
        return (chances, chances.reduce(0, +))
    }

    /// One place drawn from what `observations` (loudest first) suggest: anywhere on the loudest gateway's
    /// floor when `uniform`, else about a gateway picked by `chances` (of `total`), on its floor, within 1.5
    /// times the distance its reading suggests.
    private mutating func draw(_ observations: [SignalObservation], chances: [Double], total: Double, uniform: Bool,
                               map: SiteMap, model: SignalModel) -> (point: Point2, floor: Int) {
        if uniform {
            let loudest = map.site.gateways[observations[0].gateway]
            // A gateway's floor always has bounds: the box holds the gateway.
            guard let box = map.bounds(floor: loudest.floor) else { return (loudest.point, loudest.floor) }
            return (Point2(x: box.low.x + rng.unit() * box.width, y: box.low.y + rng.unit() * box.height), loudest.floor)
        }
        var pick = rng.unit() * total
        var chosen = observations.count - 1
        for (i, chance) in chances.enumerated() {
            pick -= chance
            if pick < 0 { chosen = i; break }
        }
        let observation = observations[chosen]
        let gateway = map.site.gateways[observation.gateway]
        guard let box = map.bounds(floor: gateway.floor) else { return (gateway.point, gateway.floor) }
        let radius = min(30, max(1, 1.5 * model.distance(rssi: observation.rssi, power: observation.measuredPower,
                                                                  gateway: observation.gateway)))
        let r = radius * rng.unit().squareRoot(), angle = 2 * Double.pi * rng.unit()
        return (box.clamp(Point2(x: gateway.x + r * cos(angle), y: gateway.y + r * sin(angle))), gateway.floor)
    }

    /// Replaces about `freshShare` of the particles with places drawn about the gateways that hear the
    /// beacon now (as the first particles are): a cloud the readings have left behind, say in a corner a
    /// wrong path-loss model made likely, is found again within seconds instead of having to walk back, and
    /// a beacon carried to another floor is found there (a fresh particle on another floor than the one it
    /// replaces is weighed by how rarely beacons change floors, `floorChangeRate`). A fresh particle has no past of its own: at the
    /// steps remembered it is taken to have stood where it is drawn, so hindsight moves the past towards
    /// where the beacon is found, except at a step when the particle it replaces stood on another floor
    /// (that one's place is kept there): hindsight does not move a beacon to a floor before it is heard there.
    private mutating func refresh(_ observations: [SignalObservation], seconds: Double, map: SiteMap, model: SignalModel) {
        guard !observations.isEmpty else { return }
        let (chances, total) = Self.nearestChances(observations)
        // A fresh guess on another floor is weighed by the chance of a floor change over the chance of
        // being drawn: a window whose readings barely favour another floor does not move the beacon there.
        let floorOdds = Float(min(1, Self.floorChangeRate * seconds / Self.freshShare))
        for i in x.indices where rng.chance(Self.freshShare) {
            let place = draw(observations, chances: chances, total: total, uniform: false, map: map, model: model)
            if place.floor != level[i] { weight[i] *= floorOdds }
            x[i] = Float(place.point.x); y[i] = Float(place.point.y); level[i] = place.floor; vx[i] = 0; vy[i] = 0
            for step in past.indices where past[step].x.count == x.count && past[step].level[i] == place.floor {
                past[step].x[i] = x[i]
                past[step].y[i] = y[i]
            }
        }
    }

    private mutating func predict(_ seconds: Double, map: SiteMap, model: SignalModel) {
        guard seconds > 0 else { return }
        let boxes = Self.boxes(of: level, map: map)
        let change = 1 - exp(-Self.modeChangeRate * seconds)
        let memory = exp(-seconds / Self.velocityMemory)
        let kick = Self.walkingSpeed * (1 - memory * memory).squareRoot()
        let drift = Self.standingDrift * seconds.squareRoot()
        let top = Self.maximumSpeed
        for i in x.indices {
            if rng.chance(change) { walking[i].toggle() }
            var px = Double(x[i]), py = Double(y[i])
            if walking[i] {
                let (kx, ky) = rng.normalPair()
                var ux = memory * Double(vx[i]) + kick * kx
                var uy = memory * Double(vy[i]) + kick * ky
                let speed = (ux * ux + uy * uy).squareRoot()
                if speed > top { ux *= top / speed; uy *= top / speed }
                px += ux * seconds
                py += uy * seconds
                vx[i] = Float(ux); vy[i] = Float(uy)
            } else {
                vx[i] = 0; vy[i] = 0
            }
            let (jx, jy) = rng.normalPair()
            px += drift * jx
            py += drift * jy
            let point = boxes[level[i]]?.clamp(Point2(x: px, y: py)) ?? Point2(x: px, y: py)
            x[i] = Float(point.x); y[i] = Float(point.y)
        }
        if var belief = power {
            belief.variance += model.powerDrift * model.powerDrift * seconds
            power = belief
        }
    }

    /// Weighs each particle by the likelihood of the readings there, the beacon's power at 1 m profiled
    /// out: for a particle, each reading plus its path loss and walls is an estimate of that power; their
    /// weighted mean (with the belief so far) is the particle's power, and the scatter of the estimates
    /// about it is what the particle is judged by. Where the survey's radio map reaches a gateway, its
    /// correction joins the path loss and its variance replaces the model's scatter. A gateway on another
    /// floor than the particle's hears through the slabs between: those the site gives lose their
    /// attenuation; what the others lose is one unknown shift (1-σ `slabDoubt`) shared by the readings of
    /// the gateways on that floor, integrated out, so only their common level is doubted.
    private mutating func weigh(_ observations: [SignalObservation], map: inout SiteMap, model: SignalModel) {
        guard var belief = power else { return }
        let count = x.count
        // What depends on a particle's floor, per floor the particles are on.
        let (floors, slots) = floorSlots()
        let gateways = observations.map { map.site.gateways[$0.gateway] }
        // Per floor, then per reading (at slot · readings + reading): the gateway's height above a beacon there.
        let heights = floors.flatMap { floor in
            let beaconElevation = map.elevation(ofFloor: floor) + model.beaconHeight
            return observations.map { map.elevation(ofGateway: $0.gateway) - beaconElevation }
        }
        let precisions = observations.map { 1 / ($0.sigma * $0.sigma) }
        let totalPrecision = precisions.reduce(0, +) + 1 / belief.variance
        let priorTerm = belief.mean / belief.variance
        let receivers = observations.map { model.receiver($0.gateway) }
        let slopes = receivers.map { 5 * $0.exponent / log(10.0) }  // 10 n log10(d) = slope · ln(d²)
        let tails = model.tails
        let minimumSquare = Self.minimumDistance * Self.minimumDistance
        var logLikelihoods = [Double](repeating: 0, count: count)
        var powers = [Double](repeating: 0, count: count)
        var estimates = [Double](repeating: 0, count: observations.count)
        let roots = precisions.map { $0.squareRoot() }
        let walls = floors.map { map.hasWalls(onFloor: $0) }
        var outside = [Bool](repeating: false, count: count)
        for (slot, floor) in floors.enumerated() {
            map.withRooms(onFloor: floor) { room in
                for i in x.indices where slots[i] == slot { outside[i] = room(Point2(x: Double(x[i]), y: Double(y[i]))) == nil }
            }
        }
        let exponentOfTails = -0.5 * (tails + 1)
        // A surveyed gateway's reading is judged against the radio map there: its correction to the distance
        // model, and its variance in place of the model's scatter (so its precision varies with the place).
        let surveyed = floors.flatMap { floor in observations.map { map.radio?.covers(gateway: $0.gateway, floor: floor) ?? false } }
        // The slabs between a gateway on another floor and a beacon on this one: what they lose (the known
        // ones, and the unknown ones as learned), the variance of what is not known (0: all known), and
        // the learned part (a radio map holds what its gateway's slabs lose already).
        let slabVariance = model.slabDoubt * model.slabDoubt
        let slabs = floors.flatMap { floor in
            gateways.map { gateway -> (loss: Double, doubt: Double, learned: Double) in
                let slabs = map.site.slabs(between: gateway.floor, and: floor)
                guard slabs.unknown > 0 else { return (slabs.loss, 0, 0) }
                guard let learned = model.learnedSlabs[SlabLosses.Floors(gateway.floor, floor)] else {
                    return (slabs.loss, Double(slabs.unknown) * slabVariance, 0)
                }
                return (slabs.loss + learned.loss, learned.spread * learned.spread, learned.loss)
            }
        }
        // The readings across unknown slabs from the gateways of one floor share what those slabs lose: one
        // unknown shift, integrated out per group (the gateways' floor), so the differences between the
        // group's readings still place the beacon at their full precision and only their common level is
        // doubted. Per group: the sums of precision, of precision times the power estimate and of precision
        // times the hedged loss, and which group each reading is in (-1: none).
        let unknownSlabs = slabs.contains { $0.doubt > 0 }
        let groupFloors = unknownSlabs ? Array(Set(gateways.map(\.floor))).sorted() : []
        let groupOf = gateways.map { gateway in groupFloors.firstIndex(of: gateway.floor) ?? 0 }
        var groupPrecision = [Double](repeating: 0, count: groupFloors.count)
        var groupEstimate = groupPrecision, groupHedged = groupPrecision, groupRoot = groupPrecision
        var groupDoubt = groupPrecision
        var grouped = [Int](repeating: -1, count: observations.count)
        let ownVariances = observations.map { $0.sigma * $0.sigma - model.scatter * model.scatter }
        var particlePrecisions = precisions, particleRoots = roots
        var totals = [Double](repeating: totalPrecision, count: surveyed.contains(true) || unknownSlabs ? count : 0)
        // A reading's power estimate is linear in its exponent: under a hedge's multiple m it moves by
        // (m − 1) · slope · ln(d²), the path loss each hedged reading adds (`hedgedLoss`, per particle).
        let hedged = observations.indices.map { !receivers[$0].measured }
        let hedge = hedged.contains(true) && !model.exponentHedge.isEmpty ? model.exponentHedge : [1.0]
        let hedgeWeight = log(Double(hedge.count))
        var hedgedLoss = [Double](repeating: 0, count: observations.count)
        var hedgeLikelihoods = [Double](repeating: 0, count: hedge.count)
        var hedgePowers = hedgeLikelihoods
        var best = -Double.infinity
        for i in 0..<count {
            let px = Double(x[i]), py = Double(y[i])
            let slot = slots[i], floor = floors[slot], row = slot * observations.count
            var weighted = priorTerm
            // The precision-weighted sum of the hedged readings' path loss: what a hedge's multiple shifts the power by.
            var weightedHedgedLoss = 0.0
            var total = totalPrecision
            // The product of the surveyed readings' (and those across slabs of unknown loss) precisions over the model's.
            var precisionRatio = 1.0
            for j in 0..<observations.count {
                let dx = px - gateways[j].x, dy = py - gateways[j].y, dz = heights[row + j]
                let square = max(dx * dx + dy * dy + dz * dz, minimumSquare)
                // In Float: a hundredth of a dB is far below the model's scatter, and it is twice as fast.
                let loss = slopes[j] * Double(logf(Float(square)))
                hedgedLoss[j] = hedged[j] ? loss : 0
                var estimate = observations[j].rssi - receivers[j].offset + loss + slabs[row + j].loss
                if walls[slot] { estimate += map.wallLoss(gateway: observations[j].gateway, from: Point2(x: px, y: py), floor: floor) }
                // The reading's precision here, when it is not the model's.
                var replaced: Double?
                if surveyed[row + j], let survey = map.surveyed(gateway: observations[j].gateway, at: Point2(x: px, y: py), floor: floor) {
                    estimate -= survey.correction + slabs[row + j].learned
                    // Under another exponent the map would move too, where its points reach as much as the model.
                    hedgedLoss[j] = loss - slopes[j] * survey.exponentLeverage
                    replaced = 1 / max(0.25, ownVariances[j] + survey.variance)
                } else if slabs[row + j].doubt > 0 {
                    let group = groupOf[j]
                    grouped[j] = group
                    groupDoubt[group] = slabs[row + j].doubt
                    groupPrecision[group] += precisions[j]
                    groupEstimate[group] += precisions[j] * estimate
                    groupHedged[group] += precisions[j] * hedgedLoss[j]
                }
                if let precision = replaced {
                    precisionRatio *= precision / precisions[j]
                    total += precision - precisions[j]
                    particlePrecisions[j] = precision
                    particleRoots[j] = precision.squareRoot()
                }
                estimates[j] = estimate
                guard grouped[j] < 0 else { continue }
                weighted += particlePrecisions[j] * estimate
                weightedHedgedLoss += particlePrecisions[j] * hedgedLoss[j]
            }
            // Each group's mean reading, with the shared shift's variance added, weighs into the power once.
            for group in groupFloors.indices where groupPrecision[group] > 0 {
                let sum = groupPrecision[group]
                let shrink = 1 / (1 + groupDoubt[group] * sum)
                weighted += shrink * groupEstimate[group]
                weightedHedgedLoss += shrink * groupHedged[group]
                total += sum * shrink - sum
                precisionRatio *= shrink
                groupEstimate[group] /= sum
                groupHedged[group] /= sum
                groupRoot[group] = (sum * shrink).squareRoot()
            }
            // Under each exponent of the hedge: the particle's power, and the likelihood of its readings.
            var top = -Double.infinity
            for (k, multiple) in hedge.enumerated() {
                let shift = multiple - 1
                let power = (weighted + shift * weightedHedgedLoss) / total
                // Σ log(1 + t²/ν) as the log of one product: one logarithm per particle, not one per reading.
                var product = 1.0
                for j in 0..<observations.count {
                    let group = grouped[j]
                    // A grouped reading counts by its difference from its group's mean (the shift cancels).
                    let centre = group < 0 ? power : groupEstimate[group] + shift * groupHedged[group]
                    let standardised = (estimates[j] + shift * hedgedLoss[j] - centre) * particleRoots[j]
                    product *= 1 + standardised * standardised / tails
                }
                for group in groupFloors.indices where groupPrecision[group] > 0 {
                    let standardised = (groupEstimate[group] + shift * groupHedged[group] - power) * groupRoot[group]
                    product *= 1 + standardised * standardised / tails
                }
                hedgeLikelihoods[k] = -0.5 * (power - belief.mean) * (power - belief.mean) / belief.variance
                    + exponentOfTails * log(product)
                hedgePowers[k] = power
                top = max(top, hedgeLikelihoods[k])
            }
            // Their mean, and the power each exponent gives weighed by how well it explains the readings
            // (a particle no exponent explains keeps the likelihood it has: none).
            var sum = 0.0, powerSum = 0.0
            for k in hedge.indices where top.isFinite {
                let share = exp(hedgeLikelihoods[k] - top)
                sum += share
                powerSum += share * hedgePowers[k]
            }
            let power = sum > 0 ? powerSum / sum : hedgePowers[0]
            var logLikelihood = sum > 0 ? top + log(sum) - hedgeWeight : top
            if !totals.isEmpty {
                // The readings' scale, and the power's (integrated out, it is surer where the readings are).
                logLikelihood += 0.5 * log(precisionRatio * totalPrecision / total)
                totals[i] = total
                particlePrecisions = precisions
                particleRoots = roots
                for group in groupFloors.indices { groupPrecision[group] = 0; groupEstimate[group] = 0; groupHedged[group] = 0 }
                for j in grouped.indices { grouped[j] = -1 }
            }
            if outside[i] { logLikelihood += Self.outsidePenalty }
            logLikelihoods[i] = logLikelihood
            powers[i] = power
            best = max(best, logLikelihood)
        }
        var total = 0.0
        var updated = [Double](repeating: 0, count: count)
        for i in 0..<count {
            let w = Double(weight[i]) * exp(logLikelihoods[i] - best)
            updated[i] = w
            total += w
        }
        guard total > 0, total.isFinite else { return }
        var mean = 0.0, squares = 0.0, concentration = 0.0, uncertainty = 0.0
        for i in 0..<count {
            let w = updated[i] / total
            weight[i] = Float(w)
            mean += w * powers[i]
            squares += w * powers[i] * powers[i]
            concentration += w * w
            if !totals.isEmpty { uncertainty += w / totals[i] }
        }
        let spread = max(0, squares - mean * mean)
        belief.mean = mean
        belief.variance = max(0.25, (totals.isEmpty ? 1 / totalPrecision : uncertainty) + spread)
        power = belief
        // Fewer than half the particles' worth of weight left: a fresh set is drawn before the next move.
        needsResampling = concentration * Double(count) > 2
    }

    /// Systematic resampling: each particle copied in proportion to its weight, the weights made equal;
    /// then the copies' places spread by a kernel (Liu and West's shrinkage: each place pulled towards its
    /// cloud's mean and jittered so the cloud keeps its mean and spread), so copies of one particle do not
    /// stay on one spot when the beacon stands still and its own drift is small.
    private mutating func resample(map: SiteMap) {
        needsResampling = false
        let count = x.count
        // Standing and walking particles are two clouds on each floor (a standing one tight, a walking one
        // wide): the kernel keeps each one's mean and spread.
        let (floors, slots) = floorSlots()
        let clouds = 2 * floors.count
        func cloud(_ i: Int) -> Int { 2 * slots[i] + (walking[i] ? 1 : 0) }
        var mass = [Double](repeating: 0, count: clouds), mx = mass, my = mass, vxx = mass, vyy = mass
        for i in 0..<count {
            let mode = cloud(i), w = Double(weight[i])
            mass[mode] += w
            mx[mode] += w * Double(x[i])
            my[mode] += w * Double(y[i])
        }
        for mode in 0..<clouds where mass[mode] > 0 {
            mx[mode] /= mass[mode]
            my[mode] /= mass[mode]
        }
        for i in 0..<count {
            let mode = cloud(i), w = Double(weight[i])
            let dx = Double(x[i]) - mx[mode], dy = Double(y[i]) - my[mode]
            vxx[mode] += w * dx * dx
            vyy[mode] += w * dy * dy
        }
        for mode in 0..<clouds where mass[mode] > 0 {
            vxx[mode] /= mass[mode]
            vyy[mode] /= mass[mode]
        }
        var newX = [Float](), newY = [Float](), newVX = [Float](), newVY = [Float](), newWalking = [Bool](), newLevel = [Int]()
        newX.reserveCapacity(count); newY.reserveCapacity(count); newVX.reserveCapacity(count)
        newVY.reserveCapacity(count); newWalking.reserveCapacity(count); newLevel.reserveCapacity(count)
        var sources: [Int] = []
        sources.reserveCapacity(count)
        let step = 1 / Double(count)
        var target = rng.unit() * step
        var cumulative = 0.0
        var source = 0
        for _ in 0..<count {
            while source < count - 1 && cumulative + Double(weight[source]) < target {
                cumulative += Double(weight[source])
                source += 1
            }
            newX.append(x[source]); newY.append(y[source]); newVX.append(vx[source]); newVY.append(vy[source])
            newWalking.append(walking[source]); newLevel.append(level[source])
            sources.append(source)
            target += step
        }
        // The past keeps the copies' own places: only the current cloud is spread.
        for index in past.indices where past[index].x.count == count {
            past[index].x = sources.map { past[index].x[$0] }
            past[index].y = sources.map { past[index].y[$0] }
            past[index].level = sources.map { past[index].level[$0] }
        }
        x = newX; y = newY; vx = newVX; vy = newVY; walking = newWalking; level = newLevel
        let bandwidth = Self.kernelBandwidth
        let shrink = (1 - bandwidth * bandwidth).squareRoot()
        let boxes = Self.boxes(of: level, map: map)
        // Each copy in its source's cloud.
        let copiedSlots = sources.map { slots[$0] }
        for i in 0..<count {
            let mode = 2 * copiedSlots[i] + (walking[i] ? 1 : 0)
            let (jx, jy) = rng.normalPair()
            var point = Point2(x: shrink * Double(x[i]) + (1 - shrink) * mx[mode] + bandwidth * vxx[mode].squareRoot() * jx,
                               y: shrink * Double(y[i]) + (1 - shrink) * my[mode] + bandwidth * vyy[mode].squareRoot() * jy)
            if let box = boxes[level[i]] { point = box.clamp(point) }
            x[i] = Float(point.x); y[i] = Float(point.y)
        }
        weight = [Float](repeating: 1 / Float(count), count: count)
    }

    // MARK: - Estimate

    /// The particles at `x`, `y` on floors `level` with the current weights: the floor holding the most
    /// weight (the lowest of equals), its particles' weighted mean and 1-σ radius, the total weight and the
    /// walking particles' share of it; nil when there are none or no weight.
    private func moments(x: [Float], y: [Float], level: [Int])
        -> (point: Point2, error: Double, total: Double, walking: Double, floor: Int)? {
        guard !x.isEmpty, x.count == weight.count, walking.count == weight.count, level.count == weight.count else { return nil }
        var total = 0.0, moving = 0.0
        var masses: [Int: Double] = [:]
        for i in x.indices {
            let w = Double(weight[i])
            total += w
            if walking[i] { moving += w }
            masses[level[i], default: 0] += w
        }
        guard total > 0, let floor = masses.max(by: { ($0.value, -$0.key) < ($1.value, -$1.key) })?.key else { return nil }
        var mass = 0.0, mx = 0.0, my = 0.0
        for i in x.indices where level[i] == floor {
            let w = Double(weight[i])
            mass += w
            mx += w * Double(x[i])
            my += w * Double(y[i])
        }
        guard mass > 0 else { return nil }
        mx /= mass
        my /= mass
        var variance = 0.0
        for i in x.indices where level[i] == floor {
            let w = Double(weight[i]) / mass
            let dx = Double(x[i]) - mx, dy = Double(y[i]) - my
            variance += w * (dx * dx + dy * dy)
        }
        return (Point2(x: mx, y: my), variance.squareRoot(), total, moving / total, floor)
    }

    /// The estimate from particles at `x`, `y` on floors `level` with the current weights: the place on the
    /// likeliest floor, the rooms' probabilities over every floor.
    private func estimate(x: [Float], y: [Float], level: [Int], map: SiteMap) -> PositionEstimate? {
        guard let power, let moments = moments(x: x, y: y, level: level) else { return nil }
        // Index 0: in no room; room r at r + 1.
        var shares = [Double](repeating: 0, count: map.site.rooms.count + 1)
        for floor in Set(level).sorted() {
            map.withRooms(onFloor: floor) { room in
                for i in x.indices where level[i] == floor {
                    shares[room(Point2(x: Double(x[i]), y: Double(y[i]))).map { $0 + 1 } ?? 0] += Double(weight[i]) / moments.total
                }
            }
        }
        let ranked = shares.indices.filter { shares[$0] > 0 }
            .map { (room: $0 == 0 ? nil : $0 - 1, probability: shares[$0]) }
            .sorted { ($0.probability, -($0.room ?? -1)) > ($1.probability, -($1.room ?? -1)) }
        return PositionEstimate(point: moments.point, error: moments.error, floor: moments.floor, rooms: ranked, power: power.mean)
    }
}

/// Where the particles were at one step, in the current particles' order.
struct PastStep: Sendable {
    var time: Timestamp
    var x: [Float]
    var y: [Float]
    var level: [Int]
}
