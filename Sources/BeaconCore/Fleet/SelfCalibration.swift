/// `beacon locate --calibrate`: the gateways' readings of each other's own beacons gathered per pair, a
/// `GatewayCalibration` fit when there are enough of them and then every `interval`. Two fits each time:
/// one of the latest `memory` ticks of each pair, which watches for a gateway that hears differently
/// now, and the one put in use, of up to `pooledMinutes` minutes, which the slow fading disturbs less the
/// longer the gateways have heard each other. A gateway the watch finds changed has its pairs' pooled
/// minutes forgotten, so the fit in use follows the move at once. Time is the readings' own.
public struct SelfCalibration: Sendable {
    /// A pair counts once its receiver has this many tick readings of the transmitter's beacon.
    public static let minimumReadings = 20
    /// The watching fit's pairs are of their latest this many tick readings (20 minutes of 1 s ticks):
    /// enough for the slow fading to average out; a gateway that moves shows in the watch within half of it.
    public static let defaultMemory = 1200
    /// Tick readings per pooled level (a minute of 1 s ticks).
    public static let ticksPerLevel = 60
    /// The fit in use pools up to this many of a pair's levels (an hour): three times the watch's readings,
    /// so its levels are known to √3 times better, while what changes slowly (furniture, doors kept open)
    /// is still followed within the hour.
    public static let defaultPooledMinutes = 60
    /// Pairs kept at most (a site of 70 gateways all hearing each other has 4,830).
    public static let maximumPairs = 5_000

    /// Time between fits once the first one is made.
    public var interval: Micros
    /// The first fit waits this long after the first pair counts, for the other pairs to count too.
    public var settle: Micros
    /// Tick readings per pair the watching fit's level is taken over.
    public var memory: Int
    /// Levels of `ticksPerLevel` tick readings per pair the fit in use pools, once there are more of them
    /// than the watch holds.
    public var pooledMinutes: Int

    private var pairs: [PairKey: PairReadings] = [:]
    private var firstReady: Timestamp?
    private var lastFit: Timestamp?
    /// The fit in use.
    public private(set) var current: SiteCalibration?
    /// Per gateway, the fit fresh fits are held to: its first, replaced only when one contradicts it, so a
    /// change that comes in over several fits is reported once it adds up.
    private var references: [Int: GatewayFit] = [:]

    public init(interval: Micros = .seconds(60), settle: Micros = .seconds(30), memory: Int = defaultMemory,
                pooledMinutes: Int = defaultPooledMinutes) {
        self.interval = interval
        self.settle = settle
        self.memory = max(1, memory)
        self.pooledMinutes = max(1, pooledMinutes)
    }

    /// Gateway `receiver` heard gateway `transmitter`'s beacon in a tick ending at `time`.
    public mutating func heard(receiver: Int, transmitter: Int, rssi: Double, measuredPower: Int, at time: Timestamp) {
        guard receiver != transmitter, rssi.isFinite else { return }
        let key = PairKey(receiver: receiver, transmitter: transmitter)
        guard pairs[key] != nil || pairs.count < Self.maximumPairs else { return }
        pairs[key, default: PairReadings()].add(rssi, measuredPower: measuredPower, memory: memory, pooledMinutes: pooledMinutes)
        if firstReady == nil, pairs[key]!.count >= Self.minimumReadings { firstReady = time }
    }

    /// Continues from `calibration`, an earlier run's (its retained message): it is the one in use and
    /// every fresh fit is held to it, until a fit of this run's readings is made. False (nothing changed)
    /// once this run has a fit of its own.
    public mutating func resume(from calibration: SiteCalibration) -> Bool {
        guard lastFit == nil, current == nil else { return false }
        current = calibration
        for fit in calibration.gateways { references[fit.gateway] = fit }
        return true
    }

    /// At the end of the window ending `tick`: a fresh fit when one is due (nil otherwise), with the
    /// gateways whose reference fit the watching fit contradicts; the pooled fit becomes the one in use.
    public mutating func fitIfDue(at tick: Timestamp, site: Site, exponentPrior: Double) -> CalibrationReport? {
        guard let firstReady else { return nil }
        if let lastFit {
            guard tick - lastFit >= interval else { return nil }
        } else {
            guard tick - firstReady >= settle else { return nil }
        }
        lastFit = tick
        let ready = pairs.filter { $0.value.count >= Self.minimumReadings }.keys
            .sorted { ($0.receiver, $0.transmitter) < ($1.receiver, $1.transmitter) }
        func fit(pooled: Bool) -> SiteCalibration? {
            let levels = ready.compactMap { key in
                pairs[key].map { pair in
                    GatewayPair(receiver: key.receiver, transmitter: key.transmitter,
                                rssi: pooled ? pair.pooledLevel(watching: memory) : pair.level, measuredPower: Double(pair.measuredPower))
                }
            }
            return GatewayCalibration.fit(levels, site: site, exponentPrior: exponentPrior)
        }
        guard let watch = fit(pooled: false) else { return nil }
        var changes: [CalibrationReport.Change] = []
        for fit in watch.gateways {
            guard let reference = references[fit.gateway] else {
                references[fit.gateway] = fit
                continue
            }
            if reference.isContradicted(by: fit) {
                changes.append(CalibrationReport.Change(reference: reference, fresh: fit))
                references[fit.gateway] = fit
            }
        }
        // What a changed gateway heard, or was heard at, before the change no longer holds.
        let changed = Set(changes.map(\.fresh.gateway))
        for key in pairs.keys where changed.contains(key.receiver) || changed.contains(key.transmitter) { pairs[key]?.forgetPooled() }
        // Until a pair pools more than the watch holds, the two fits are the same one.
        let inUse = ready.contains { pairs[$0]?.pools(watching: memory) == true } ? fit(pooled: true) ?? watch : watch
        current = inUse
        return CalibrationReport(time: tick, calibration: inUse, changes: changes, gatewayNames: site.gateways.map(\.name))
    }

