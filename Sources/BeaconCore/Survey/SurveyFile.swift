/// A survey file (docs/survey.md): JSON lines, one `SurveyPoint` each, such as
/// `{"x":3.2,"y":1.5,"gateway":"gw1","rssi":-71.5,"samples":3400}`. Read from input that may be hostile:
/// the whole file is refused, naming the line, column and member, on the first line that is not a valid
/// point; its size and its number of points are bounded. Members this version does not know (another
/// tool's notes) are ignored and counted, so a file written by a newer or other tool is still a survey.
public struct SurveyFile: Equatable, Sendable {
    public var points: [SurveyPoint]
    /// Each member ignored, with how many lines held it and the first of them, in the order first met.
    public var ignoredMembers: [IgnoredMember]

    public struct IgnoredMember: Equatable, Sendable {
        public var name: String
        public var lines: Int
        public var firstLine: Int

        public init(name: String, lines: Int, firstLine: Int) {
            self.name = name
            self.lines = lines
            self.firstLine = firstLine
        }
    }

    /// Largest survey file read (a surveyed building is a few thousand lines).
    public static let maximumFileBytes = 16 << 20
    /// Most points (lines) in one file.
    public static let maximumPoints = 100_000
    /// Members an unknown member may nest (another tool's object or array).
    static let maximumNesting = 8
    /// An RSSI a controller can report, dBm.
    public static let rssiRange = -127.0...20.0
    /// Most readings one point may be the median of.
    static let maximumSamples = 1_000_000_000
    /// Largest spread, dB.
    static let spreadRange = 0.0...100.0
    static let members = ["x", "y", "floor", "gateway", "rssi", "samples", "spread", "time"]

    public init(points: [SurveyPoint], ignoredMembers: [IgnoredMember] = []) {
        self.points = points
        self.ignoredMembers = ignoredMembers
    }

    /// Reads a survey file. Empty lines (and a missing last newline) are allowed; every other line is one point.
    public static func decode(_ bytes: [UInt8]) throws(SurveyError) -> SurveyFile {
        guard bytes.count <= maximumFileBytes else {
            throw SurveyError(line: nil, column: nil, field: "", reason: "larger than the limit of \(maximumFileBytes) bytes")
        }
        var file = SurveyFile(points: [])
        var ignored: [String: Int] = [:]
        var lineNumber = 0
        var start = 0
        while start < bytes.count {
            let end = bytes[start...].firstIndex(of: UInt8(ascii: "\n")) ?? bytes.count
            lineNumber += 1
            var line = bytes[start..<end]
            start = end + 1
            if line.last == UInt8(ascii: "\r") { line = line.dropLast() }
            guard line.contains(where: { $0 != 0x20 && $0 != 0x09 }) else { continue }
            guard file.points.count < maximumPoints else {
                throw SurveyError(line: lineNumber, column: 1, field: "", reason: "more than \(maximumPoints) points (the limit)")
            }
            let text = Array(line)
            let point = try SurveyFileLine(text, number: lineNumber).point { name in
                if let index = ignored[name] {
                    file.ignoredMembers[index].lines += 1
                } else {
                    ignored[name] = file.ignoredMembers.count
                    file.ignoredMembers.append(IgnoredMember(name: name, lines: 1, firstLine: lineNumber))
                }
            }
            file.points.append(point)
        }
        return file
    }

    /// The warning a reader gives for the members it ignored, nil when none: each named once, with a
    /// suggestion when it looks like a misspelt known member.
    public var ignoredMembersWarning: String? {
        guard !ignoredMembers.isEmpty else { return nil }
        let shown = ignoredMembers.prefix(5).map { member in
            let hint = NearestMatch.suggestion(for: member.name, among: Self.members).map { ", did you mean '\($0)'?" } ?? ""
            return "\(JSONValue.quoted(member.name)) (\(member.lines.counted("line")) from line \(member.firstLine)\(hint))"
        }
        let more = ignoredMembers.count > 5 ? " and \(ignoredMembers.count - 5) more" : ""
        return "ignored members it does not know: \(shown.joined(separator: ", "))\(more)"
    }
}

/// Why a survey file was refused: where (line and column, from 1; nil for the file as a whole), the member
/// at fault (empty for the line as a whole) and why.
public struct SurveyError: Error, Equatable, Sendable, CustomStringConvertible {
    public var line: Int?
    public var column: Int?
    public var field: String
    public var reason: String

    public init(line: Int?, column: Int?, field: String, reason: String) {
        self.line = line
        self.column = column
        self.field = field
        self.reason = reason
    }

    /// `FILE:LINE:COLUMN: member: reason`, as compilers point into a file.
    public func inFile(_ path: String) -> String {
        let place = line.map { "\(path):\($0):\(column ?? 1)" } ?? path
        return "\(place): \(description)"
    }

    public var description: String { field.isEmpty ? reason : "\(field): \(reason)" }
}

/// One line of a survey file being read.
private struct SurveyFileLine {
    let text: [UInt8]
    let lineNumber: Int

    init(_ text: [UInt8], number: Int) {
        self.text = text
        lineNumber = number
    }

