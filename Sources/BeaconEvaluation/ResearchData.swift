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

    /// Parses the CSV text: a header line, then `YYYY-MM-DD HH:MM:SS,RSSI,CENTIMETRES` per line. The
    /// local times are taken as UTC (only differences matter); RSSI is rounded to a whole dBm.
    public static func parse(name: String, text: String) throws(ResearchDataError) -> ResearchFile {
        var readings: [ResearchReading] = []
        var lineNumber = 0
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            lineNumber += 1
            let line = line.hasSuffix("\r") ? line.dropLast() : line
            if lineNumber == 1 || line.isEmpty { continue }
            let fields = line.split(separator: ",", omittingEmptySubsequences: false)
            guard fields.count == 3 else { throw ResearchDataError(file: name, line: lineNumber, "expected 3 fields") }
            guard let time = parseTime(fields[0]) else {
                throw ResearchDataError(file: name, line: lineNumber, "'\(fields[0])' is not YYYY-MM-DD HH:MM:SS")
            }
            guard let rssi = Double(fields[1]), rssi.isFinite, let whole = Int8(exactly: rssi.rounded(.toNearestOrAwayFromZero)) else {
                throw ResearchDataError(file: name, line: lineNumber, "RSSI '\(fields[1])' is not a number in -128...127")
            }
            guard let centimetres = Int(fields[2]), centimetres >= 0 else {
                throw ResearchDataError(file: name, line: lineNumber, "distance '\(fields[2])' is not a whole number of cm")
            }
            readings.append(ResearchReading(time: time, rssi: whole, centimetres: centimetres))
        }
        return ResearchFile(name: name, readings: readings)
    }

    /// `YYYY-MM-DD HH:MM:SS` as a time (UTC).
    static func parseTime(_ text: Substring) -> Timestamp? {
        let parts = text.split(separator: " ")
        guard parts.count == 2 else { return nil }
        let date = parts[0].split(separator: "-").compactMap { Int64($0) }
        let clock = parts[1].split(separator: ":").compactMap { Int64($0) }
        guard date.count == 3, clock.count == 3, (1...12).contains(date[1]), (1...31).contains(date[2]),
              (0...23).contains(clock[0]), (0...59).contains(clock[1]), (0...59).contains(clock[2]) else { return nil }
        // Days from 1970-01-01 (Howard Hinnant's days_from_civil).
        let y = date[1] <= 2 ? date[0] - 1 : date[0]
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (date[1] > 2 ? date[1] - 3 : date[1] + 9) + 2) / 5 + date[2] - 1
        let days = era * 146_097 + yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear - 719_468
        return Timestamp(microseconds: (days * 86_400 + clock[0] * 3600 + clock[1] * 60 + clock[2]) * 1_000_000)
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

    public var description: String { "\(file).csv line \(line): \(reason)" }
}
