#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import BeaconCore

/// The tracks of the Daniş position-annotated BLE RSSI dataset (F. S. Daniş, A. T. Naskali, A. T. Cemgil,
/// C. Ersoy, "An Indoor Localization Dataset and Data Collection Framework with High Precision Position
/// Annotation", Pervasive and Mobile Computing 81 (2022), CC0): one beacon carried along nine tracks through
/// an open-plan office of desk clusters, heard by twelve sensors, each reading annotated with the beacon's
/// position by a camera system (median error about 4 cm). The sensors are the site's gateways, the office
/// one room: what is scored is the position.
public enum OfficeTracks {
    /// The nine tracks, each a file `NAME_all_sensors.mbd` of the dataset's `trk` directory.
    public static let names = ["straight_01", "straight_02", "straight_03", "straight_04", "straight_05",
                               "rectangular_with_rotation", "rectangular_without_rotation",
                               "zigzagging_with_rotation", "zigzagging_without_rotation"]

    public static func fileName(_ track: String) -> String { "\(track)_all_sensors.mbd" }
    /// The track `make eval` draws: its zigzag crosses the whole office.
    public static let plotted = "zigzagging_without_rotation"

    /// The dataset's two fingerprint sets as survey files (`tools/danis_office_survey.py`): a beacon held at
    /// 81 reference points about 2 m apart five months before the tracks, and at 45 points four months after.
    public static let surveys = [(name: "set 1, 81 points", file: "survey-set1.jsonl"), (name: "set 2, 45 points", file: "survey-set2.jsonl")]

    /// How far out of time order a line may be.
    static let maximumDisorder = Micros.milliseconds(10)

    /// The sensors of `cnf/tetam.dev`: MAC address, alias (the gateway's name) and position (m).
    static let sensors: [(mac: String, name: String, x: Double, y: Double, z: Double)] = [
        ("b827eb4521b4", "sensor10", 7.00, 7.09, 1.22), ("000000000101", "sensor11", 7.18, 0.68, 2.30),
        ("000000000102", "sensor12", 0.71, 6.16, 2.30), ("b827eb917e19", "sensor20", 7.25, 11.36, 1.22),
        ("000000000201", "sensor21", 0.76, 12.13, 2.30), ("000000000202", "sensor22", 7.18, 17.64, 2.30),
        ("b827ebf7d096", "sensor30", 13.14, 12.33, 1.22), ("000000000301", "sensor31", 12.82, 16.83, 2.30),
        ("000000000302", "sensor32", 18.12, 11.93, 2.30), ("b827ebfd7811", "sensor40", 13.01, 5.51, 1.22),
        ("000000000401", "sensor41", 17.77, 6.33, 2.30), ("000000000402", "sensor42", 12.76, 0.27, 2.30),
    ]

    /// The office as one room: a rectangle holding the twelve sensors and every annotated position (x 0.19 to
    /// 18.12 m, y −0.14 to 18.03 m) with a margin; the sensors as gateways.
    public static let site: Site = {
        let (x0, y0, x1, y1) = (-0.5, -0.5, 18.5, 18.5)
        let office = Room(name: "office", polygon: [Point2(x: x0, y: y0), Point2(x: x1, y: y0), Point2(x: x1, y: y1), Point2(x: x0, y: y1)])
        let gateways = sensors.map { SiteGateway(name: $0.name, x: $0.x, y: $0.y, z: $0.z, room: office.name) }
        return Site(rooms: [office], gateways: gateways)
    }()

