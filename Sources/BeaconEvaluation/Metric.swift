import BeaconCore

/// One column of the evaluation tables: what is measured, how it is printed, which way is better.
public enum Metric: String, CaseIterable, Hashable, Sendable {
    /// Median of |estimated − true distance| over the ranging ticks at which the beacon was heard (m).
    case medianError = "med err m"
    /// 90th percentile of the same (m).
    case p90Error = "p90 err m"
    /// Share of those ticks whose proximity is the class of the true distance (%).
    case proximityAccuracy = "prox ok %"
    /// Median time from the truth's region arrival to the enter line (s).
    case enterLatency = "enter s"
    /// Median time from the truth's region departure to the exit line (s).
    case exitLatency = "exit s"
    /// Exit lines while the truth is inside, per hour, at 0 %, 30 % and 50 % packet loss.
    case falseExits0 = "FE/h 0%"
    case falseExits30 = "FE/h 30%"
    case falseExits50 = "FE/h 50%"
    /// Proximity changes (unknown left out) per hour of a beacon standing still.
    case flips = "flips/h"
    /// Median time from the end of a walk until the estimate is within 1 m of the truth and stays there (s).
    case lag = "lag s"
    /// Share of the time the estimated room is the true one (%).
    case roomAccuracy = "room ok %"
    /// Share of the time the estimate names a room that is not the true one (%); no room is not wrong.
    case wrongRoom = "wrong room %"
    /// Median, 90th and 95th percentile of the estimated position's distance from the truth, at each second (m).
    case positionMedian = "pos med m"
    case positionP90 = "pos p90 m"
    case positionP95 = "pos p95 m"
    /// Changes of the estimated room while the truth stands still, per hour of standing still.
    case roomFlaps = "flaps/h"
    /// Median and 90th percentile of the time from the truth entering a room to the estimate naming it (s).
    case roomArrival = "to room s"
    case roomArrivalP90 = "to room p90 s"
    /// The mean probability the rule gives the room it names, over its estimates (beacon locate's `confidence`).
    case confidence = "confidence"
    /// `away` lines while some gateway could hear the beacon.
    case falseAways = "false away"

    public var higherIsBetter: Bool { self == .proximityAccuracy || self == .roomAccuracy }

    /// A column that describes a rule rather than ranks it (a confidence is not better for being higher).
    public var isRanked: Bool { self != .confidence }

    public var decimals: Int {
        switch self {
        case .medianError, .p90Error, .positionMedian, .positionP90, .positionP95, .confidence: 2
        default: 1
        }
    }

    /// The packet loss each false-exit column runs at.
    public static let falseExitColumns: [(loss: Double, metric: Metric)] =
        [(0, .falseExits0), (0.3, .falseExits30), (0.5, .falseExits50)]

    /// The value as printed: fixed decimals, `never` for an event that did not happen (infinity).
    public func format(_ value: Double) -> String {
        guard value.isFinite else { return value.isNaN ? "-" : "never" }
        return Fixed.text(value, decimals: decimals)
    }

    /// Whether `value` beats `reference` as printed (values equal when printed are ties).
    public func isBetter(_ value: Double, than reference: Double) -> Bool {
        let a = rounded(value), b = rounded(reference)
        return higherIsBetter ? a > b : a < b
    }

    private func rounded(_ value: Double) -> Double {
        guard value.isFinite else { return value }
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        return (value * scale).rounded(.toNearestOrAwayFromZero)
    }
}

/// The metrics one model scored on one dataset; a metric that does not apply is absent.
public typealias Scores = [Metric: Double]

/// Fixed-point text through the core's JSON number writer (rounded half away from zero, never `-0`).
enum Fixed {
    static func text(_ value: Double, decimals: Int) -> String {
        var writer = JSONWriter()
        writer.number(value, decimals: decimals)
        return writer.text
    }
}
