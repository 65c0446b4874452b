/// What `beacon locate` reports; each case is one JSON line (docs/output.md).
public enum LocateOutput: Sendable {
    case location(LocatedBeacon)
    /// The beacon's room changed (from nil: its first room).
    case room(time: Timestamp, beacon: String, from: String?, to: String?)
    /// No gateway has heard the beacon for `--away-after`.
    case away(time: Timestamp, beacon: String, room: String?)

    public var time: Timestamp {
        switch self {
        case .location(let located): located.time
        case let .room(time, _, _, _), let .away(time, _, _): time
        }
    }

    public var beacon: String {
        switch self {
        case .location(let located): located.beacon
        case let .room(_, beacon, _, _), let .away(_, beacon, _): beacon
        }
    }

    /// The line, without its newline.
    public var json: String {
        var w = JSONWriter()
        w.object { o in
            o.members { m in
                switch self {
                case .location(let located):
                    m.field("event", "location")
                    m.field("time", located.time)
                    m.field("beacon", located.beacon)
                    if let room = located.room { m.field("room", room) } else { m.null("room") }
                    m.field("x", located.fix?.point.x, decimals: 2)
                    m.field("y", located.fix?.point.y, decimals: 2)
                    m.field("error", located.fix?.error, decimals: 2)
                case let .room(time, beacon, from, to):
                    m.field("event", "room")
                    m.field("time", time)
                    m.field("beacon", beacon)
                    if let from { m.field("from", from) } else { m.null("from") }
                    if let to { m.field("to", to) } else { m.null("to") }
                case let .away(time, beacon, room):
                    m.field("event", "away")
                    m.field("time", time)
                    m.field("beacon", beacon)
                    if let room { m.field("room", room) } else { m.null("room") }
                }
            }
            if case .location(let located) = self {
                o.field("gateways", array: { list in
                    for gateway in located.gateways {
                        list.object { g in
                            g.members { m in
                                m.field("name", gateway.name)
                                m.field("distance", gateway.distance, decimals: 2)
                                m.field("online", gateway.online)
                            }
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
    public var room: String?
    /// Metres in the site's frame, with the 1-σ radius; nil when no position could be worked out.
    public var fix: PositionFix?
    /// The gateways whose readings counted, nearest first: name, distance (metres), online.
    public var gateways: [(name: String, distance: Double, online: Bool)]

    public init(time: Timestamp, beacon: String, room: String?, fix: PositionFix?, gateways: [(name: String, distance: Double, online: Bool)]) {
        self.time = time
        self.beacon = beacon
        self.room = room
        self.fix = fix
        self.gateways = gateways
    }
}
