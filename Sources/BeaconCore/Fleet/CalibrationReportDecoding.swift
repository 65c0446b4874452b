/// Reading a `gatewayCalibration` line back (the retained message a restarted `beacon locate
/// --calibrate` continues from), a network input: anything that is not a well-formed calibration of
/// this site's gateways is refused with a one-line reason, never trusted in part.
extension CalibrationReport {
    /// A site of 1,000 gateways' fit is about 250 kB.
    public static let maximumMessageBytes = 1 << 20
    /// The line, its gateways, each gateway, its outliers.
    public static let maximumNesting = 4
    /// Beyond any offset a receiver shows (dB), and beyond any exponent a room shows.
    static let offsetRange = -100.0...100.0
    static let exponentRange = 0.0...10.0

    /// Why a calibration message was refused.
    public enum DecodingError: Error, Equatable, Sendable, CustomStringConvertible {
        /// Not a calibration line, or one without what a fit needs to be rebuilt.
        case malformed(String)
        /// A calibration of gateways this site does not have.
        case foreign(String)

        public var description: String {
            switch self {
            case .malformed(let reason), .foreign(let reason): reason
            }
        }
    }

    /// Decodes a `gatewayCalibration` line of `site`'s gateways (a gateway of the site it leaves out
    /// keeps the signal model's own offset and exponent). `changed` is checked but not read back: the
    /// fits it compared against are not in the line, so the report has no changes.
    public static func decode(_ payload: [UInt8], site: Site) throws(DecodingError) -> CalibrationReport {
        let json: JSONValue
        do {
            json = try JSONValue.parse(payload, maximumDepth: maximumNesting, maximumBytes: maximumMessageBytes)
        } catch {
            throw .malformed("not a calibration line: \(error)")
        }
        guard json.object != nil else { throw .malformed("expected an object, found \(json.kind)") }
        guard json["event"]?.string == "gatewayCalibration" else { throw .malformed("event: expected \"gatewayCalibration\"") }
        guard let timeText = json["time"]?.string, let time = TimestampText.parse(timeText) else {
            throw .malformed("time: expected an ISO 8601 time such as 2026-12-03T07:38:29.000Z")
        }
        let pairs = try count(json["pairs"], "pairs")
        guard let scatter = json["scatter"]?.number, (0...100).contains(scatter) else {
            throw .malformed("scatter: expected a number from 0 to 100")
        }
        guard let entries = json["gateways"]?.array, !entries.isEmpty else { throw .malformed("gateways: expected a non-empty array") }
        guard entries.count <= site.gateways.count else {
            throw .foreign("gateways: \(entries.count) fits, the site has \(site.gateways.count) gateways")
        }
        var fits: [GatewayFit] = []
        for (position, entry) in entries.enumerated() {
            let path = "gateways[\(position)]"
            guard entry.object != nil else { throw .malformed("\(path): expected an object, found \(entry.kind)") }
            func gateway(_ value: JSONValue?, _ member: String) throws(DecodingError) -> Int {
                guard let name = value?.string else { throw .malformed("\(member): expected a string") }
                // The name is the sender's text: quoted, so a control character cannot break the line.
                guard let index = site.gatewayIndex(named: name) else { throw .foreign("\(member): \(JSONValue.quoted(name)) is not a gateway of the site") }
                return index
            }
            func number(_ member: String, _ range: ClosedRange<Double>) throws(DecodingError) -> Double {
                guard let value = entry[member]?.number, range.contains(value) else {
                    throw .malformed("\(path).\(member): expected a number from \(range.lowerBound) to \(range.upperBound)")
                }
                return value
            }
            let index = try gateway(entry["name"], "\(path).name")
            guard !fits.contains(where: { $0.gateway == index }) else { throw .malformed("\(path).name: \(site.gateways[index].name) fitted twice") }
            guard let outlierNames = entry["outliers"]?.array else { throw .malformed("\(path).outliers: expected an array") }
            var outliers: [Int] = []
            for (k, name) in outlierNames.enumerated() { outliers.append(try gateway(name, "\(path).outliers[\(k)]")) }
            guard entry["changed"]?.bool != nil else { throw .malformed("\(path).changed: expected true or false") }
            var fit = GatewayFit(gateway: index, offset: try number("offset", offsetRange), offsetError: try number("offsetError", 0...100),
                                 exponent: try number("exponent", exponentRange), exponentError: try number("exponentError", 0...10),
                                 covariance: try number("covariance", -1_000...1_000), centre: try number("centre", 0.1...10_000),
                                 pairs: try count(entry["pairs"], "\(path).pairs"), residual: try number("residual", 0...100),
                                 outliers: outliers.sorted())
            // A covariance beyond what the errors allow, by more than the line's rounding of the three
            // (0.01 and 0.0001) explains, comes from no fit; within that, it is held to what they allow.
            let bound = fit.offsetError * fit.exponentError
            guard abs(fit.covariance) <= bound + 0.005 * (fit.offsetError + fit.exponentError) + 0.0001 else {
                throw .malformed("\(path).covariance: \(fit.covariance) exceeds offsetError times exponentError")
            }
            fit.covariance = min(max(fit.covariance, -bound), bound)
            fits.append(fit)
        }
        let calibration = SiteCalibration(gateways: fits.sorted { $0.gateway < $1.gateway }, scatter: scatter, pairs: pairs)
        return CalibrationReport(time: time, calibration: calibration, changes: [], gatewayNames: site.gateways.map(\.name))
    }

    private static func count(_ value: JSONValue?, _ member: String) throws(DecodingError) -> Int {
        guard let value = value?.number, value >= 1, value <= 1_000_000_000, value.rounded() == value else {
            throw .malformed("\(member): expected a whole number from 1")
        }
        return Int(value)
    }
}
