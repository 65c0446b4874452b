#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// What `beacon calibrate` measures: the RSSI of one beacon held at a known distance, summarised
/// robustly (median and interquartile range, which a few reflections or a passing body do not move).
public struct CalibrationSample: Hashable, Sendable {
    /// Metres between beacon and receiver.
    public var distance: Double
    /// Readings taken.
    public var count: Int
    /// Median RSSI (dBm).
    public var median: Double
    /// Interquartile range of the readings (dB).
    public var spread: Double

    public init(distance: Double, count: Int, median: Double, spread: Double) {
        self.distance = distance
        self.count = count
        self.median = median
        self.spread = spread
    }

    /// Fewer readings than this are not a measurement (30 s of a 100 ms beacon gives about 300).
    public static let minimumCount = 20
    /// Readings scattered wider than this (interquartile range, dB) mean the beacon or the people
    /// around it moved: the median is not worth configuring.
    public static let maximumSpread = 10.0

    /// Summarises readings taken at `distance`; refuses too few or too scattered readings.
    public static func measure(_ readings: [Double], at distance: Double) -> Result<CalibrationSample, CalibrationError> {
        guard readings.count >= minimumCount else {
            return .failure(.init("only \(readings.count.counted("reading")) with an RSSI; at least \(minimumCount) are needed (hold the beacon still for longer, or check it is advertising)"))
        }
        let sorted = readings.sorted()
        let sample = CalibrationSample(distance: distance, count: sorted.count,
                                       median: OrderStatistics.quantile(sorted: sorted, 0.5),
                                       spread: OrderStatistics.quantile(sorted: sorted, 0.75) - OrderStatistics.quantile(sorted: sorted, 0.25))
        guard sample.spread <= maximumSpread else {
            return .failure(.init("readings spread over \(formatted(sample.spread)) dB (interquartile range), more than \(formatted(maximumSpread)) dB: keep the beacon and the people around it still and measure again"))
        }
        if distance == 1, let error = MeasuredPowerAtOneMetre.refusal(sample.median, named: "the median RSSI at 1 m") {
            return .failure(error)
        }
        return .success(sample)
    }
}

/// The `--measured-power` that an RSSI at 1 m (measured or fitted) gives `beacon range`: whole dBm,
/// and only one the ranging estimator takes as a calibration.
public enum MeasuredPowerAtOneMetre {
    public static func flag(_ rssi: Double) -> Int { Int(rssi.rounded()) }

    /// Why `rssi` gives no usable `--measured-power`; nil when it does.
    static func refusal(_ rssi: Double, named what: String) -> CalibrationError? {
        let range = RangingEstimator.plausibleMeasuredPower
        let power = flag(rssi)
        guard !(Int(range.lowerBound)...Int(range.upperBound)).contains(power) else { return nil }
        return CalibrationError("\(what) gives --measured-power \(power), outside \(range.lowerBound)...\(range.upperBound) that beacon range accepts: check the distances and that the receiver reports RSSI in dBm")
    }
}

/// A site's log-distance model fitted to calibration samples at several distances:
/// `median RSSI = measuredPower - 10 n log10(distance)`, by least squares, with the standard errors of
/// the exponent and of the RSSI at 1 m that the samples' scatter around the line leaves.
public struct PathLossFit: Hashable, Sendable {
    public var exponent: Double
    /// Standard error of `exponent`.
    public var exponentDeviation: Double
    /// The fitted RSSI at 1 m (dBm).
    public var measuredPower: Double
    /// Standard error of `measuredPower` (dB).
    public var measuredPowerDeviation: Double
    /// Root-mean-square difference between the samples and the fitted line (dB).
    public var residual: Double
    public var samples: Int

    public init(exponent: Double, exponentDeviation: Double, measuredPower: Double, measuredPowerDeviation: Double,
                residual: Double, samples: Int) {
        self.exponent = exponent
        self.exponentDeviation = exponentDeviation
        self.measuredPower = measuredPower
        self.measuredPowerDeviation = measuredPowerDeviation
        self.residual = residual
        self.samples = samples
    }

    /// The scatter (dB) a calibration median is taken to have around a site's line before the samples
    /// say otherwise (the room model's scatter of a reading around its line), and how many samples' worth
    /// that belief weighs. Two or three points fit a line almost exactly whatever the room does: their
    /// own residual would claim a certainty they do not have.
    public static let priorScatter = RoomPrior().shadowing
    public static let priorScatterWeight = 2.0

    /// What a fitted exponent below `lowExponent` usually means, for a warning; nil otherwise.
    public var lowExponentWarning: String? {
        guard exponent < Self.lowExponent else { return nil }
        return "the fitted path-loss exponent \(formatted(exponent)) is below \(formatted(Self.lowExponent)): usual for a receiver mounted high or a corridor that guides the signal; elsewhere check the distances and that nothing stood in the way at the far ones"
    }

    /// Exponents outside this range are not a room: the samples are mislabelled or disturbed. Real
    /// receivers show exponents down to about 0.6 (high-mounted dongles in open offices, corridors).
    public static let plausibleExponents: ClosedRange<Double> = 0.5...6
    /// Below this a fit is accepted with a warning: it is real in some places, and a mistake in others.
    public static let lowExponent = 1.5
    /// The farthest sample must be at least this many times farther than the nearest: over a shorter
    /// span noise decides the slope.
    public static let minimumSpan = 2.0

