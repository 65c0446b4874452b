/// What `beacon locate` reports; each case is one JSON line (docs/output.md).
public enum LocateOutput: Sendable {
    case location(LocatedBeacon)
    /// The beacon's room changed (from nil: its first room).
    case room(time: Timestamp, beacon: String, name: String, from: String?, to: String?)
    /// No gateway has heard the beacon for `--away-after`.
    case away(time: Timestamp, beacon: String, name: String, room: String?)
    /// A fit of the gateways from how they hear each other (`--calibrate`): about no beacon.
    case calibration(CalibrationReport)

    public var time: Timestamp {
        switch self {
        case .location(let located): located.time
        case let .room(time, _, _, _, _), let .away(time, _, _, _): time
        case .calibration(let report): report.time
        }
    }

    /// The beacon's id and name (the site's, else its id); nil for a calibration.
    public var beacon: (id: String, name: String)? {
        switch self {
        case .location(let located): (located.beacon, located.name)
        case let .room(_, beacon, name, _, _), let .away(_, beacon, name, _): (beacon, name)
        case .calibration: nil
        }
    }

    /// The line, without its newline.
    public var json: String {
        if case .calibration(let report) = self { return report.json }
        var w = JSONWriter()
        w.object { o in
            switch self {
            case .location(let located):
                o.field("event", "location")
                o.field("time", located.time)
                o.field("beacon", located.beacon)
                o.field("name", located.name)
                if let room = located.room { o.field("room", room) } else { o.null("room") }
                o.field("confidence", located.confidence, decimals: 2)
                o.field("x", located.fix?.point.x, decimals: OutputLine.metresDecimals)
                o.field("y", located.fix?.point.y, decimals: OutputLine.metresDecimals)
                o.field("error", located.fix?.error, decimals: OutputLine.metresDecimals)
                if let floor = located.fix?.floor { o.field("floor", floor) } else { o.null("floor") }
            case let .room(time, beacon, name, from, to):
                o.field("event", "room")
                o.field("time", time)
                o.field("beacon", beacon)
                o.field("name", name)
                if let from { o.field("from", from) } else { o.null("from") }
                if let to { o.field("to", to) } else { o.null("to") }
            case let .away(time, beacon, name, room):
                o.field("event", "away")
                o.field("time", time)
                o.field("beacon", beacon)
                o.field("name", name)
                if let room { o.field("room", room) } else { o.null("room") }
            case .calibration:
                break
            }
            if case .location(let located) = self {
                o.field("gateways", array: { list in
                    for gateway in located.gateways {
                        list.object { g in
                            g.field("name", gateway.name)
                            g.field("distance", gateway.distance, decimals: OutputLine.metresDecimals)
                            g.field("online", gateway.online)
                        }
                    }
                })
            }
        }
        return w.text
    }
}

/// One beacon located at the end of a window.
public struct LocatedBeacon: Sendable {
    public var time: Timestamp
    /// The beacon's id, as the gateways' readings give it (mqtt_room's id).
    public var beacon: String
    /// Its name: the site's, else its id.
    public var name: String
    public var room: String?
    /// Metres in the site's frame, with the 1-σ radius; nil when no position could be worked out.
    public var fix: PositionFix?
    /// The probability that the beacon is in `room`; nil when no position could be worked out.
    public var confidence: Double?
    /// The gateways whose readings counted, nearest first: name, distance (metres), online.
    public var gateways: [(name: String, distance: Double, online: Bool)]

    public init(time: Timestamp, beacon: String, name: String, room: String?, fix: PositionFix?, confidence: Double?,
                gateways: [(name: String, distance: Double, online: Bool)]) {
        self.time = time
        self.beacon = beacon
        self.name = name
        self.room = room
        self.fix = fix
        self.confidence = confidence
        self.gateways = gateways
    }
}

/// A beacon's position on a floor and how sure of it the estimate is.
public struct PositionFix: Equatable, Sendable {
    public var point: Point2
    /// 1-σ radius, metres.
    public var error: Double
    /// The floor's level.
    public var floor: Int

    public init(point: Point2, error: Double, floor: Int = 0) {
        self.point = point
        self.error = error
        self.floor = floor
    }
}
