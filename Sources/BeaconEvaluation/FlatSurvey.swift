import BeaconCore

/// Surveys of the Kolakowski flat from the dataset's surveyed points (`calibration_df.csv`, 4,104 rows of the
/// robot's calibration drive; M. Kolakowski, Sensors 21, 6270 (2021), CC BY 4.0), as `beacon locate --survey`
/// reads them. They are a recording of their own, hours before the test drive that is scored: no row of the
/// scored drive is in either survey.
public struct FlatSurvey: Sendable {
    /// Every surveyed row as a point per anchor: one reading each (`samples` 1), or not heard.
    public var dense: [SurveyPoint]
    /// About one point per 4 m², as a person would survey: the flat cut into `cellSize` squares and, in each
    /// the calibration drive crossed, the row nearest the square's centre; the point is there, and per anchor
    /// the median (and spread) of the rows within `poolRadius` of it, as a beacon held still there for a while.
    public var sparse: [SurveyPoint]
    /// Places surveyed: rows, and sparse points.
    public var rows: Int
    public var sparsePlaces: Int

    public static let cellSize = 2.0
    public static let poolRadius = 0.5

    public init(calibration: RecordedDrive) {
        let rows = calibration.rows
        self.rows = rows.count
        dense = rows.flatMap { row in
            row.rssi.enumerated().map { anchor, rssi in
                SurveyPoint(point: Point2(x: row.x, y: row.y), gateway: FlatDrive.gatewayName(anchor), rssi: rssi,
                            samples: rssi == nil ? 0 : 1, time: row.time)
            }
        }
        var nearest: [SIMD2<Int>: (distance: Double, row: Int)] = [:]
        for (index, row) in rows.enumerated() {
            let cell = SIMD2(Int((row.x / Self.cellSize).rounded(.down)), Int((row.y / Self.cellSize).rounded(.down)))
            let centreX = (Double(cell.x) + 0.5) * Self.cellSize, centreY = (Double(cell.y) + 0.5) * Self.cellSize
            let distance = Point2(x: row.x, y: row.y).distance(to: Point2(x: centreX, y: centreY))
            if nearest[cell].map({ distance < $0.distance }) ?? true { nearest[cell] = (distance, index) }
        }
        var sparse: [SurveyPoint] = []
        let places = nearest.values.map(\.row).sorted()
        for place in places {
            let centre = Point2(x: rows[place].x, y: rows[place].y)
            let pooled = rows.filter { Point2(x: $0.x, y: $0.y).distance(to: centre) <= Self.poolRadius }
            for anchor in 0..<FlatDrive.anchorCount {
                let heard = pooled.compactMap { $0.rssi[anchor] }.sorted()
                guard !heard.isEmpty else {
                    sparse.append(SurveyPoint(point: centre, gateway: FlatDrive.gatewayName(anchor), rssi: nil, samples: 0))
                    continue
                }
                let median = OrderStatistics.quantile(sorted: heard, 0.5)
                let deviations = heard.map { abs($0 - median) }.sorted()
                sparse.append(SurveyPoint(point: centre, gateway: FlatDrive.gatewayName(anchor), rssi: median, samples: heard.count,
                                          spread: 1.4826 * OrderStatistics.quantile(sorted: deviations, 0.5)))
            }
        }
        self.sparse = sparse
        sparsePlaces = places.count
    }

    /// The table's note on what the surveys are.
    public var summary: String {
        "surveys from calibration_df.csv (a separate recording, before the scored drive): dense, all \(rows) rows, one reading "
            + "each; sparse, \(sparsePlaces) points, one per \(Int(Self.cellSize)) m square the calibration drive crossed (its row "
            + "nearest the square's centre, each anchor's median of the rows within \(Self.poolRadius) m)"
    }
}
