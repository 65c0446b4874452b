extension Site {
    /// Largest site file read.
    public static let maximumFileBytes = 16 << 20
    /// Deepest nesting of arrays and objects in a site file.
    public static let maximumNesting = 32
    public static let maximumRooms = 1000
    public static let maximumGateways = 1000
    public static let maximumWalls = 10_000
    public static let maximumBeacons = 100_000
    public static let maximumPolygonPoints = 100_000
    /// Largest coordinate, metres, either side of the origin.
    public static let maximumCoordinate = 10_000.0
    /// Largest floor level either side of 0.
    public static let maximumLevel = 1000

    /// Reads a site file (docs/site.md): every member checked, unknown members refused.
    public static func decode(_ bytes: [UInt8]) throws(SiteError) -> Site {
        let document: JSONValue
        do {
            document = try JSONValue.parse(bytes, maximumDepth: maximumNesting, maximumBytes: maximumFileBytes)
        } catch {
            throw SiteError(field: "", reason: error.fileReason, position: error.position)
        }
        return try decode(document)
    }

    /// Reads a site already read as JSON (a site file's document, or the `site` of a scene file), with
    /// the same checks as a site file.
    public static func decode(_ document: JSONValue) throws(SiteError) -> Site {
        let top = try SiteField(document, "").members(required: ["rooms", "gateways"], optional: ["walls", "floors", "beacons"])
        let floors = try top["floors"]?.elements(atMost: maximumLevel * 2 + 1).map(floor) ?? []
        try SiteField.requireUnique(floors.map { String($0.level) }, of: top["floors"], member: "level", what: "floor level")
        let roomFields = try top["rooms"]!.elements(atMost: maximumRooms)
        let rooms = try roomFields.map(room)
        try SiteField.requireUnique(rooms.map(\.name), of: top["rooms"], member: "name", what: "room name")
        let roomsOnly = Site(rooms: rooms, gateways: [], floors: floors)
        let gateways = try top["gateways"]!.elements(atMost: maximumGateways).map { field throws(SiteError) in
            try gateway(field, in: roomsOnly)
        }
        try SiteField.requireUnique(gateways.map(\.name), of: top["gateways"], member: "name", what: "gateway name")
        try SiteField.requireUnique(gateways.map { $0.beacon ?? "" }, of: top["gateways"], member: "beacon", what: "gateway beacon",
                                    skipping: "")
        let walls = try top["walls"]?.elements(atMost: maximumWalls).map(wall) ?? []
        let beacons = try top["beacons"]?.elements(atMost: maximumBeacons).map(beacon) ?? []
        try SiteField.requireUnique(beacons.map(\.id), of: top["beacons"], member: "id", what: "beacon id")
        return Site(rooms: rooms, gateways: gateways, walls: walls, floors: floors, beacons: beacons)
    }

    private static func beacon(_ field: SiteField) throws(SiteError) -> SiteBeacon {
        let members = try field.members(required: ["id", "name"], optional: [])
        return SiteBeacon(id: try members["id"]!.name(), name: try members["name"]!.name())
    }

    private static func floor(_ field: SiteField) throws(SiteError) -> Floor {
        let members = try field.members(required: ["level"], optional: ["name", "height", "attenuation"])
        return Floor(level: try members["level"]!.level(),
                     name: try members["name"]?.name(),
                     height: try members["height"]?.number(in: 0.1...1000) ?? Floor.defaultHeight,
                     attenuation: try members["attenuation"]?.number(in: 0...100))
    }

    private static func room(_ field: SiteField) throws(SiteError) -> Room {
        let members = try field.members(required: ["name", "polygon"], optional: ["floor"])
        let polygonField = members["polygon"]!
        let polygon = try polygonField.elements(atMost: maximumPolygonPoints).map { point throws(SiteError) in try point.point(dimensions: 2...2).point }
        guard polygon.count >= 3 else {
            throw polygonField.error("a polygon needs at least 3 points, found \(polygon.count)")
        }
        return Room(name: try members["name"]!.name(), polygon: polygon, floor: try members["floor"]?.level() ?? 0)
    }

    private static func gateway(_ field: SiteField, in site: Site) throws(SiteError) -> SiteGateway {
        let members = try field.members(required: ["name", "position"], optional: ["room", "floor", "beacon"])
        let name = try members["name"]!.name()
        let (point, z) = try members["position"]!.point(dimensions: 2...3)
        var floor = try members["floor"]?.level()
        var room: String?
        if let roomField = members["room"] {
            let named = try roomField.name()
            guard let index = site.rooms.firstIndex(where: { $0.name == named }) else {
                throw roomField.error("no room is named \(SiteField.quoted(named))")
            }
            room = named
            floor = floor ?? site.rooms[index].floor
        } else {
            let index = floor.map { site.room(containing: point, floor: $0) }
                ?? site.rooms.firstIndex { $0.contains(point) }
            room = index.map { site.rooms[$0].name }
            floor = floor ?? index.map { site.rooms[$0].floor }
        }
        return SiteGateway(name: name, x: point.x, y: point.y, z: z ?? 1.0, room: room, floor: floor ?? 0,
                           beacon: try members["beacon"]?.name())
    }

    private static func wall(_ field: SiteField) throws(SiteError) -> Wall {
        let members = try field.members(required: ["from", "to"], optional: ["attenuation", "floor"])
        return Wall(from: try members["from"]!.point(dimensions: 2...2).point,
                    to: try members["to"]!.point(dimensions: 2...2).point,
                    attenuation: try members["attenuation"]?.number(in: 0...100) ?? 3,
                    floor: try members["floor"]?.level() ?? 0)
    }
}