    /// Parses a track file: per line `time,sensor MAC,beacon MAC,RSSI,x,y,z` and the beacon's 3×3 orientation
    /// (time in seconds since 1970, RSSI in dBm, position in metres), one sensor's reading each. The files merge
    /// the sensors' logs by time, yet swap a few readings less than a millisecond apart: the rows are put in
    /// time order, and a line more than `maximumDisorder` before the latest is refused. A reading no receiver
    /// reports (above +20 dBm: two lines of one sensor, at +29 and +42) is left out and counted in `skipped`.
    public static func parse(name: String, bytes: [UInt8]) throws(ResearchDataError) -> (drive: RecordedDrive, skipped: Int) {
        let index = Dictionary(uniqueKeysWithValues: sensors.enumerated().map { ($0.element.mac, $0.offset) })
        var rows: [RecordedDrive.Row] = []
        var latest: Timestamp?
        var skipped = 0
        let lines = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
        for (lineNumber, rawLine) in lines.enumerated() {
            let line = String(decoding: rawLine.last == UInt8(ascii: "\r") ? rawLine.dropLast() : rawLine, as: UTF8.self)
            if line.isEmpty { continue }
            let fields = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            guard fields.count >= 7 else { throw ResearchDataError(file: fileName(name), line: lineNumber + 1, "expected at least 7 fields") }
            guard let seconds = Double(fields[0]), seconds.isFinite, seconds >= 0, seconds < 9e9 else {
                throw ResearchDataError(file: fileName(name), line: lineNumber + 1, "time '\(fields[0])' is not seconds since 1970")
            }
            guard let sensor = index[fields[1]] else {
                throw ResearchDataError(file: fileName(name), line: lineNumber + 1, "sensor '\(fields[1])' is not one of the office's")
            }
            guard let rssi = Double(fields[3]), rssi.isFinite, rssi >= -127 else {
                throw ResearchDataError(file: fileName(name), line: lineNumber + 1, "RSSI '\(fields[3])' is not a dBm value")
            }
            guard let x = Double(fields[4]), x.isFinite, let y = Double(fields[5]), y.isFinite else {
                throw ResearchDataError(file: fileName(name), line: lineNumber + 1, "x and y must be numbers")
            }
            let time = Timestamp(microseconds: Int64((seconds * 1_000_000).rounded()))
            if let latest, latest - time > maximumDisorder {
                throw ResearchDataError(file: fileName(name), line: lineNumber + 1, "time goes back by more than \(maximumDisorder.value / 1000) ms")
            }
            latest = max(latest ?? time, time)
            guard rssi <= 20 else {
                skipped += 1
                continue
            }
            var heard = [Double?](repeating: nil, count: sensors.count)
            heard[sensor] = rssi
            rows.append(RecordedDrive.Row(time: time, x: x, y: y, rssi: heard))
        }
        guard !rows.isEmpty else { throw ResearchDataError(file: fileName(name), line: 1, "no rows") }
        let ordered = rows.enumerated().sorted { ($0.element.time, $0.offset) < ($1.element.time, $1.offset) }.map(\.element)
        return (RecordedDrive(rows: ordered, site: site), skipped)
    }

    /// The beacon's height in the annotations (m): 1.7 to 2.0 on the straight tracks, 1.5 to 2.0 on the others.
    static let beaconHeight = 1.8

    /// How the office's readings fall with distance: the least-squares line of RSSI against log10 of each
    /// reading's distance from its sensor (the beacon `beaconHeight` up), one slope for every sensor and an
    /// intercept of each sensor's own. The exponent is the slope over −10; each offset a sensor's intercept
    /// less the sensors' mean.
    public static func pathLoss(_ drives: [RecordedDrive]) -> (exponent: Double, offsets: [Double])? {
        var groups = [[(x: Double, y: Double)]](repeating: [], count: sensors.count)
        for drive in drives {
            for row in drive.rows {
                for (index, rssi) in row.rssi.enumerated() {
                    guard let rssi, index < sensors.count else { continue }
                    let sensor = sensors[index]
                    let dx = row.x - sensor.x, dy = row.y - sensor.y, dz = beaconHeight - sensor.z
                    groups[index].append((log10(max(0.1, (dx * dx + dy * dy + dz * dz).squareRoot())), rssi))
                }
            }
        }
        var sxx = 0.0, sxy = 0.0
        var means: [(x: Double, y: Double)] = []
        for group in groups {
            guard !group.isEmpty else { return nil }
            let mean = (x: group.reduce(0) { $0 + $1.x } / Double(group.count), y: group.reduce(0) { $0 + $1.y } / Double(group.count))
            for point in group {
                sxx += (point.x - mean.x) * (point.x - mean.x)
                sxy += (point.x - mean.x) * (point.y - mean.y)
            }
            means.append(mean)
        }
        guard sxx > 0 else { return nil }
        let slope = sxy / sxx
        let intercepts = means.map { $0.y - slope * $0.x }
        let average = intercepts.reduce(0, +) / Double(intercepts.count)
        return (-slope / 10, intercepts.map { $0 - average })
    }
}
