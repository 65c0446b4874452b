/// A finite double rounded half away from zero to a fixed number of decimals, when its digits fit 64
/// bits (magnitudes below 10^15): the form JSON numbers are written in, in place.
struct FixedPoint {
    let isNegative: Bool
    /// The digits before the point and the `places` digits after it, of the value rounded.
    let whole: UInt64
    let fraction: UInt64
    let places: Int

    /// A sign, 19 digits and a point.
    static let maximumLength = 21

    @inline(__always)
    init?(_ value: Double, decimals: Int) {
        guard value.isFinite, abs(value) < 1e15 else { return nil }
        places = max(0, min(decimals, 9))
        let scaled = value * Self.scale(places)
        guard abs(scaled) < 9e18 else { return nil }
        // Rounded half away from zero without a call to libm's round: the conversion truncates, and
        // what it cut off is exact (a double's digits below the point).
        let truncated = Int64(scaled)
        let cut = scaled - Double(truncated)
        let units = cut >= 0.5 ? truncated &+ 1 : cut <= -0.5 ? truncated &- 1 : truncated
        // Never -0: a value that rounds to zero has no sign.
        isNegative = units < 0
        let divisor = Self.divisor(places)
        whole = units.magnitude / divisor
        fraction = units.magnitude &- whole &* divisor
    }

    /// 10^`places` (0 to 9) as a double and as an integer: switches the compiler turns into tables, not loops.
    @inline(__always)
    private static func scale(_ places: Int) -> Double {
        switch places {
        case 0: 1
        case 1: 10
        case 2: 100
        case 3: 1e3
        case 4: 1e4
        case 5: 1e5
        case 6: 1e6
        case 7: 1e7
        case 8: 1e8
        default: 1e9
        }
    }

    @inline(__always)
    private static func divisor(_ places: Int) -> UInt64 {
        switch places {
        case 0: 1
        case 1: 10
        case 2: 100
        case 3: 1_000
        case 4: 10_000
        case 5: 100_000
        case 6: 1_000_000
        case 7: 10_000_000
        case 8: 100_000_000
        default: 1_000_000_000
        }
    }

    /// The number's text.
    var text: String {
        String(unsafeUninitializedCapacity: Self.maximumLength) { room in
            var sink = ByteSink(room)
            sink.putFixed(negative: isNegative, whole: whole, fraction: fraction, places: places)
            return sink.count
        }
    }
}