    public static func fit(_ samples: [CalibrationSample]) -> Result<PathLossFit, CalibrationError> {
        let usable = samples.filter { $0.distance > 0 && $0.distance.isFinite && $0.median.isFinite }
        guard let nearest = usable.map(\.distance).min(), let farthest = usable.map(\.distance).max(),
              usable.count >= 2, farthest / nearest >= minimumSpan else {
            return .failure(.init("fitting needs samples at two or more distances, the farthest at least \(formatted(minimumSpan)) times the nearest (for example 1 m and 3 m)"))
        }
        let xs = usable.map { log10($0.distance) }, ys = usable.map(\.median)
        let (meanX, meanY, sxx, sxy) = leastSquaresSums(xs, ys)
        let slope = sxy / sxx
        let intercept = meanY - slope * meanX
        let exponent = -slope / 10
        let squares = zip(xs, ys).map { x, y in pow(y - (intercept + slope * x), 2) }.reduce(0, +)
        // The scatter around the line, pooled with the prior belief (`priorScatter`): the samples' own
        // residual has count - 2 degrees of freedom.
        let k = Double(xs.count)
        let scatter = ((squares + priorScatterWeight * priorScatter * priorScatter) / (k - 2 + priorScatterWeight)).squareRoot()
        // With the scatter itself estimated, the exponent follows Student's t with the pooled degrees of
        // freedom, whose variance is ν / (ν − 2) times the normal's: a handful of three or four points is
        // less sure than its scatter alone says. Two points (ν = 2) keep the prior scatter's normal.
        let freedom = k - 2 + priorScatterWeight
        let tFactor = freedom > 2 ? (freedom / (freedom - 2)).squareRoot() : 1
        let deviation = max(tFactor * scatter / (10 * sxx.squareRoot()), jackknifeDeviation(xs, ys))
        let fit = PathLossFit(exponent: exponent, exponentDeviation: deviation,
                              measuredPower: intercept, measuredPowerDeviation: scatter * (1 / k + meanX * meanX / sxx).squareRoot(),
                              residual: (squares / k).squareRoot(), samples: usable.count)
        guard plausibleExponents.contains(exponent) else {
            return .failure(.init("the fitted path-loss exponent \(formatted(exponent)) is outside \(formatted(plausibleExponents.lowerBound))...\(formatted(plausibleExponents.upperBound)): check the distances, and that nothing moved between measurements"))
        }
        // The line must explain more than the scatter around it: a drop over the measured span no
        // larger than the residual says RSSI did not follow distance.
        let drop = 10 * exponent * (log10(farthest) - log10(nearest))
        guard drop > fit.residual else {
            return .failure(.init("RSSI fell \(formatted(drop)) dB over the measured distances, no more than the \(formatted(fit.residual)) dB the samples scatter around the fit: nothing here follows distance; measure again with a clear line of sight"))
        }
        if let error = MeasuredPowerAtOneMetre.refusal(intercept, named: "the fitted RSSI at 1 m") { return .failure(error) }
        return .success(fit)
    }
}

/// The jackknife's standard error of the exponent: the spread of the exponents fitted with each sample
/// left out in turn. A handful whose points disagree with one another (RSSI undulating between the measured
/// distances, one point a body in the way) moves the slope by more than the scatter around one line says;
/// 0 with fewer than three samples. `xs` are log10 distances, `ys` RSSI.
private func jackknifeDeviation(_ xs: [Double], _ ys: [Double]) -> Double {
    guard xs.count >= 3 else { return 0 }
    var exponents: [Double] = []
    for left in xs.indices {
        let kept = xs.indices.filter { $0 != left }
        let (_, _, sxx, sxy) = leastSquaresSums(kept.map { xs[$0] }, kept.map { ys[$0] })
        if sxx > 0 { exponents.append(-sxy / sxx / 10) }
    }
    guard exponents.count >= 2 else { return 0 }
    let k = Double(exponents.count)
    let mean = exponents.reduce(0, +) / k
    return ((k - 1) / k * exponents.reduce(0) { $0 + ($1 - mean) * ($1 - mean) }).squareRoot()
}

/// The means of `xs` and `ys` and the sums of squares and products about them that a least-squares line
/// is fitted from: slope `sxy / sxx`.
private func leastSquaresSums(_ xs: [Double], _ ys: [Double]) -> (meanX: Double, meanY: Double, sxx: Double, sxy: Double) {
    let meanX = xs.reduce(0, +) / Double(xs.count), meanY = ys.reduce(0, +) / Double(ys.count)
    var sxx = 0.0, sxy = 0.0
    for (x, y) in zip(xs, ys) {
        sxx += (x - meanX) * (x - meanX)
        sxy += (x - meanX) * (y - meanY)
    }
    return (meanX, meanY, sxx, sxy)
}

public struct CalibrationError: Error, Equatable, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}

/// Two decimals at most, for messages.
private func formatted(_ value: Double) -> String {
    let rounded = (value * 100).rounded() / 100
    return rounded == rounded.rounded() ? String(Int(rounded)) : String(rounded)
}