extension Site {
    /// The site in site-file form, every member written out (a gateway's room only when it has one), so
    /// that `Site.decode(_:)` reads back the same site.
    public var jsonValue: JSONValue {
        func point(_ p: Point2) -> JSONValue { .array([.number(p.x), .number(p.y)]) }
        let floors = floors.map { floor -> JSONValue in
            .object([("level", .number(Double(floor.level)))] + (floor.name.map { [("name", .string($0))] } ?? [])
                + [("height", .number(floor.height))] + (floor.attenuation.map { [("attenuation", .number($0))] } ?? []))
        }
        let rooms = rooms.map { room -> JSONValue in
            .object([("name", .string(room.name)), ("polygon", .array(room.polygon.map(point))), ("floor", .number(Double(room.floor)))])
        }
        let gateways = gateways.map { gateway -> JSONValue in
            .object([("name", .string(gateway.name)), ("position", .array([.number(gateway.x), .number(gateway.y), .number(gateway.z)]))]
                + (gateway.room.map { [("room", .string($0))] } ?? []) + [("floor", .number(Double(gateway.floor)))]
                + (gateway.beacon.map { [("beacon", .string($0))] } ?? []))
        }
        let walls = walls.map { wall -> JSONValue in
            .object([("from", point(wall.from)), ("to", point(wall.to)), ("attenuation", .number(wall.attenuation)),
                     ("floor", .number(Double(wall.floor)))])
        }
        let beacons = beacons.map { beacon -> JSONValue in .object([("id", .string(beacon.id)), ("name", .string(beacon.name))]) }
        return .object([("floors", .array(floors)), ("rooms", .array(rooms)), ("gateways", .array(gateways)), ("walls", .array(walls)),
                        ("beacons", .array(beacons))])
    }
}

/// One value of a site file and the path that names it in errors.
private struct SiteField {
    let value: JSONValue
    let path: String

    init(_ value: JSONValue, _ path: String) {
        self.value = value
        self.path = path
    }

    func error(_ reason: String) -> SiteError { SiteError(field: path, reason: reason) }

    private func child(_ name: String) -> String { path.isEmpty ? name : "\(path).\(name)" }

    /// An object's members by name, refusing unknown ones and requiring `required`.
    func members(required: [String], optional: [String]) throws(SiteError) -> [String: SiteField] {
        guard let object = value.object else { throw error("expected an object, found \(value.kind)") }
        let known = required + optional
        var fields: [String: SiteField] = [:]
        for (name, member) in object {
            guard known.contains(name) else {
                throw SiteError(field: child(name), reason: NearestMatch.unknownMember(name, among: known))
            }
            fields[name] = SiteField(member, child(name))
        }
        for name in required where fields[name] == nil {
            throw SiteError(field: child(name), reason: "missing")
        }
        return fields
    }

    /// An array's elements, at most `limit` of them.
    func elements(atMost limit: Int) throws(SiteError) -> [SiteField] {
        guard let array = value.array else { throw error("expected an array, found \(value.kind)") }
        guard array.count <= limit else { throw error("more than \(limit) entries (the limit)") }
        return array.enumerated().map { SiteField($1, "\(path)[\($0)]") }
    }

    func number(in range: ClosedRange<Double>) throws(SiteError) -> Double {
        guard let number = value.number else { throw error("expected a number, found \(value.kind)") }
        guard range.contains(number) else { throw error("\(number) is outside \(range.lowerBound)...\(range.upperBound)") }
        return number
    }

    func level() throws(SiteError) -> Int {
        let number = try number(in: -Double(Site.maximumLevel)...Double(Site.maximumLevel))
        guard number == number.rounded() else { throw error("a floor level is a whole number, found \(number)") }
        return Int(number)
    }

    /// A name: a non-empty string with no control characters or noncharacters.
    func name() throws(SiteError) -> String {
        guard let text = value.string else { throw error("expected a string, found \(value.kind)") }
        guard !text.isEmpty else { throw error("a name may not be empty") }
        guard !text.unicodeScalars.contains(where: \.isControlOrNoncharacter) else {
            throw error("a name may not hold control characters or noncharacters")
        }
        return text
    }

    /// `[x, y]` or, with 3 allowed, `[x, y, z]`, each coordinate within the site's range.
    func point(dimensions: ClosedRange<Int>) throws(SiteError) -> (point: Point2, z: Double?) {
        guard let array = value.array, dimensions.contains(array.count) else {
            let form = dimensions.upperBound == 3 ? "[x, y] or [x, y, z]" : "[x, y]"
            throw error("expected \(form) in metres")
        }
        var coordinates: [Double] = []
        for (index, element) in array.enumerated() {
            let limit = Site.maximumCoordinate
            guard let number = element.number, abs(number) <= limit else {
                throw SiteError(field: "\(path)[\(index)]", reason: "expected a coordinate within ±\(Int(limit)) m")
            }
            coordinates.append(number)
        }
        return (Point2(x: coordinates[0], y: coordinates[1]), coordinates.count == 3 ? coordinates[2] : nil)
    }

    /// Refuses a name used twice in an array, naming the second and where the first is.
    static func requireUnique(_ names: [String], of array: SiteField?, member: String, what: String,
                              skipping absent: String? = nil) throws(SiteError) {
        guard let array else { return }
        var first: [String: Int] = [:]
        for (index, name) in names.enumerated() where name != absent {
            if let earlier = first[name] {
                throw SiteError(field: "\(array.path)[\(index)].\(member)",
                                reason: "duplicate \(what) \(quoted(name)) (also \(array.path)[\(earlier)])")
            }
            first[name] = index
        }
    }

    static func quoted(_ name: String) -> String { "'\(name)'" }
}