    private struct PairKey: Hashable, Sendable {
        var receiver: Int
        var transmitter: Int
    }

    /// The latest `memory` tick means of one pair, in a ring, and the levels of its latest minutes.
    private struct PairReadings: Sendable {
        private var values: [Float] = []
        private var next = 0
        private(set) var count = 0
        private(set) var measuredPower = 0
        /// A level per `ticksPerLevel` readings (the newest ones' at each), in a ring of `pooledMinutes`.
        private var minutes: [Float] = []
        private var nextMinute = 0

        mutating func add(_ rssi: Double, measuredPower: Int, memory: Int, pooledMinutes: Int) {
            self.measuredPower = measuredPower
            count += 1
            if values.count < memory {
                values.append(Float(rssi))
            } else {
                values[next] = Float(rssi)
                next = (next + 1) % values.count
            }
            guard count % SelfCalibration.ticksPerLevel == 0, values.count >= SelfCalibration.ticksPerLevel else { return }
            // The newest reading is just before `next` (at the end while the ring fills, `next` being 0).
            let newest = (1...SelfCalibration.ticksPerLevel).map { back in values[(next - back + values.count) % values.count] }
            let level = Float(Self.trimmedMean(newest))
            if minutes.count < pooledMinutes {
                minutes.append(level)
            } else {
                minutes[nextMinute] = level
                nextMinute = (nextMinute + 1) % minutes.count
            }
        }

        /// The mean of the middle 80 % of the readings: a body in the way now and then is trimmed off,
        /// and the rest averages almost as well as the plain mean.
        var level: Double { Self.trimmedMean(values) }

        /// Whether the pooled minutes hold more readings than the watch's `memory`.
        func pools(watching memory: Int) -> Bool { minutes.count * SelfCalibration.ticksPerLevel > memory }

        /// The mean of the pooled minutes' levels when they hold more than the watch, its level otherwise.
        func pooledLevel(watching memory: Int) -> Double {
            pools(watching: memory) ? minutes.reduce(0.0) { $0 + Double($1) } / Double(minutes.count) : level
        }

        mutating func forgetPooled() {
            minutes.removeAll()
            nextMinute = 0
        }

        private static func trimmedMean(_ values: [Float]) -> Double {
            let sorted = values.sorted()
            let trim = sorted.count / 10
            let middle = sorted[trim..<(sorted.count - trim)]
            return middle.reduce(0.0) { $0 + Double($1) } / Double(middle.count)
        }
    }
}

/// A self-calibration fit as `beacon locate --calibrate` reports it (the `gatewayCalibration` line).
public struct CalibrationReport: Equatable, Sendable {
    public var time: Timestamp
    public var calibration: SiteCalibration
    /// The gateways whose fit contradicts the one they were held to.
    public var changes: [Change]
    /// The site's gateways' names, by index.
    public var gatewayNames: [String]

    /// A gateway that hears differently now: the fit it was held to, and the fresh one.
    public struct Change: Equatable, Sendable {
        public var reference: GatewayFit
        public var fresh: GatewayFit
    }

    public init(time: Timestamp, calibration: SiteCalibration, changes: [Change], gatewayNames: [String]) {
        self.time = time
        self.calibration = calibration
        self.changes = changes
        self.gatewayNames = gatewayNames
    }

    /// The gateways (by index) that changed.
    public var changed: [Int] { changes.map(\.fresh.gateway) }

    /// The line, without its newline.
    public var json: String {
        var w = JSONWriter()
        w.object { o in
            o.field("event", "gatewayCalibration")
            o.field("time", time)
            o.field("pairs", calibration.pairs)
            o.field("scatter", calibration.scatter, decimals: 2)
            o.field("gateways", array: { list in
                for fit in calibration.gateways {
                    list.object { g in
                        g.field("name", gatewayNames[fit.gateway])
                        g.field("offset", fit.offset, decimals: 2)
                        g.field("offsetError", fit.offsetError, decimals: 2)
                        g.field("exponent", fit.exponent, decimals: 2)
                        g.field("exponentError", fit.exponentError, decimals: 2)
                        g.field("pairs", fit.pairs)
                        g.field("residual", fit.residual, decimals: 2)
                        g.field("changed", changed.contains(fit.gateway))
                        g.field("outliers", array: { names in
                            for outlier in fit.outliers { names.string(gatewayNames[outlier]) }
                        })
                        // What a restarted locate needs to hold fresh fits to this one (`GatewayFit.level`).
                        g.field("covariance", fit.covariance, decimals: 4)
                        g.field("centre", fit.centre, decimals: 2)
                    }
                }
            })
        }
        return w.text
    }
}
