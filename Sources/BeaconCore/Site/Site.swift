/// A point on a floor plan, in metres.
public struct Point2: Equatable, Hashable, Sendable {
    public var x: Double
    public var y: Double

    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }

    /// The straight-line distance to `other`, metres.
    public func distance(to other: Point2) -> Double {
        ((x - other.x) * (x - other.x) + (y - other.y) * (y - other.y)).squareRoot()
    }
}

/// A named room: a polygon on one floor.
public struct Room: Hashable, Sendable {
    public var name: String
    /// Vertices in order; the last joins the first.
    public var polygon: [Point2]
    public var floor: Int
    /// The polygon's area centroid; the mean of its vertices when it encloses no area.
    public var centre: Point2

    public init(name: String, polygon: [Point2], floor: Int = 0) {
        self.name = name
        self.polygon = polygon
        self.floor = floor
        centre = Room.centroid(of: polygon)
    }

    /// Whether `point` is inside (even-odd rule) or on an edge.
    public func contains(_ point: Point2) -> Bool {
        guard polygon.count >= 3 else { return false }
        var inside = false
        var previous = polygon[polygon.count - 1]
        for vertex in polygon {
            if Room.isOnSegment(point, from: previous, to: vertex) { return true }
            if (vertex.y > point.y) != (previous.y > point.y) {
                let crossingX = vertex.x + (point.y - vertex.y) * (previous.x - vertex.x) / (previous.y - vertex.y)
                if point.x < crossingX { inside.toggle() }
            }
            previous = vertex
        }
        return inside
    }

    private static func isOnSegment(_ p: Point2, from a: Point2, to b: Point2) -> Bool {
        let cross = (b.x - a.x) * (p.y - a.y) - (b.y - a.y) * (p.x - a.x)
        let lengthSquared = (b.x - a.x) * (b.x - a.x) + (b.y - a.y) * (b.y - a.y)
        // Within a nanometre of the line, measured against the edge's length.
        guard cross * cross <= 1e-18 * max(lengthSquared, 1) else { return false }
        return p.x >= min(a.x, b.x) - 1e-9 && p.x <= max(a.x, b.x) + 1e-9
            && p.y >= min(a.y, b.y) - 1e-9 && p.y <= max(a.y, b.y) + 1e-9
    }

    private static func centroid(of polygon: [Point2]) -> Point2 {
        guard !polygon.isEmpty else { return Point2(x: 0, y: 0) }
        // Relative to the first vertex, so far-off coordinates keep their precision.
        let origin = polygon[0]
        var twiceArea = 0.0, sumX = 0.0, sumY = 0.0, meanX = 0.0, meanY = 0.0
        for (index, vertex) in polygon.enumerated() {
            let next = polygon[(index + 1) % polygon.count]
            let (x0, y0, x1, y1) = (vertex.x - origin.x, vertex.y - origin.y, next.x - origin.x, next.y - origin.y)
            let cross = x0 * y1 - x1 * y0
            twiceArea += cross
            sumX += (x0 + x1) * cross
            sumY += (y0 + y1) * cross
            meanX += x0
            meanY += y0
        }
        let count = Double(polygon.count)
        let extent = polygon.reduce(0.0) { max($0, abs($1.x - origin.x), abs($1.y - origin.y)) }
        guard abs(twiceArea) > 1e-12 * max(extent * extent, 1e-12) else {
            return Point2(x: origin.x + meanX / count, y: origin.y + meanY / count)
        }
        return Point2(x: origin.x + sumX / (3 * twiceArea), y: origin.y + sumY / (3 * twiceArea))
    }
}

/// A gateway that hears beacons: where it is and which room it is in.
public struct SiteGateway: Hashable, Sendable {
    public var name: String
    public var x: Double
    public var y: Double
    /// Height above its floor, metres.
    public var z: Double
    /// The room it is in: as written, else the room containing its position, else nil.
    public var room: String?
    public var floor: Int
    /// The id of the gateway's own beacon (`beacon range --advertise-self`), as the other gateways'
    /// readings give it: how the gateways hear each other for `beacon locate --calibrate`.
    public var beacon: String?

    public init(name: String, x: Double, y: Double, z: Double = 1.0, room: String? = nil, floor: Int = 0, beacon: String? = nil) {
        self.name = name
        self.x = x
        self.y = y
        self.z = z
        self.room = room
        self.floor = floor
        self.beacon = beacon
    }

    public var point: Point2 { Point2(x: x, y: y) }
}

/// A beacon the site names: its id (as the gateways' readings give it, mqtt_room's) and a name for people.
public struct SiteBeacon: Hashable, Sendable {
    public var id: String
    public var name: String

    public init(id: String, name: String) {
        self.id = id
        self.name = name
    }
}

/// A wall that weakens the signals crossing it.
public struct Wall: Hashable, Sendable {
    public var from: Point2
    public var to: Point2
    /// Loss in dB of a signal crossing it.
    public var attenuation: Double
    public var floor: Int

    public init(from: Point2, to: Point2, attenuation: Double = 3, floor: Int = 0) {
        self.from = from
        self.to = to
        self.attenuation = attenuation
        self.floor = floor
    }
}

/// A floor of the building.
public struct Floor: Hashable, Sendable {
    public var level: Int
    public var name: String?
    /// Floor to floor, metres.
    public var height: Double
    /// dB a signal loses through this floor's slab, between it and the floor below; nil: not known.
    public var attenuation: Double?

    /// The height of a floor a site does not describe.
    public static let defaultHeight = 3.0

