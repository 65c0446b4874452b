/// What a site's fit (`beacon calibrate --sample`) tells ranging: the path-loss exponent and how sure the
/// fit is of it. A handful of calibration points fits a line whose slope the room's reflections and bodies
/// move by as much as the distance does, so the fit narrows the room model's prior over exponents instead
/// of replacing it: a vague fit leaves the room model as it was, a tight one decides. The measured power
/// stays the one the user or the beacon gives.
public struct SitePrior: Hashable, Sendable {
    public var exponent: Double
    /// Standard error of `exponent`.
    public var exponentDeviation: Double
    /// The factor, 0...1, on the fit's precision (`PathLossFit.priorWeight`): 0 leaves the room model as it is.
    public var weight: Double

    public init(exponent: Double, exponentDeviation: Double, weight: Double = 1) {
        self.exponent = exponent
        self.exponentDeviation = exponentDeviation
        self.weight = weight
    }

    public init(_ fit: PathLossFit) {
        self.init(exponent: fit.exponent, exponentDeviation: fit.exponentDeviation, weight: fit.priorWeight)
    }

    /// Exponent deviations a fit can report: beyond this the fit says nothing about the exponent.
    public static let plausibleDeviations: ClosedRange<Double> = 0...100
    /// Prior weights a fit can report.
    public static let plausibleWeights: ClosedRange<Double> = 0...1
    /// Largest site-fit file read.
    public static let maximumFileBytes = 1 << 20

    /// The last `fit` line of a file of `beacon calibrate` lines (docs/output.md): its
    /// `pathLossExponent`, `exponentDeviation` and `priorWeight` (1 when absent, as in a fit that predates
    /// it). Other lines (the calibrations it was fitted from) are
    /// skipped; every line must be a JSON object.
    public static func decode(_ bytes: [UInt8]) throws(SitePriorError) -> SitePrior {
        guard bytes.count <= maximumFileBytes else { throw SitePriorError(line: 0, "larger than \(maximumFileBytes) bytes") }
        var found: SitePrior?
        var lineNumber = 0
        for line in bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
            lineNumber += 1
            guard line.contains(where: { $0 != UInt8(ascii: " ") && $0 != UInt8(ascii: "\r") && $0 != UInt8(ascii: "\t") }) else { continue }
            let value: JSONValue
            do {
                value = try JSONValue.parse(Array(line), maximumDepth: 4, maximumBytes: maximumFileBytes)
            } catch {
                throw SitePriorError(line: lineNumber, "not a JSON object: \(error.reason)")
            }
            guard value.object != nil else { throw SitePriorError(line: lineNumber, "expected a JSON object, found \(value.kind)") }
            guard value["event"]?.string == "fit" else { continue }
            func number(_ field: String, in range: ClosedRange<Double>) throws(SitePriorError) -> Double {
                guard let member = value[field] else { throw SitePriorError(line: lineNumber, field: field, "missing") }
                guard let number = member.number else { throw SitePriorError(line: lineNumber, field: field, "expected a number, found \(member.kind)") }
                guard range.contains(number) else {
                    throw SitePriorError(line: lineNumber, field: field, "\(number) is outside \(range.lowerBound)...\(range.upperBound)")
                }
                return number
            }
            found = SitePrior(exponent: try number("pathLossExponent", in: PathLossFit.plausibleExponents),
                              exponentDeviation: try number("exponentDeviation", in: plausibleDeviations),
                              weight: value["priorWeight"] == nil ? 1 : try number("priorWeight", in: plausibleWeights))
        }
        guard let found else { throw SitePriorError(line: 0, "no \"fit\" line (the output of beacon calibrate --sample)") }
        return found
    }
}

/// Why a site-fit file was refused: the line and the field at fault, when there is one.
public struct SitePriorError: Error, Equatable, Sendable, CustomStringConvertible {
    /// 0 when the file as a whole is at fault.
    public var line: Int
    /// Empty when no one field is at fault.
    public var field: String
    public var reason: String

    public init(line: Int, field: String = "", _ reason: String) {
        self.line = line
        self.field = field
        self.reason = reason
    }

    public var description: String {
        (line > 0 ? "line \(line): " : "") + (field.isEmpty ? "" : "\(field): ") + reason
    }
}

extension RoomPrior {
    /// The room model with its prior over exponents narrowed by a site's fit: the prior's mean and
    /// variance (a uniform over `exponents`) and the fit's estimate combined by their precisions, then
    /// spread uniformly again with the combined mean and variance (mean ± √3 σ, within the exponents a
    /// fit may have), the fit's precision scaled by its weight. An infinitely vague fit, or one of weight 0,
    /// gives the room model back; an exact one of any other weight its exponent alone.
    public func narrowed(by site: SitePrior) -> RoomPrior {
        guard site.weight > 0 else { return self }
        let width = exponents.upperBound - exponents.lowerBound
        let roomMean = (exponents.lowerBound + exponents.upperBound) / 2
        let roomPrecision = width > 0 ? 12 / (width * width) : .infinity
        let sitePrecision = site.exponentDeviation > 0 ? site.weight / (site.exponentDeviation * site.exponentDeviation) : .infinity
        guard site.exponent.isFinite, !(roomPrecision.isInfinite && sitePrecision.isInfinite) else { return self }
        let mean: Double, deviation: Double
        if sitePrecision.isInfinite {
            (mean, deviation) = (site.exponent, 0)
        } else if roomPrecision.isInfinite {
            (mean, deviation) = (roomMean, 0)
        } else {
            let precision = roomPrecision + sitePrecision
            (mean, deviation) = ((roomMean * roomPrecision + site.exponent * sitePrecision) / precision, (1 / precision).squareRoot())
        }
        let plausible = PathLossFit.plausibleExponents
        let halfWidth = 3.0.squareRoot() * deviation
        var narrowed = self
        let low = min(max(mean - halfWidth, plausible.lowerBound), plausible.upperBound)
        narrowed.exponents = low...max(low, min(mean + halfWidth, plausible.upperBound))
        return narrowed
    }
}
