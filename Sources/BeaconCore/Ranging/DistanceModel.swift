#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Turns a filtered RSSI and the beacon's calibrated power at 1 m into an estimated distance.
public enum DistanceModel: Hashable, Sendable, CustomStringConvertible {
    /// The default: the distance a beacon most plausibly has in a room nobody measured.
    case room(RoomPrior)
    /// The log-distance path-loss model, `d = 10^((measuredPower - rssi) / (10 n))`, for a site
    /// whose exponent `n` is known (`beacon calibrate` fits it).
    case logDistance(exponent: Double)
    /// AltBeacon's default curve, `0.42093 r^6.9476 + 0.54992` with `r = rssi / measuredPower`
    /// (`r^10` below 1), fitted by Radius Networks to a Nexus 4.
    case altBeacon
    /// node-bleacon's formula, `12^(1.5 (r - 1))` with `r = rssi / measuredPower`.
    case bleacon

    public static let standard = DistanceModel.room(RoomPrior())

    /// Estimated distance in metres; -1 when it cannot be computed (a non-finite input or a
    /// parameter out of range).
    public func distance(rssi: Double, measuredPower: Double) -> Double {
        guard rssi.isFinite, measuredPower.isFinite else { return -1 }
        let estimate: Double
        switch self {
        case .room(let prior):
            estimate = prior.medianDistance(attenuation: measuredPower - rssi)
        case .logDistance(let n):
            guard n > 0, n.isFinite else { return -1 }
            estimate = pow(10, (measuredPower - rssi) / (10 * n))
        case .altBeacon:
            guard measuredPower != 0 else { return -1 }
            let ratio = rssi / measuredPower
            estimate = ratio < 1 ? pow(ratio, 10) : 0.42093 * pow(ratio, 6.9476) + 0.54992
        case .bleacon:
            guard measuredPower != 0 else { return -1 }
            estimate = pow(12, 1.5 * (rssi / measuredPower - 1))
        }
        return estimate.isFinite && estimate >= 0 ? estimate : -1
    }

    /// The forms `--distance-model` accepts.
    /// The models' names, the part of each form before its parameters.
    public static let names = ["room", "log", "altbeacon", "bleacon"]
    public static let forms = "room, log:EXPONENT, altbeacon, bleacon"

    /// `room`, `log:2.5` (exponent 0.5...6, as `beacon calibrate` fits), `altbeacon` or `bleacon`; nil for anything else.
    public static func parse(_ text: String) -> DistanceModel? {
        switch text {
        case "room": return .standard
        case "altbeacon": return .altBeacon
        case "bleacon": return .bleacon
        default:
            guard text.hasPrefix("log:"), let n = Double(text.dropFirst(4)), PathLossFit.plausibleExponents.contains(n) else { return nil }
            return .logDistance(exponent: n)
        }
    }

    public var description: String {
        switch self {
        case .room: "room"
        case .logDistance(let n): "log:\(n)"
        case .altBeacon: "altbeacon"
        case .bleacon: "bleacon"
        }
    }
}

/// What is known about a room nobody measured, and the distance that follows from an attenuation.
///
/// The path-loss exponent differs from place to place (about 2 in the open, up to 4 among furniture
/// and people), readings scatter around the path-loss line by several dB even after filtering
/// (reflections, bodies, antenna orientation), and ranged beacons are mostly within a few metres.
/// A single exponent is right in some rooms and far off in others. Instead the estimate is the
/// median of the distance given the attenuation, averaged over the exponents: the value that
/// minimises the expected absolute error when the room is unknown. Near the calibration distance
/// it behaves like an exponent of about 3; for weak signals it grows more slowly than any single
/// exponent would, because a weak reading is as often a body in the way as a long distance.
///
/// Model: `ln d ~ Normal(ln typicalDistance, spread²)`; the exponent is uniform over
/// `exponents` (sampled at `exponentSteps` points); `attenuation = 10 n log10 d + Normal(0, shadowing²)`.
/// For each exponent the posterior of `ln d` is normal, so the answer is the median of a small
/// mixture of normals, found by bisection: exact, and computed only at ranging ticks.
public struct RoomPrior: Hashable, Sendable {
    public var exponents: ClosedRange<Double>
    public var exponentSteps: Int
    /// Standard deviation of a filtered reading around the path-loss line (dB).
    public var shadowing: Double
    /// Median distance of a ranged beacon before anything is heard (m).
    public var typicalDistance: Double
    /// Standard deviation of `ln d` before anything is heard.
    public var spread: Double

    public init(exponents: ClosedRange<Double> = 2...4, exponentSteps: Int = 9, shadowing: Double = 6,
                typicalDistance: Double = 1.5, spread: Double = 1.2) {
        self.exponents = exponents
        self.exponentSteps = max(1, exponentSteps)
        self.shadowing = shadowing
        self.typicalDistance = typicalDistance
        self.spread = spread
    }

    /// Whether the parameters describe a distribution: scatters and the typical distance positive.
    var isValid: Bool { shadowing > 0 && spread > 0 && typicalDistance > 0 }

    /// Posterior median distance (m) for `attenuation = measuredPower - rssi` (dB).
    public func medianDistance(attenuation: Double) -> Double {
        guard let log = medianLogDistance(attenuation: attenuation, near: nil) else { return -1 }
        return exp(log)
    }

