#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Evidence about one quantity per key (a gateway's offset, a slab's loss), gathered window by window
/// from the beacons' readings: precision-weighted sums forgotten with a half-life, so what changes (a
/// gateway re-mounted, a door) is followed, and each window's added at most `windowCap` of precision, so
/// a window of many beacons counts as one reading and a crowd cannot swamp the prior.
struct ForgottenEvidence<Key: Hashable & Sendable>: Equatable, Sendable {
    /// Evidence halves in this many seconds.
    let halfLife: Double
    /// The most one window adds to a key's precision.
    let windowCap: Double
    /// Per key, the forgotten sums of precision-weighted values and of precisions.
    private(set) var weighted: [Key: Double] = [:]
    private(set) var precision: [Key: Double] = [:]
    /// This window's sums, capped when it closes.
    private var windowWeighted: [Key: Double] = [:]
    private var windowPrecision: [Key: Double] = [:]
    private var time: Timestamp?

    init(halfLife: Double, windowCap: Double) {
        self.halfLife = halfLife
        self.windowCap = windowCap
    }

    /// One value for `key` with its variance, in the window now open (the caller checks both are usable).
    mutating func add(_ key: Key, value: Double, variance: Double) {
        windowWeighted[key, default: 0] += value / variance
        windowPrecision[key, default: 0] += 1 / variance
    }

    /// Forgets everything about `key`.
    mutating func drop(_ key: Key) {
        weighted[key] = nil
        precision[key] = nil
        windowWeighted[key] = nil
        windowPrecision[key] = nil
    }

    /// Closes the window ending at `time`: the evidence so far is forgotten by the time since the last
    /// window, and this window's added, each key's at most `windowCap`.
    mutating func close(at time: Timestamp) {
        if let last = self.time, time > last {
            let seconds = (Double(time.microseconds) - Double(last.microseconds)) / 1e6
            let keep = exp(-log(2.0) * seconds / halfLife)
            for key in weighted.keys {
                weighted[key]! *= keep
                precision[key]! *= keep
            }
        }
        if self.time.map({ time > $0 }) ?? true { self.time = time }
        for (key, added) in windowPrecision where added > 0 {
            let scale = min(1, windowCap / added)
            weighted[key, default: 0] += scale * windowWeighted[key, default: 0]
            precision[key, default: 0] += scale * added
        }
        windowWeighted = [:]
        windowPrecision = [:]
    }
}
