/// A site prepared for the fuser's many lookups: each floor's bounds, the room holding a point (exact,
/// through a bucket grid of candidate rooms), and the walls between a point and a gateway (cached on a
/// grid per gateway, filled as particles visit it), and the survey's radio map when there is one. Built
/// once per site; the caches grow with use, bounded by `maximumWallCells` per gateway.
public struct SiteMap: Sendable {
    public let site: Site
    /// The survey's radio map; nil: the distance model everywhere.
    public private(set) var radio: RadioMap?
    private var floors: [Int: FloorMap]
    /// Per gateway, its floor's wall losses on that floor's grid (nil until first asked).
    private var wallCaches: [[Float]?]
    /// Per gateway, its height above floor 0 (its floor's elevation plus its own height).
    private let gatewayElevations: [Double]
    /// Per floor level, its height above floor 0.
    private let floorElevations: [Int: Double]

    /// Room buckets per floor at most this many a side.
    static let bucketsPerSide = 64
    /// Cells of a wall cache per gateway at most (4 bytes each).
    static let maximumWallCells = 16_384
    /// How far beyond its rooms and gateways a floor's particles may go, metres.
    public static let outsideMargin = 2.0
    /// The finest wall cache cell, metres.
    static let finestWallCell = 0.1

    public init(site: Site, radio: RadioMap? = nil) {
        self.site = site
        self.radio = radio
        var floors: [Int: FloorMap] = [:]
        let levels = Set(site.rooms.map(\.floor) + site.gateways.map(\.floor))
        for level in levels {
            if let bounds = site.bounds(floor: level) { floors[level] = FloorMap(site: site, level: level, bounds: bounds) }
        }
        self.floors = floors
        wallCaches = site.gateways.map { _ in nil }
        gatewayElevations = site.gateways.map { site.elevation(of: $0.floor) + $0.z }
        floorElevations = Dictionary(uniqueKeysWithValues: levels.map { ($0, site.elevation(of: $0)) })
    }

    /// The box particles on `floor` live in (its rooms and gateways and `outsideMargin` around them); nil
    /// for a floor with neither rooms nor gateways.
    func bounds(floor: Int) -> Box? { floors[floor]?.box }

    /// The first room of the site (in the site's order) on `floor` holding `point`, as `Site.room` says.
    func room(at point: Point2, floor: Int) -> Int? {
        floors[floor]?.room(at: point, rooms: site.rooms)
    }

    /// `room(at:floor:)` for many points of one floor: `body` gets a lookup to call per point.
    func withRooms<Result>(onFloor floor: Int, _ body: ((Point2) -> Int?) -> Result) -> Result {
        let map = floors[floor]
        let rooms = site.rooms
        return body { point in map?.room(at: point, rooms: rooms) }
    }

    /// Whether any wall stands on `floor`: if not, `wallLoss` is 0 everywhere on it.
    func hasWalls(onFloor floor: Int) -> Bool { floors[floor]?.hasWalls ?? false }

    /// The radio map's prediction for gateway `index` at `point` (`RadioMap.prediction`); nil without a
    /// survey there.
    mutating func surveyed(gateway index: Int, at point: Point2, floor: Int) -> RadioMap.Prediction? {
        guard radio != nil else { return nil }
        return radio?.prediction(gateway: index, at: point, floor: floor)
    }

    /// Metres from the floor of level 0 up to the floor of `level`.
    func elevation(ofFloor level: Int) -> Double { floorElevations[level] ?? site.elevation(of: level) }

    /// Metres from the floor of level 0 up to gateway `index`.
    func elevation(ofGateway index: Int) -> Double { gatewayElevations[index] }

    /// dB of the walls between `point` on `floor` and gateway `index`: the walls of that floor crossed on
    /// the way, when the gateway is on it (walls of other floors are not modelled). The point is taken at
    /// the centre of its cache cell.
    mutating func wallLoss(gateway index: Int, from point: Point2, floor: Int) -> Double {
        guard let map = floors[floor], map.hasWalls, site.gateways[index].floor == floor else { return 0 }
        let cell = map.wallCell(of: point)
        var cache = wallCaches[index] ?? [Float](repeating: .nan, count: map.wallColumns * map.wallRows)
        // Taken out while it is filled, so the array is not copied.
        wallCaches[index] = nil
        defer { wallCaches[index] = cache }
        if !cache[cell].isNaN { return Double(cache[cell]) }
        let loss = site.wallsCrossed(from: map.wallCellCentre(cell), to: site.gateways[index].point, floor: floor)
        cache[cell] = Float(loss)
        return loss
    }

    /// An axis-aligned box on a floor.
    struct Box: Sendable {
        var low: Point2
        var high: Point2