    /// The posterior median of `ln d`, by safeguarded Newton iteration on the mixture's distribution
    /// function, started at `near` when given (a neighbouring attenuation's answer); nil when the
    /// parameters are out of range.
    func medianLogDistance(attenuation: Double, near: Double?) -> Double? {
        guard attenuation.isFinite, isValid else { return nil }
        let priorMean = log(typicalDistance)
        let priorPrecision = 1 / (spread * spread)
        let noise = shadowing * shadowing
        var components: [(weight: Double, mean: Double, deviation: Double)] = []
        components.reserveCapacity(exponentSteps)
        var largestLogWeight = -Double.infinity
        for step in 0..<exponentSteps {
            let n = exponentSteps == 1 ? exponents.lowerBound
                : exponents.lowerBound + (exponents.upperBound - exponents.lowerBound) * Double(step) / Double(exponentSteps - 1)
            // attenuation = slope * ln d + noise
            let slope = 10 * n / log(10.0)
            let precision = priorPrecision + slope * slope / noise
            let mean = (priorMean * priorPrecision + slope * attenuation / noise) / precision
            // Marginal likelihood of the attenuation under this exponent, in logs to stay finite.
            let marginalVariance = noise + slope * slope * spread * spread
            let residual = attenuation - slope * priorMean
            let logWeight = -0.5 * residual * residual / marginalVariance - 0.5 * log(marginalVariance)
            largestLogWeight = max(largestLogWeight, logWeight)
            components.append((logWeight, mean, 1 / precision.squareRoot()))
        }
        var total = 0.0
        for i in components.indices {
            components[i].weight = exp(components[i].weight - largestLogWeight)
            total += components[i].weight
        }
        // Distribution function minus one half, and the density, at x.
        func excess(_ x: Double) -> (value: Double, slope: Double) {
            var cumulative = 0.0, density = 0.0
            for c in components {
                let z = (x - c.mean) / c.deviation
                cumulative += c.weight * 0.5 * erfc(-z / 2.0.squareRoot())
                density += c.weight * exp(-0.5 * z * z) / (c.deviation * (2 * Double.pi).squareRoot())
            }
            return (cumulative / total - 0.5, density / total)
        }
        var low = components.map { $0.mean - 8 * $0.deviation }.min() ?? 0
        var high = components.map { $0.mean + 8 * $0.deviation }.max() ?? 0
        var x = near.map { min(max($0, low), high) }
            ?? components.reduce(0) { $0 + $1.weight * $1.mean } / total
        for _ in 0..<100 {
            let (value, slope) = excess(x)
            if abs(value) < 1e-13 { break }
            if value < 0 { low = x } else { high = x }
            // A Newton step, or the bisection when it would leave the bracket.
            let newton = slope > 0 ? x - value / slope : .nan
            x = newton > low && newton < high ? newton : (low + high) / 2
            if high - low < 1e-12 { break }
        }
        return x
    }
}

/// A distance model ready for ranging ticks. The room model's posterior median is tabulated over every
/// attenuation a controller and a plausible calibration can produce (0.25 dB steps, interpolated in log
/// distance: the curve is smooth, the error far below a centimetre), each step worked out the first
/// time a tick needs it: a run meets a few dozen dB of them, and the whole table would cost a start of
/// milliseconds. The closed-form models are evaluated directly.
public struct PreparedDistanceModel: Sendable {
    public let model: DistanceModel
    /// The room model's prior, when its parameters are in range.
    private let prior: RoomPrior?
    /// The posterior median of ln d at each step, NaN until it is first needed; empty without `prior`.
    private var logDistances: [Double]
    private static let lowest = -160.0
    private static let step = 0.25
    private static let steps = 1280

    public init(_ model: DistanceModel) {
        self.model = model
        if case .room(let prior) = model, prior.isValid {
            self.prior = prior
            logDistances = Array(repeating: .nan, count: Self.steps + 1)
        } else {
            prior = nil
            logDistances = []
        }
    }

    /// Estimated distance in metres; -1 when unknown.
    public mutating func distance(rssi: Double, measuredPower: Double) -> Double {
        let position = (measuredPower - rssi - Self.lowest) / Self.step
        guard let prior, position >= 0, position < Double(Self.steps) else {
            return model.distance(rssi: rssi, measuredPower: measuredPower)
        }
        let i = Int(position)
        let fraction = position - Double(i)
        let (low, high) = (logDistance(at: i, prior), logDistance(at: i + 1, prior))
        let estimate = exp(low + fraction * (high - low))
        return estimate.isFinite ? estimate : -1
    }

    /// Step `i`'s posterior median of ln d: looked up twice per ranged beacon and tick, and worked out
    /// only the first time.
    @inline(__always)
    private mutating func logDistance(at i: Int, _ prior: RoomPrior) -> Double {
        let known = logDistances[i]
        return known.isNaN ? workOutLogDistance(at: i, prior) : known
    }

    /// Step `i`'s posterior median of ln d, worked out from a neighbouring step's when there is one.
    @inline(never)
    private mutating func workOutLogDistance(at i: Int, _ prior: RoomPrior) -> Double {
        let before = i > 0 ? logDistances[i - 1] : .nan
        let after = i + 1 < logDistances.count ? logDistances[i + 1] : .nan
        let near: Double? = !before.isNaN ? before : !after.isNaN ? after : nil
        let value = prior.medianLogDistance(attenuation: Self.lowest + Double(i) * Self.step, near: near) ?? .nan
        logDistances[i] = value
        return value
    }
}
