import BeaconCore

/// beacon locate's fuser (`Locator`) as a row of the fleet tables: fed the gateways' readings messages in
/// time order, each message arriving at its own time, as `beacon locate --max-lateness none` fuses a
/// replay, and asked for the line it printed for the time (the latest line describing it or before).
/// With smoothing, a window's line is printed that much later: the tables feed it the readings up to
/// then before asking (`delay`) and count the delay in the time to the right room.
public struct LocatorRule: RoomRule, Sendable {
    public let name: String
    public let delay: Micros
    /// Whether it places beacons with a survey's radio map.
    public let isSurveyed: Bool
    private var locator: Locator
    private let radio: RadioMap?
    /// Per beacon, its location lines (nil: an away line) in time order.
    private var timelines: [String: [(time: Timestamp, located: LocatedBeacon?)]] = [:]
    /// Every away line: the beacon and its time.
    public private(set) var aways: [(beacon: String, time: Timestamp)] = []
    /// Every line, as `beacon locate` prints it.
    public private(set) var lines: [String] = []
    /// Every calibration line's fit (`--calibrate`).
    public private(set) var calibrations: [CalibrationReport] = []

    /// The gateways `beacon locate --survey` warned no longer fit the survey.
    public private(set) var misfits: [String] = []

    /// The fuser as `beacon locate [--smoothing SMOOTHING]` runs it; with `survey`, as `beacon locate --survey`
    /// (its radio map on the default signal model).
    /// `filterSeed`: the filters' other draws (`Locator.Settings.filterSeed`).
    public init(site: Site, smoothing: Micros = Micros(0), survey: [SurveyPoint]? = nil, name: String? = nil,
                calibrate: Bool = false, filterSeed: UInt64 = 0) {
        var settings = Locator.Settings()
        settings.maximumLateness = nil
        settings.smoothing = smoothing
        settings.filterSeed = filterSeed
        if calibrate { settings.calibration = SelfCalibration() }
        radio = survey.map { RadioMap(site: site, survey: $0, model: settings.signal) }
        locator = Locator(site: site, settings: settings, radio: radio)
        delay = smoothing
        isSurveyed = survey != nil
        self.name = name ?? (calibrate ? "beacon locate --calibrate" : smoothing.value > 0 ? "beacon locate --smoothing \(smoothing.value % 1_000_000 == 0 ? "\(smoothing.value / 1_000_000)s" : "\(smoothing.value / 1_000)ms")" : "beacon locate")
    }

    /// A fresh rule as this one was made, its filters drawing with `filterSeed`.
    public func reseeded(_ filterSeed: UInt64) -> LocatorRule {
        var settings = locator.settings
        settings.filterSeed = filterSeed
        var rule = self
        rule.locator = Locator(site: locator.site, settings: settings, radio: radio)
        rule.timelines = [:]
        rule.aways = []
        rule.lines = []
        rule.calibrations = []
        rule.misfits = []
        return rule
    }

    public mutating func add(_ message: GatewayReadings) {
        _ = locator.receive(message, arrival: message.time)
        var outputs: [LocateOutput] = []
        locator.advance(arrival: message.time) { outputs.append($0) }
        take(outputs)
        misfits += locator.surveyWarnings().map(\.gateway)
    }

    public mutating func status(gateway: String, online: Bool) {
        _ = locator.status(gateway: gateway, online: online)
    }

    /// The end of the run: what is left is fused, as `beacon locate --until-offline` does at the end.
    public mutating func finish() {
        var outputs: [LocateOutput] = []
        locator.finish { outputs.append($0) }
        take(outputs)
    }

    private mutating func take(_ outputs: [LocateOutput]) {
        for output in outputs {
            lines.append(output.json)
            switch output {
            case .location(let located):
                timelines[located.beacon, default: []].append((located.time, located))
            case .away(let time, let beacon, _, _):
                timelines[beacon, default: []].append((time, nil))
                aways.append((beacon, time))
            case .room:
                break
            case .calibration(let report):
                calibrations.append(report)
            }
        }
    }

    public mutating func estimate(of beacon: String, at time: Timestamp) -> RoomEstimate {
        guard let line = timelines[beacon]?.last(where: { $0.time <= time }), let located = line.located else {
            return RoomEstimate(time: time, room: nil)
        }
        return RoomEstimate(time: time, room: located.room, x: located.fix?.point.x, y: located.fix?.point.y,
                            confidence: located.confidence)
    }
}
