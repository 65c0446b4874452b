import BeaconCore

/// One RSSI reading of the real measurements: when, how strong, and how far apart the phones were.
public struct ResearchReading: Hashable, Sendable {
    public var time: Timestamp
    /// dBm, as the receiving phone reported it (whole numbers in the data).
    public var rssi: Int8
    /// Ground-truth separation of the phone casings (cm).
    public var centimetres: Int

    public init(time: Timestamp, rssi: Int8, centimetres: Int) {
        self.time = time
        self.rssi = rssi
        self.centimetres = centimetres
    }

    public var metres: Double { Double(centimetres) / 100 }
}

/// One CSV of the Herald "Edison" phone-to-phone measurements (`time,rssi,distance`, distance in cm;
/// herald-analysis, Copyright 2020-2021 Herald Project Contributors, Apache License 2.0).
public struct ResearchFile: Hashable, Sendable {
    /// The file name without `.csv`, e.g. `20210108-1423-A`.
    public var name: String
    public var readings: [ResearchReading]

    public init(name: String, readings: [ResearchReading]) {
        self.name = name
        self.readings = readings
    }

    /// The phone pair: the name without its `-A` / `-B` suffix (which phone received).
    public var pair: String {
        guard let dash = name.lastIndex(of: "-") else { return name }
        return String(name[..<dash])
    }

    /// The distance the calibration is taken at, as an iBeacon's measured power is (cm).
    public static let calibrationCentimetres = 100

    /// The measured power this file's own data gives: the median RSSI at exactly 1 m, rounded to a
    /// whole dBm as an iBeacon carries it; nil when no reading is at 1 m or the median is not a plausible calibration.
    public var measuredPower: Int8? {
        let atOneMetre = readings.filter { $0.centimetres == Self.calibrationCentimetres }.map { Double($0.rssi) }
        guard let median = Statistics.median(atOneMetre) else { return nil }
        let rounded = median.rounded(.toNearestOrAwayFromZero)
        guard let value = Int8(exactly: rounded), RangingEstimator.plausibleMeasuredPower.contains(value) else { return nil }
        return value
    }

    /// Parses the CSV bytes: a header line, then `YYYY-MM-DD HH:MM:SS,RSSI,CENTIMETRES` per line. The
    /// local times are taken as UTC (only differences matter); RSSI is rounded to a whole dBm.
    public static func parse(name: String, bytes: [UInt8]) throws(ResearchDataError) -> ResearchFile {
        var readings: [ResearchReading] = []
        var lineNumber = 0
        var rest = bytes[...]
        // Readings come several a second: a time equal to the previous line's is not parsed again.
        var lastTime: (text: ArraySlice<UInt8>, time: Timestamp)?
        while !rest.isEmpty {
            let end = rest.firstIndex(of: UInt8(ascii: "\n")) ?? rest.endIndex
            var line = rest[..<end]
            rest = rest[min(end + 1, rest.endIndex)...]
            lineNumber += 1
            if line.last == UInt8(ascii: "\r") { line = line.dropLast() }
            if lineNumber == 1 || line.isEmpty { continue }
            let fields = line.split(separator: UInt8(ascii: ","), omittingEmptySubsequences: false)
            func text(_ field: ArraySlice<UInt8>) -> String { String(decoding: field, as: UTF8.self) }
            guard fields.count == 3 else { throw ResearchDataError(file: "\(name).csv", line: lineNumber, "expected 3 fields") }
            if lastTime.map({ $0.text != fields[0] }) ?? true {
                // `YYYY-MM-DD HH:MM:SS` is ISO 8601 with a space for the T; the zone is taken as UTC.
                guard fields[0].count == 19, fields[0][fields[0].startIndex + 10] == UInt8(ascii: " "),
                      let time = TimestampText.parse(text(fields[0]).replacing(" ", with: "T") + "Z") else {
                    throw ResearchDataError(file: "\(name).csv", line: lineNumber, "'\(text(fields[0]))' is not YYYY-MM-DD HH:MM:SS")
                }
                lastTime = (fields[0], time)
            }
            guard let time = lastTime?.time else { continue }
            guard let rssi = Double(text(fields[1])), rssi.isFinite,
                  let whole = Int8(exactly: rssi.rounded(.toNearestOrAwayFromZero)) else {
                throw ResearchDataError(file: "\(name).csv", line: lineNumber, "RSSI '\(text(fields[1]))' is not a number in -128...127")
            }
            guard let centimetres = Int(text(fields[2])), centimetres >= 0 else {
                throw ResearchDataError(file: "\(name).csv", line: lineNumber, "distance '\(text(fields[2]))' is not a whole number of cm")
            }
            readings.append(ResearchReading(time: time, rssi: whole, centimetres: centimetres))
        }
        return ResearchFile(name: name, readings: readings)
    }
}

public struct ResearchDataError: Error, Hashable, Sendable, CustomStringConvertible {
    public var file: String
    public var line: Int
    public var reason: String

    public init(file: String, line: Int, _ reason: String) {
        self.file = file
        self.line = line
        self.reason = reason
    }

    public var description: String { "\(file) line \(line): \(reason)" }
}