    public init(level: Int, name: String? = nil, height: Double = Floor.defaultHeight, attenuation: Double? = nil) {
        self.level = level
        self.name = name
        self.height = height
        self.attenuation = attenuation
    }
}

/// A site: its rooms, the gateways in them, walls and floors (read from a site file, see docs/site.md).
public struct Site: Hashable, Sendable {
    public private(set) var rooms: [Room]
    public private(set) var gateways: [SiteGateway]
    public private(set) var walls: [Wall]
    public private(set) var floors: [Floor]
    public private(set) var beacons: [SiteBeacon]
    private var gatewayIndices: [String: Int]
    private var beaconNames: [String: String]
    private var gatewayBeacons: [String: Int]

    public init(rooms: [Room], gateways: [SiteGateway], walls: [Wall] = [], floors: [Floor] = [], beacons: [SiteBeacon] = []) {
        self.rooms = rooms
        self.gateways = gateways
        self.walls = walls
        self.floors = floors
        self.beacons = beacons
        gatewayIndices = [:]
        for (index, gateway) in gateways.enumerated() where gatewayIndices[gateway.name] == nil {
            gatewayIndices[gateway.name] = index
        }
        gatewayBeacons = [:]
        for (index, gateway) in gateways.enumerated() {
            if let beacon = gateway.beacon, gatewayBeacons[beacon] == nil { gatewayBeacons[beacon] = index }
        }
        beaconNames = [:]
        for beacon in beacons where beaconNames[beacon.id] == nil { beaconNames[beacon.id] = beacon.name }
    }

    /// The name the site gives the beacon with this id; its id when it gives none.
    public func name(ofBeacon id: String) -> String { beaconNames[id] ?? id }

    /// The first room on `floor` that contains `point` (on an edge counts as inside).
    public func room(containing point: Point2, floor: Int) -> Int? {
        rooms.indices.first { rooms[$0].floor == floor && rooms[$0].contains(point) }
    }

    /// The box around the rooms and gateways on `floor`; nil when there are none.
    public func bounds(floor: Int) -> (min: Point2, max: Point2)? {
        var points = rooms.filter { $0.floor == floor }.flatMap(\.polygon)
        points += gateways.filter { $0.floor == floor }.map(\.point)
        guard let first = points.first else { return nil }
        return points.reduce((min: first, max: first)) { box, p in
            (min: Point2(x: Swift.min(box.min.x, p.x), y: Swift.min(box.min.y, p.y)),
             max: Point2(x: Swift.max(box.max.x, p.x), y: Swift.max(box.max.y, p.y)))
        }
    }

    public func gatewayIndex(named name: String) -> Int? { gatewayIndices[name] }

    /// The gateway whose own beacon has this id.
    public func gatewayIndex(ofBeacon id: String) -> Int? { gatewayBeacons[id] }

    /// Whether any gateway names its own beacon.
    public var hasGatewayBeacons: Bool { !gatewayBeacons.isEmpty }

    /// The slabs between floors `a` and `b` (each floor's above the lower one, up to the higher): the dB
    /// those with a known attenuation lose together, and how many are not known (a floor `floors` does
    /// not describe, or without an attenuation).
    public func slabs(between a: Int, and b: Int) -> (loss: Double, unknown: Int) {
        guard a != b else { return (0, 0) }
        let levels = (min(a, b) + 1)...max(a, b)
        var loss = 0.0, known = 0
        for floor in floors where levels.contains(floor.level) {
            guard let attenuation = floor.attenuation else { continue }
            loss += attenuation
            known += 1
        }
        return (loss, levels.count - known)
    }

    /// dB lost between `point` on `floor` and a gateway at `gatewayPoint` on `gatewayFloor`: the walls
    /// crossed when they share a floor, else the slabs between with a known attenuation.
    public func loss(from point: Point2, floor: Int, toGatewayAt gatewayPoint: Point2, floor gatewayFloor: Int) -> Double {
        floor == gatewayFloor ? wallsCrossed(from: point, to: gatewayPoint, floor: floor) : slabs(between: gatewayFloor, and: floor).loss
    }

    /// Height in metres of floor `level` above floor 0: the floors between them stacked, each as high as
    /// `floors` says (3.0 m when it does not); negative below floor 0.
    public func elevation(ofFloor level: Int) -> Double {
        let between = level >= 0 ? 0..<level : level..<0
        let height = between.reduce(0.0) { sum, each in sum + (floors.first { $0.level == each }?.height ?? Floor.defaultHeight) }
        return level >= 0 ? height : -height
    }

    /// The attenuation, dB, of the walls on `floor` that the segment from `a` to `b` crosses (touching a
    /// wall's end or running along a wall is not crossing it).
    public func wallsCrossed(from a: Point2, to b: Point2, floor: Int) -> Double {
        walls.reduce(0) { sum, wall in
            wall.floor == floor && Site.properlyIntersect(a, b, wall.from, wall.to) ? sum + wall.attenuation : sum
        }
    }

    private static func properlyIntersect(_ p1: Point2, _ p2: Point2, _ q1: Point2, _ q2: Point2) -> Bool {
        func side(_ a: Point2, _ b: Point2, _ c: Point2) -> Double {
            let cross = (b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x)
            return cross > 0 ? 1 : (cross < 0 ? -1 : 0)
        }
        let d1 = side(q1, q2, p1), d2 = side(q1, q2, p2), d3 = side(p1, p2, q1), d4 = side(p1, p2, q2)
        return d1 * d2 < 0 && d3 * d4 < 0
    }
}