    func point(ignoring: (String) -> Void) throws(SurveyError) -> SurveyPoint {
        let value: JSONValue
        do {
            value = try JSONValue.parse(text, maximumDepth: SurveyFile.maximumNesting, maximumBytes: SurveyFile.maximumFileBytes)
        } catch {
            throw SurveyError(line: lineNumber, column: error.position?.column, field: "", reason: "not valid JSON: \(error.reason)")
        }
        guard let members = value.object else {
            throw SurveyError(line: lineNumber, column: 1, field: "", reason: "expected an object, found \(value.kind)")
        }
        var known: [String: JSONValue] = [:]
        for (name, member) in members {
            if SurveyFile.members.contains(name) { known[name] = member } else { ignoring(name) }
        }
        func required(_ name: String) throws(SurveyError) -> JSONValue {
            guard let member = known[name] else { throw SurveyError(line: lineNumber, column: 1, field: name, reason: "missing") }
            return member
        }
        func optional(_ name: String) -> JSONValue? {
            known[name].flatMap { $0.isNull ? nil : $0 }
        }
        func number(_ name: String, _ member: JSONValue, in range: ClosedRange<Double>, what: String) throws(SurveyError) -> Double {
            guard let number = member.number, range.contains(number) else {
                throw error(name, "expected \(what), found \(member.number.map { "\($0)" } ?? member.kind)")
            }
            return number
        }
        func whole(_ name: String, _ member: JSONValue, in range: ClosedRange<Int>) throws(SurveyError) -> Int {
            let value = try number(name, member, in: Double(range.lowerBound)...Double(range.upperBound),
                                   what: "a whole number from \(range.lowerBound) to \(range.upperBound)")
            guard value == value.rounded() else { throw error(name, "expected a whole number, found \(value)") }
            return Int(value)
        }
        let limit = Site.maximumCoordinate
        let coordinate = "a coordinate within ±\(Int(limit)) m"
        let x = try number("x", try required("x"), in: -limit...limit, what: coordinate)
        let y = try number("y", try required("y"), in: -limit...limit, what: coordinate)
        let floor = try optional("floor").map { member throws(SurveyError) in
            try whole("floor", member, in: -Site.maximumLevel...Site.maximumLevel)
        } ?? 0
        let gatewayMember = try required("gateway")
        guard let gateway = gatewayMember.string, !gateway.isEmpty,
              !gateway.unicodeScalars.contains(where: \.isControlOrNoncharacter) else {
            throw error("gateway", "expected a gateway's name: a non-empty string without control characters or noncharacters")
        }
        let rssiMember = try required("rssi")
        let rssi = rssiMember.isNull ? nil
            : try number("rssi", rssiMember, in: SurveyFile.rssiRange, what: "dBm from -127 to 20, or null when nothing was heard")
        let samples = try whole("samples", try required("samples"), in: 0...SurveyFile.maximumSamples)
        if rssi == nil, samples != 0 { throw error("samples", "expected 0 with an rssi of null (nothing heard), found \(samples)") }
        if rssi != nil, samples == 0 { throw error("samples", "expected at least 1 with an rssi heard, found 0") }
        let spread = try optional("spread").map { member throws(SurveyError) in
            try number("spread", member, in: SurveyFile.spreadRange, what: "dB from 0 to 100")
        }
        var time: Timestamp?
        if let member = optional("time") {
            guard let text = member.string, let parsed = TimestampText.parse(text) else {
                throw error("time", "expected an ISO 8601 time such as 2026-12-03T07:38:29.000Z")
            }
            time = parsed
        }
        return SurveyPoint(point: Point2(x: x, y: y), floor: floor, gateway: gateway, rssi: rssi, samples: samples,
                           spread: spread, time: time)
    }

    private func error(_ member: String, _ reason: String) -> SurveyError {
        SurveyError(line: lineNumber, column: column(ofMember: member), field: member, reason: reason)
    }

    /// The column (from 1, in Unicode scalars) of the member `name`'s key in the line's top-level object,
    /// 1 when it is not there. The line is valid JSON here, so strings and nesting can be followed simply.
    private func column(ofMember name: String) -> Int {
        let key = Array(name.utf8)
        var depth = 0
        var index = 0
        while index < text.count {
            let byte = text[index]
            if byte == UInt8(ascii: "\"") {
                let start = index
                index += 1
                while index < text.count, text[index] != UInt8(ascii: "\"") {
                    index += text[index] == UInt8(ascii: "\\") ? 2 : 1
                }
                var after = index + 1
                while after < text.count, text[after] == 0x20 || text[after] == 0x09 { after += 1 }
                if depth == 1, after < text.count, text[after] == UInt8(ascii: ":"), text[(start + 1)..<min(index, text.count)].elementsEqual(key) {
                    return 1 + text[..<start].count { $0 & 0xC0 != 0x80 }
                }
            } else if byte == UInt8(ascii: "{") || byte == UInt8(ascii: "[") {
                depth += 1
            } else if byte == UInt8(ascii: "}") || byte == UInt8(ascii: "]") {
                depth -= 1
            }
            index += 1
        }
        return 1
    }
}
