/// A finite double rounded half away from zero to a fixed number of decimals, when its digits fit 64
/// bits (magnitudes below 10^15): the form JSON numbers are written in, in place.
struct FixedPoint {
    let isNegative: Bool
    /// The value times 10^`places`, rounded.
    let units: UInt64
    let places: Int

    /// A sign, 19 digits and a point.
    static let maximumLength = 21

    @inline(__always)
    init?(_ value: Double, decimals: Int) {
        guard value.isFinite, abs(value) < 1e15 else { return nil }
        places = max(0, min(decimals, 9))
        var scale: UInt64 = 1
        for _ in 0..<places { scale &*= 10 }
        let scaled = value * Double(scale)
        guard abs(scaled) < 9e18 else { return nil }
        // Rounded half away from zero without a call to libm's round: the conversion truncates, and
        // what it cut off is exact (a double's digits below the point).
        let whole = Int64(scaled)
        let cut = scaled - Double(whole)
        let units = cut >= 0.5 ? whole + 1 : cut <= -0.5 ? whole - 1 : whole
        // Never -0: a value that rounds to zero has no sign.
        (isNegative, self.units) = (units < 0, units.magnitude)
    }

    @inline(__always)
    func put(into sink: inout ByteSink) {
        if isNegative { sink.put(UInt8(ascii: "-")) }
        sink.putFixed(units, places: places)
    }

    /// The text `put(into:)` writes.
    var text: String {
        String(unsafeUninitializedCapacity: Self.maximumLength) { room in
            var sink = ByteSink(room)
            put(into: &sink)
            return sink.count
        }
    }
}
