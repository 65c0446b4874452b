/// `beacon locate --calibrate`: the gateways' readings of each other's own beacons gathered per pair, a
/// `GatewayCalibration` fit when there are enough of them and then every `interval`, each fit compared
/// with the one in use. Time is the readings' own.
public struct SelfCalibration: Sendable {
    /// A pair counts once its receiver has this many tick readings of the transmitter's beacon.
    public static let minimumReadings = 20
    /// A pair's reading is of its latest this many tick readings (20 minutes of 1 s ticks): enough for
    /// the slow fading to average out; a gateway that moves shows in the fits within half of it.
    public static let defaultMemory = 1200
    /// Pairs kept at most (a site of 70 gateways all hearing each other has 4,830).
    public static let maximumPairs = 5_000

    /// Time between fits once the first one is made.
    public var interval: Micros
    /// The first fit waits this long after the first pair counts, for the other pairs to count too.
    public var settle: Micros
    /// Tick readings per pair its level is taken over.
    public var memory: Int

    private var pairs: [PairKey: PairReadings] = [:]
    private var firstReady: Timestamp?
    private var lastFit: Timestamp?
    /// The fit in use.
    public private(set) var current: SiteCalibration?
    /// Per gateway, the fit fresh fits are held to: its first, replaced only when one contradicts it, so a
    /// change that comes in over several fits is reported once it adds up.
    private var references: [Int: GatewayFit] = [:]

    public init(interval: Micros = .seconds(60), settle: Micros = .seconds(30), memory: Int = defaultMemory) {
        self.interval = interval
        self.settle = settle
        self.memory = max(1, memory)
    }

    /// Gateway `receiver` heard gateway `transmitter`'s beacon in a tick ending at `time`.
    public mutating func heard(receiver: Int, transmitter: Int, rssi: Double, measuredPower: Int, at time: Timestamp) {
        guard receiver != transmitter, rssi.isFinite else { return }
        let key = PairKey(receiver: receiver, transmitter: transmitter)
        guard pairs[key] != nil || pairs.count < Self.maximumPairs else { return }
        pairs[key, default: PairReadings()].add(rssi, measuredPower: measuredPower, memory: memory)
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
    /// gateways whose reference fit it contradicts; the fresh fit becomes the one in use.
    public mutating func fitIfDue(at tick: Timestamp, site: Site, exponentPrior: Double) -> CalibrationReport? {
        guard let firstReady else { return nil }
        if let lastFit {
            guard tick - lastFit >= interval else { return nil }
        } else {
            guard tick - firstReady >= settle else { return nil }
        }
        lastFit = tick
        let ready = pairs.filter { $0.value.count >= Self.minimumReadings }
            .sorted { ($0.key.receiver, $0.key.transmitter) < ($1.key.receiver, $1.key.transmitter) }
            .map { GatewayPair(receiver: $0.key.receiver, transmitter: $0.key.transmitter, rssi: $0.value.level,
                               measuredPower: Double($0.value.measuredPower)) }
        guard let fresh = GatewayCalibration.fit(ready, site: site, exponentPrior: exponentPrior) else { return nil }
        var changes: [CalibrationReport.Change] = []
        for fit in fresh.gateways {
            guard let reference = references[fit.gateway] else {
                references[fit.gateway] = fit
                continue
            }
            if reference.isContradicted(by: fit) {
                changes.append(CalibrationReport.Change(reference: reference, fresh: fit))
                references[fit.gateway] = fit
            }
        }
        current = fresh
        return CalibrationReport(time: tick, calibration: fresh, changes: changes, gatewayNames: site.gateways.map(\.name))
    }

    private struct PairKey: Hashable, Sendable {
        var receiver: Int
        var transmitter: Int
    }

    /// The latest `memory` tick means of one pair, in a ring.
    private struct PairReadings: Sendable {
        private var values: [Float] = []
        private var next = 0
        private(set) var count = 0
        private(set) var measuredPower = 0

        mutating func add(_ rssi: Double, measuredPower: Int, memory: Int) {
            self.measuredPower = measuredPower
            count += 1
            if values.count < memory {
                values.append(Float(rssi))
            } else {
                values[next] = Float(rssi)
                next = (next + 1) % values.count
            }
        }

        /// The mean of the middle 80 % of the readings: a body in the way now and then is trimmed off,
        /// and the rest averages almost as well as the plain mean.
        var level: Double {
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
