import BeaconCore

/// The robot's drives of the Kolakowski BLE RSS dataset (M. Kolakowski, "Automated Calibration of RSS
/// Fingerprinting Based Systems Using a Mobile Robot and Machine Learning", Sensors 21, 6270 (2021),
/// CC BY 4.0): one tag heard by six anchors in a furnished flat, the anchors as the site's gateways.
public enum FlatDrive {
    public static let anchorCount = 6

    /// Parses `test_robot_df.csv`: a header, then `index,ts,x,heading,y,rssi_1..rssi_6` (ts in ns, RSS in dBm,
    /// empty or NaN when the anchor did not hear the tag), in time order.
    public static func parse(name: String, bytes: [UInt8]) throws(ResearchDataError) -> RecordedDrive {
        var rows: [RecordedDrive.Row] = []
        // Split as bytes: as a Swift Character, "\r\n" is one and would not split at "\n".
        let lines = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
        for (lineNumber, rawLine) in lines.enumerated() where lineNumber > 0 {
            let line = String(decoding: rawLine.last == UInt8(ascii: "\r") ? rawLine.dropLast() : rawLine, as: UTF8.self)
            if line.isEmpty { continue }
            let fields = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            guard fields.count == 5 + anchorCount else {
                throw ResearchDataError(file: "\(name).csv", line: lineNumber + 1, "expected \(5 + anchorCount) fields")
            }
            guard let nanoseconds = Double(fields[1]), nanoseconds.isFinite, nanoseconds >= 0, nanoseconds < 9e18,
                  let x = Double(fields[2]), x.isFinite, let y = Double(fields[4]), y.isFinite else {
                throw ResearchDataError(file: "\(name).csv", line: lineNumber + 1, "ts, x and y must be numbers")
            }
            var rssi: [Double?] = []
            for anchor in 0..<anchorCount {
                let text = fields[5 + anchor]
                if text.isEmpty || text.lowercased() == "nan" {
                    rssi.append(nil)
                    continue
                }
                guard let value = Double(text), value.isFinite, (-127...20).contains(value) else {
                    throw ResearchDataError(file: "\(name).csv", line: lineNumber + 1, "rssi_\(anchor + 1) '\(text)' is not a dBm value")
                }
                rssi.append(value)
            }
            let time = Timestamp(microseconds: Int64((nanoseconds / 1_000).rounded()))
            if let last = rows.last, time < last.time {
                throw ResearchDataError(file: "\(name).csv", line: lineNumber + 1, "ts goes back in time")
            }
            rows.append(RecordedDrive.Row(time: time, x: x, y: y, rssi: rssi))
        }
        guard !rows.isEmpty else { throw ResearchDataError(file: "\(name).csv", line: 1, "no rows") }
        return RecordedDrive(rows: rows, site: site)
    }

    static func gatewayName(_ anchor: Int) -> String { "anchor-\(anchor + 1)" }
}

extension FlatDrive {
    /// The flat of `layout.csv` as rooms: rectangles between the wall lines of the outline polygon (names
    /// ours; the dataset names none), and the six anchors of `anchors.csv` as gateways `anchor-1`...`anchor-6`.
    public static let site: Site = {
        func rectangle(_ name: String, _ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double) -> Room {
            Room(name: name, polygon: [Point2(x: x0, y: y0), Point2(x: x1, y: y0), Point2(x: x1, y: y1), Point2(x: x0, y: y1)])
        }
        let rooms = [
            rectangle("hall", 0, 0, 3.88, 2.07),
            rectangle("south room", 4.05, 0, 6.22, 1.93),
            rectangle("west room", 0, 2.18, 2.58, 7.1),
            rectangle("living room", 2.7, 2.12, 6.27, 7.1),
            rectangle("east room", 6.37, 4.19, 9.07, 7.1),
        ]
        let anchors: [(x: Double, y: Double, z: Double)] = [
            (5.48, 2.41, 2.08), (0.79, 6.75, 2.62), (3.03, 0.14, 2.38), (3.79, 7.06, 1.85), (5.99, 0.43, 2.31), (8.66, 6.59, 2.41),
        ]
        let gateways = anchors.enumerated().map { index, anchor in
            SiteGateway(name: gatewayName(index), x: anchor.x, y: anchor.y, z: anchor.z,
                        room: rooms.first { $0.contains(Point2(x: anchor.x, y: anchor.y)) }?.name)
        }
        // The interior walls of the outline's notches, along their middles, at the site file's default
        // attenuation (nothing measured here): hall–south room with its door at y 0.6–1.42, south room–living
        // room, hall–west room with its door at x 0.73–1.52, west room–living room, and the stub between the
        // living room and the east room. The hall is open to the living room at x 2.7–3.88.
        let walls = [((3.965, 0.0), (3.965, 0.6)), ((3.965, 1.42), (3.965, 2.12)), ((3.965, 2.025), (6.27, 2.025)),
                     ((0.0, 2.125), (0.73, 2.125)), ((1.52, 2.125), (2.64, 2.125)), ((2.64, 2.125), (2.64, 7.1)),
                     ((6.32, 4.19), (6.32, 4.82))]
            .map { Wall(from: Point2(x: $0.0.0, y: $0.0.1), to: Point2(x: $0.1.0, y: $0.1.1)) }
        return Site(rooms: rooms, gateways: gateways, walls: walls)
    }()
}
