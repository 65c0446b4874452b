/// Members of a JSON object, written one after another in place into room that `JSONWriter.members`
/// set aside: each member checks once that it fits and is then written with no further call, growth
/// check or copy. A ranged beacon is a dozen members, and a line can hold thousands of beacons.
///
/// A member that does not fit writes nothing and marks the run `overflowed`; the writer then makes more
/// room and runs it again from its start. So a run only writes members: it has no other effects.
public struct JSONMembers {
    private var sink: ByteSink
    /// True after a member, so the next one is preceded by a comma.
    private(set) var needsComma: Bool
    /// A member did not fit in the room given.
    private(set) var overflowed = false
    /// The writer's text of the latest second it wrote a time in.
    private let times: UnsafeMutablePointer<TimeTextCache>

    init(_ room: UnsafeMutableBufferPointer<UInt8>, needsComma: Bool, times: UnsafeMutablePointer<TimeTextCache>) {
        sink = ByteSink(room)
        self.needsComma = needsComma
        self.times = times
    }

    /// Bytes written.
    var count: Int { sink.count }

    /// Whether a member of at most `length` bytes fits, its comma included; when it does, the comma is
    /// written and `"name":` after it.
    @inline(__always)
    private mutating func begin(_ name: StaticString, valueLength: Int) -> Bool {
        guard !overflowed, ByteSink.keyLength(name) + valueLength < sink.remaining else {
            overflowed = true
            return false
        }
        sink.putKey(name, comma: needsComma)
        needsComma = true
        return true
    }

    /// A string, escaped per RFC 8259 (see `ByteSink.putEscaped`).
    public mutating func field(_ name: StaticString, _ value: String) {
        guard begin(name, valueLength: ByteSink.escapedLength(value)) else { return }
        sink.putEscaped(value)
    }

    /// A name of the schema's own (a proximity, an address type) between quotes: it needs no escapes.
    @inline(__always)
    public mutating func field(_ name: StaticString, name value: StaticString) {
        guard begin(name, valueLength: value.utf8CodeUnitCount + 2) else { return }
        let length = value.utf8CodeUnitCount
        sink.putQuoted(length: length) { UnsafeMutableRawBufferPointer($0).copyMemory(from: UnsafeRawBufferPointer(start: value.utf8Start, count: length)) }
    }

    /// An address type's name.
    @inline(__always)
    public mutating func field(_ name: StaticString, _ value: AddressType) {
        if let known = value.knownName { field(name, name: known) } else { field(name, value.name) }
    }

    /// An identifier or address, between quotes (a time takes the member below).
    @inline(__always)
    public mutating func field(_ name: StaticString, _ value: some ASCIIText) {
        guard begin(name, valueLength: type(of: value).textLength + 2) else { return }
        sink.putQuoted(value)
    }

    /// A time (ISO-8601, `Timestamp.iso8601`), between quotes.
    @inline(__always)
    public mutating func field(_ name: StaticString, _ time: Timestamp) {
        guard begin(name, valueLength: Timestamp.textLength + 2) else { return }
        sink.putQuoted(length: Timestamp.textLength) { times.pointee.write(time, into: $0) }
    }

    @inline(__always)
    public mutating func field<T: BinaryInteger>(_ name: StaticString, _ value: T) {
        if let small = Int64(exactly: value) {
            guard begin(name, valueLength: ByteSink.integerLength) else { return }
            sink.putInteger(small)
        } else {
            let text = String(value)
            guard begin(name, valueLength: text.utf8.count) else { return }
            sink.putUTF8(text)
        }
    }

    /// An integer, or `null` for nil.
    public mutating func field<T: BinaryInteger>(_ name: StaticString, _ value: T?) {
        guard let value else { return null(name) }
        field(name, value)
    }

    public mutating func null(_ name: StaticString) {
        guard begin(name, valueLength: 4) else { return }
        sink.put("null")
    }

    /// `value` as `JSONNumber` writes it; `null` for nil. Fixed decimals are written inline; the other
    /// forms, which ranged beacons rarely need, are a call.
    @inline(__always)
    public mutating func field(_ name: StaticString, _ value: Double?, decimals: Int) {
        guard let value, let fixed = FixedPoint(value, decimals: decimals) else { return number(name, value, decimals: decimals) }
        guard begin(name, valueLength: FixedPoint.maximumLength) else { return }
        fixed.put(into: &sink)
    }

    @inline(never)
    private mutating func number(_ name: StaticString, _ value: Double?, decimals: Int) {
        let number = JSONNumber(value, decimals: decimals)
        guard begin(name, valueLength: number.maximumLength) else { return }
        number.put(into: &sink)
    }

    @inline(__always)
    public mutating func field(_ name: StaticString, _ value: Bool) {
        guard begin(name, valueLength: 5) else { return }
        // Two constant texts rather than a choice of one: each is then stored in place, not copied by a call.
        if value { sink.put("true") } else { sink.put("false") }
    }

    /// An object whose members `body` writes.
    public mutating func field(_ name: StaticString, object body: (inout JSONMembers) -> Void) {
        guard begin(name, valueLength: 1) else { return }
        sink.put(UInt8(ascii: "{"))
        needsComma = false
        body(&self)
        guard !overflowed, sink.remaining > 0 else {
            overflowed = true
            return
        }
        sink.put(UInt8(ascii: "}"))
        needsComma = true
    }
}

/// A double as JSON lines write it: rounded half away from zero to `decimals` places (e.g. `-50.0`,
/// `0.35`), never `-0`; `null` when not finite (or absent). Magnitudes of 10^15 and beyond, where fixed
/// decimals would be meaningless, use Swift's shortest form (e.g. `1e+20`), still valid JSON.
///
/// Holds no text of its own (the rare shortest form is made when written), so making and dropping one
/// per number costs no reference counting.
enum JSONNumber {
    case fixed(FixedPoint)
    case shortest(Double)
    case null

    @inline(__always)
    init(_ value: Double?, decimals: Int) {
        guard let value, value.isFinite else {
            self = .null
            return
        }
        self = FixedPoint(value, decimals: decimals).map(JSONNumber.fixed) ?? .shortest(value)
    }

    /// The most bytes `put(into:)` writes.
    var maximumLength: Int {
        switch self {
        case .fixed: FixedPoint.maximumLength
        case .shortest(let value): value.description.utf8.count
        case .null: 4
        }
    }

    @inline(__always)
    func put(into sink: inout ByteSink) {
        switch self {
        case .fixed(let fixed): fixed.put(into: &sink)
        case .shortest(let value): sink.putUTF8(value.description)
        case .null: sink.put("null")
        }
    }
}

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
