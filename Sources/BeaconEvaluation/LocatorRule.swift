import BeaconCore

/// beacon locate's fuser (`Locator`) as a row of the fleet tables: fed the gateways' readings messages in
/// time order, each message arriving at its own time, as `beacon locate --max-lateness none` fuses a
/// replay, and asked for the latest location it printed.
public struct LocatorRule: RoomRule {
    public let name: String
    private var locator: Locator
    private var latest: [String: LocatedBeacon] = [:]
    private var away: Set<String> = []
    /// Every away line: the beacon and its time.
    public private(set) var aways: [(beacon: String, time: Timestamp)] = []
    /// Every line, as `beacon locate` prints it.
    public private(set) var lines: [String] = []
    /// Every calibration line's fit (`--calibrate`).
    public private(set) var calibrations: [CalibrationReport] = []

    /// With `calibrate`, as `beacon locate --calibrate`.
    public init(site: Site, calibrate: Bool = false) {
        var settings = Locator.Settings()
        settings.maximumLateness = nil
        if calibrate { settings.calibration = SelfCalibration() }
        name = calibrate ? "beacon locate --calibrate" : "beacon locate"
        locator = Locator(site: site, settings: settings)
    }

    public mutating func add(_ message: GatewayReadings) {
        _ = locator.receive(message, arrival: message.time)
        var outputs: [LocateOutput] = []
        locator.advance(arrival: message.time) { outputs.append($0) }
        take(outputs)
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
                latest[located.beacon] = located
                away.remove(located.beacon)
            case .away(let time, let beacon, _, _):
                away.insert(beacon)
                aways.append((beacon, time))
            case .room:
                break
            case .calibration(let report):
                calibrations.append(report)
            }
        }
    }

    public mutating func estimate(of beacon: String, at time: Timestamp) -> RoomEstimate {
        guard let located = latest[beacon], !away.contains(beacon) else { return RoomEstimate(time: time, room: nil) }
        return RoomEstimate(time: time, room: located.room, x: located.fix?.point.x, y: located.fix?.point.y,
                            confidence: located.confidence)
    }
}