        var width: Double { high.x - low.x }
        var height: Double { high.y - low.y }

        func clamp(_ p: Point2) -> Point2 {
            Point2(x: min(max(p.x, low.x), high.x), y: min(max(p.y, low.y), high.y))
        }
    }
}

/// One floor's lookups.
private struct FloorMap: Sendable {
    let box: SiteMap.Box
    let hasWalls: Bool
    /// Rooms whose bounding boxes meet each bucket, in the site's order.
    private let buckets: [[Int]]
    private let bucketColumns: Int
    private let bucketRows: Int
    private let bucketSize: Double
    let wallColumns: Int
    let wallRows: Int
    private let wallCellSize: Double

    init(site: Site, level: Int, bounds: (min: Point2, max: Point2)) {
        // A margin around the rooms and gateways: a beacon just outside the building (a garden, the
        // street, the flat next door) can be placed there, in no room.
        let margin = SiteMap.outsideMargin
        box = SiteMap.Box(low: Point2(x: bounds.min.x - margin, y: bounds.min.y - margin),
                          high: Point2(x: bounds.max.x + margin, y: bounds.max.y + margin))
        hasWalls = site.walls.contains { $0.floor == level }
        let extent = max(box.width, box.height, 1e-6)
        bucketSize = max(extent / Double(SiteMap.bucketsPerSide), 1e-6)
        bucketColumns = max(1, Int((box.width / bucketSize).rounded(.up)))
        bucketRows = max(1, Int((box.height / bucketSize).rounded(.up)))
        var buckets = [[Int]](repeating: [], count: bucketColumns * bucketRows)
        for (index, room) in site.rooms.enumerated() where room.floor == level {
            guard let first = room.polygon.first, room.polygon.count >= 3 else { continue }
            let low = room.polygon.reduce(first) { Point2(x: min($0.x, $1.x), y: min($0.y, $1.y)) }
            let high = room.polygon.reduce(first) { Point2(x: max($0.x, $1.x), y: max($0.y, $1.y)) }
            let (c0, r0) = Self.cell(low, box, bucketSize, bucketColumns, bucketRows)
            let (c1, r1) = Self.cell(high, box, bucketSize, bucketColumns, bucketRows)
            for row in r0...r1 {
                for column in c0...c1 { buckets[row * bucketColumns + column].append(index) }
            }
        }
        self.buckets = buckets
        let area = max(box.width * box.height, 1e-6)
        wallCellSize = max(SiteMap.finestWallCell, (area / Double(SiteMap.maximumWallCells)).squareRoot())
        wallColumns = max(1, min(SiteMap.maximumWallCells, Int((box.width / wallCellSize).rounded(.up))))
        wallRows = max(1, min(SiteMap.maximumWallCells / wallColumns, Int((box.height / wallCellSize).rounded(.up))))
    }

    func room(at point: Point2, rooms: [Room]) -> Int? {
        let (column, row) = Self.cell(point, box, bucketSize, bucketColumns, bucketRows)
        return buckets[row * bucketColumns + column].first { rooms[$0].contains(point) }
    }

    func wallCell(of point: Point2) -> Int {
        let (column, row) = Self.cell(point, box, wallCellSize, wallColumns, wallRows)
        return row * wallColumns + column
    }

    func wallCellCentre(_ cell: Int) -> Point2 {
        Point2(x: box.low.x + (Double(cell % wallColumns) + 0.5) * wallCellSize,
               y: box.low.y + (Double(cell / wallColumns) + 0.5) * wallCellSize)
    }

    /// The column and row of `point` on a grid from the box's low corner, clamped to the grid.
    private static func cell(_ point: Point2, _ box: SiteMap.Box, _ size: Double, _ columns: Int, _ rows: Int) -> (Int, Int) {
        func index(_ offset: Double, _ count: Int) -> Int {
            let value = (offset / size).rounded(.down)
            guard value.isFinite, value > 0 else { return 0 }
            return value >= Double(count - 1) ? count - 1 : Int(value)
        }
        return (index(point.x - box.low.x, columns), index(point.y - box.low.y, rows))
    }
}

extension Site {
    /// Metres from the floor of level 0 up to the floor of `level`: the heights of the floors between
    /// (`floors[].height`, 3 m for a level the site does not list).
    public func elevation(of level: Int) -> Double {
        guard level != 0 else { return 0 }
        let heights = Dictionary(floors.map { ($0.level, $0.height) }, uniquingKeysWith: { first, _ in first })
        let levels = level > 0 ? Array(0..<level) : Array(level..<0)
        let total = levels.reduce(0.0) { $0 + (heights[$1] ?? 3.0) }
        return level > 0 ? total : -total
    }
}
