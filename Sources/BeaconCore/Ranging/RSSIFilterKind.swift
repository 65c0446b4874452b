/// Which RSSI filter ranging uses, with its parameters: the value `--rssi-filter` parses into.
public enum RSSIFilterKind: Hashable, Sendable, CustomStringConvertible {
    /// The mean of each interval's readings (CoreLocation).
    case intervalMean
    /// The median of the readings of the last `window`.
    case runningMedian(window: Micros)
    /// AltBeacon's running average: the last `window`, `fraction` trimmed from each side.
    case trimmedMean(window: Micros, fraction: Double)
    /// AltBeacon's ARMA filter.
    case arma(coefficient: Double)
    /// A time-aware Kalman filter (process noise dB²/s, measurement noise dB²).
    case kalman(processNoise: Double, measurementNoise: Double)

    /// The default: a Kalman filter that follows a walking person within a few seconds and holds a
    /// beacon standing still to about 1 dB. `make eval` compares it with the others.
    public static let standard = RSSIFilterKind.kalman(processNoise: 1, measurementNoise: 25)
    public static let defaultMedianWindow = Micros.seconds(10)
    /// AltBeacon's RunningAverageRssiFilter: 20 s, 10 % trimmed from each side.
    public static let altBeaconAverage = RSSIFilterKind.trimmedMean(window: .seconds(20), fraction: 0.1)
    /// AltBeacon's ArmaRssiFilter default speed.
    public static let altBeaconARMA = RSSIFilterKind.arma(coefficient: 0.1)

    /// The forms `parse` accepts, for help and error texts.
    /// The filters' names, the part of each form before its parameters.
    public static let names = ["mean", "median", "trimmed", "arma", "kalman"]
    public static let forms = "mean, median[:WINDOW], trimmed[:WINDOW[,FRACTION]], arma[:COEFFICIENT], kalman[:Q,R]"

    /// `mean`, `median:10s`, `trimmed:20s,0.1`, `arma:0.1`, `kalman:1,25`; parameters after the colon
    /// are optional. Nil when the text is none of these or a parameter is out of range.
    public static func parse(_ text: String) -> RSSIFilterKind? {
        let parts = text.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
        let name = parts[0]
        let parameters = parts.count > 1 ? parts[1].split(separator: ",", omittingEmptySubsequences: false).map(String.init) : []
        if parts.count > 1, parameters.allSatisfy(\.isEmpty) { return nil }
        func number(_ i: Int, in range: ClosedRange<Double>) -> Double?? {
            guard i < parameters.count else { return .some(nil) }
            guard let value = Double(parameters[i]), value.isFinite, range.contains(value) else { return nil }
            return .some(value)
        }
        func window(_ i: Int, default value: Micros) -> Micros? {
            guard i < parameters.count else { return value }
            guard let micros = DurationText.parse(parameters[i]), micros.value > 0 else { return nil }
            return micros
        }
        switch name {
        case "mean":
            return parameters.isEmpty ? .intervalMean : nil
        case "median":
            guard parameters.count <= 1, let w = window(0, default: defaultMedianWindow) else { return nil }
            return .runningMedian(window: w)
        case "trimmed":
            guard parameters.count <= 2, case .trimmedMean(let dw, let df) = altBeaconAverage,
                  let w = window(0, default: dw), let f = number(1, in: 0...0.49) else { return nil }
            return .trimmedMean(window: w, fraction: f ?? df)
        case "arma":
            guard parameters.count <= 1, case .arma(let dc) = altBeaconARMA,
                  let c = number(0, in: 0.001...1) else { return nil }
            return .arma(coefficient: c ?? dc)
        case "kalman":
            guard parameters.isEmpty || parameters.count == 2, case .kalman(let dq, let dr) = standard,
                  let q = number(0, in: 0.000001...1e6), let r = number(1, in: 0.000001...1e6) else { return nil }
            return .kalman(processNoise: q ?? dq, measurementNoise: r ?? dr)
        default:
            return nil
        }
    }

    /// The text `parse` reads back into this value.
    public var description: String {
        switch self {
        case .intervalMean: "mean"
        case .runningMedian(let w): "median:\(w)"
        case .trimmedMean(let w, let f): "trimmed:\(w),\(Self.compact(f))"
        case .arma(let c): "arma:\(Self.compact(c))"
        case .kalman(let q, let r): "kalman:\(Self.compact(q)),\(Self.compact(r))"
        }
    }

    /// `1` rather than `1.0`, as a user would type it.
    private static func compact(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
    }
}

/// One beacon's filter of the configured kind. A closed set of value types, so the per-packet path
/// works on plain values: no existential boxes, no dynamic dispatch.
public enum ConfiguredRSSIFilter: RSSIFilter, Sendable {
    case mean(IntervalMeanFilter)
    case window(WindowFilter)
    case arma(ARMAFilter)
    case kalman(KalmanFilter)
    /// Held only while a window filter is being mutated, so its storage stays uniquely referenced.
    case detached

    public init(_ kind: RSSIFilterKind) {
        switch kind {
        case .intervalMean: self = .mean(IntervalMeanFilter())
        case .runningMedian(let w): self = .window(WindowFilter(window: w, statistic: .median))
        case .trimmedMean(let w, let f): self = .window(WindowFilter(window: w, statistic: .trimmedMean(fraction: f)))
        case .arma(let c): self = .arma(ARMAFilter(coefficient: c))
        case .kalman(let q, let r): self = .kalman(KalmanFilter(processNoise: q, measurementNoise: r))
        }
    }

    @inline(__always)
    public mutating func add(_ rssi: Double, at time: Timestamp) {
        switch self {
        case .mean(var f): f.add(rssi, at: time); self = .mean(f)
        case .window(var f): self = .detached; f.add(rssi, at: time); self = .window(f)
        case .arma(var f): f.add(rssi, at: time); self = .arma(f)
        case .kalman(var f): f.add(rssi, at: time); self = .kalman(f)
        case .detached: break
        }
    }

    public mutating func value(at now: Timestamp) -> Double? {
        switch self {
        case .mean(var f): return f.value(at: now)
        case .window(var f):
            self = .detached
            defer { self = .window(f) }
            return f.value(at: now)
        case .arma(var f): return f.value(at: now)
        case .kalman(var f): return f.value(at: now)
        case .detached: return nil
        }
    }

    public mutating func endInterval() {
        if case .mean(var f) = self {
            f.endInterval()
            self = .mean(f)
        }
    }
}
