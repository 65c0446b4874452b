/// Writes one compact JSON value (no spaces, no newline) with keys in the order they are written.
///
/// ```
/// var w = JSONWriter()
/// w.object { o in
///     o.field("event", "enter")
///     o.field("region", object: { r in r.field("uuid", "E2C5…") })
/// }
/// w.text  // {"event":"enter","region":{"uuid":"E2C5…"}}
/// ```
///
/// Inside an object every value is preceded by `key(_:)` (the `field` helpers do both); inside an
/// array values follow one another. Strings are escaped per RFC 8259; doubles are written with a
/// fixed number of decimals, and non-finite doubles as `null`, so the output is always valid JSON.
public struct JSONWriter: Sendable {
    /// The text is written into the first `count` bytes; the rest is room set aside for what comes next,
    /// so that a value is written in place with one check for room, not appended byte by byte.
    private var storage: [UInt8]
    /// Bytes written so far.
    public private(set) var count = 0
    /// True after a value, so the next key or array element is preceded by a comma.
    private var needsComma = false

    public init(capacity: Int = 256) {
        storage = [UInt8](repeating: 0, count: max(capacity, 64))
    }

    /// The UTF-8 text written so far.
    public var bytes: [UInt8] { Array(storage[..<count]) }

    /// The text written so far.
    public var text: String { String(decoding: storage[..<count], as: UTF8.self) }

    /// Bytes the writer holds room for before it grows.
    public var capacity: Int { storage.count }

    /// Calls `body` with the bytes written so far.
    public func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try storage.withUnsafeBytes { try body(UnsafeRawBufferPointer(rebasing: $0[..<count])) }
    }

    // MARK: - Structure

    /// Writes an object whose members `body` writes.
    public mutating func object(_ body: (inout JSONWriter) -> Void) {
        put(upTo: 1) { $0.put(UInt8(ascii: "{")) }
        needsComma = false
        body(&self)
        append(UInt8(ascii: "}"))
        needsComma = true
    }

    /// Writes an array whose elements `body` writes.
    public mutating func array(_ body: (inout JSONWriter) -> Void) {
        put(upTo: 1) { $0.put(UInt8(ascii: "[")) }
        needsComma = false
        body(&self)
        append(UInt8(ascii: "]"))
        needsComma = true
    }

    /// Writes an object member's key; the next value written is its value. Keys are the schema's names,
    /// written as they are (they need no escapes).
    public mutating func key(_ name: StaticString) {
        put(upTo: ByteSink.keyLength(name)) { $0.putKey(name) }
        needsComma = false
    }

    /// A key made of text from elsewhere (a name a user gave), escaped like any string.
    public mutating func key(escaping name: String) {
        appendQuoted(name)
        append(UInt8(ascii: ":"))
        needsComma = false
    }

    // MARK: - Values

    public mutating func string(_ value: String) {
        appendQuoted(value)
        needsComma = true
    }

    /// An identifier, address or time, written in place between quotes.
    public mutating func string(_ value: some ASCIIText) {
        put(upTo: type(of: value).textLength + 2) { $0.putQuoted(value) }
        needsComma = true
    }

    public mutating func integer<T: BinaryInteger>(_ value: T) {
        if let small = Int64(exactly: value) {
            put(upTo: ByteSink.integerLength) { $0.putInteger(small) }
        } else {
            let text = String(value)
            put(upTo: text.utf8.count) { $0.putUTF8(text) }
        }
        needsComma = true
    }

    /// Writes `value` rounded half away from zero to `decimals` places (e.g. `-50.0`, `0.35`),
    /// never `-0`. Non-finite values are written as `null`. Magnitudes of 10^15 and beyond, where
    /// fixed decimals would be meaningless, use Swift's shortest form (e.g. `1e+20`), still valid JSON.
    public mutating func number(_ value: Double, decimals: Int) {
        guard value.isFinite else { return null() }
        if let fixed = FixedPoint(value, decimals: decimals) {
            // The common case, written in place: every ranged beacon has several of these.
            put(upTo: FixedPoint.maximumLength) { fixed.put(into: &$0) }
        } else {
            let text = Self.fixed(value, decimals: decimals)
            put(upTo: text.utf8.count) { $0.putUTF8(text) }
        }
        needsComma = true
    }

    public mutating func bool(_ value: Bool) {
        put(upTo: 5) { $0.put(value ? "true" : "false") }
        needsComma = true
    }

    public mutating func null() {
        put(upTo: 4) { $0.put("null") }
        needsComma = true
    }

    // MARK: - Object members

    public mutating func field(_ name: StaticString, _ value: String) {
        key(name)
        string(value)
    }

    // The members below write key and value in one piece: a ranged beacon is a dozen of them.

    /// An identifier, address or time (ISO-8601, `Timestamp.iso8601`), written in place.
    public mutating func field(_ name: StaticString, _ value: some ASCIIText) {
        put(upTo: ByteSink.keyLength(name) + type(of: value).textLength + 2) { s in
            s.putKey(name)
            s.putQuoted(value)
        }
        needsComma = true
    }

    public mutating func field<T: BinaryInteger>(_ name: StaticString, _ value: T) {
        guard let small = Int64(exactly: value) else {
            key(name)
            return integer(value)
        }
        put(upTo: ByteSink.keyLength(name) + ByteSink.integerLength) { s in
            s.putKey(name)
            s.putInteger(small)
        }
        needsComma = true
    }

    public mutating func field(_ name: StaticString, _ value: Double, decimals: Int) {
        guard let fixed = FixedPoint(value, decimals: decimals) else {
            key(name)
            return number(value, decimals: decimals)
        }
        put(upTo: ByteSink.keyLength(name) + FixedPoint.maximumLength) { s in
            s.putKey(name)
            fixed.put(into: &s)
        }
        needsComma = true
    }

    public mutating func field(_ name: StaticString, _ value: Bool) {
        put(upTo: ByteSink.keyLength(name) + 5) { s in
            s.putKey(name)
            s.put(value ? "true" : "false")
        }
        needsComma = true
    }

    public mutating func field(_ name: StaticString, object body: (inout JSONWriter) -> Void) {
        key(name)
        object(body)
    }

    public mutating func field(_ name: StaticString, array body: (inout JSONWriter) -> Void) {
        key(name)
        array(body)
    }

    // MARK: - Text

    /// Appends what `body` puts (at most `maximum` bytes) in place, after the comma a value before it needs.
    @inline(__always)
    private mutating func put(upTo maximum: Int, _ body: (inout ByteSink) -> Void) {
        if storage.count - count <= maximum { grow(toHold: maximum + 1) }
        let (start, comma) = (count, needsComma)
        count += storage.withUnsafeMutableBufferPointer { all in
            var sink = ByteSink(UnsafeMutableBufferPointer(rebasing: all[start...]))
            if comma { sink.put(UInt8(ascii: ",")) }
            body(&sink)
            return sink.count
        }
    }

    /// One byte that closes a value (no comma before it).
    private mutating func append(_ byte: UInt8) {
        if count == storage.count { grow(toHold: 1) }
        storage[count] = byte
        count += 1
    }

    /// Makes room for `more` bytes after those written, at least doubling it.
    private mutating func grow(toHold more: Int) {
        storage.append(contentsOf: repeatElement(0, count: max(storage.count, count + more - storage.count)))
    }

    /// RFC 8259 section 7: quote, reverse solidus and U+0000–U+001F are escaped; the rest is
    /// copied as UTF-8. Preceded by a comma when a value came before.
    private mutating func appendQuoted(_ s: String) {
        // Names, proximities and address types need no escapes: copied in one go from the string's
        // contiguous UTF-8 (native and small strings always have it), not byte by byte through its view.
        let copied: Bool? = s.utf8.withContiguousStorageIfAvailable { text in
            guard !text.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) else { return false }
            put(upTo: text.count + 2) { sink in
                sink.put(UInt8(ascii: "\""))
                sink.put(text)
                sink.put(UInt8(ascii: "\""))
            }
            return true
        }
        if copied == true { return }
        // An escape is at most six bytes (`\u001F`) for one.
        put(upTo: s.utf8.count * 6 + 2) { sink in
            sink.put(UInt8(ascii: "\""))
            for c in s.utf8 {
                switch c {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"):
                    sink.put(UInt8(ascii: "\\"))
                    sink.put(c)
                case 0x08: sink.put("\\b")
                case 0x0C: sink.put("\\f")
                case 0x0A: sink.put("\\n")
                case 0x0D: sink.put("\\r")
                case 0x09: sink.put("\\t")
                case 0x00..<0x20:
                    sink.put("\\u00")
                    sink.put(Hex.lowerDigit(c >> 4))
                    sink.put(Hex.lowerDigit(c & 0x0F))
                default: sink.put(c)
                }
            }
            sink.put(UInt8(ascii: "\""))
        }
    }

    /// A finite double rounded half away from zero to a fixed number of decimals, when its digits fit
    /// 64 bits (magnitudes below 10^15): the form `number(_:decimals:)` writes in place.
    private struct FixedPoint {
        let isNegative: Bool
        let units: UInt64
        let scale: UInt64
        let places: Int

        /// A sign, 19 digits and a point.
        static let maximumLength = 21

        init?(_ value: Double, decimals: Int) {
            guard value.isFinite, abs(value) < 1e15 else { return nil }
            places = max(0, min(decimals, 9))
            var scale: UInt64 = 1
            for _ in 0..<places { scale *= 10 }
            let scaled = (value * Double(scale)).rounded(.toNearestOrAwayFromZero)
            guard abs(scaled) < 9e18 else { return nil }
            let units = Int64(scaled)
            // Never -0: a value that rounds to zero has no sign.
            (isNegative, self.units, self.scale) = (units < 0, units.magnitude, scale)
        }

        @inline(__always)
        func put(into sink: inout ByteSink) {
            if isNegative { sink.put(UInt8(ascii: "-")) }
            sink.putDecimal(units / scale)
            guard places > 0 else { return }
            sink.put(UInt8(ascii: "."))
            sink.putDigits(units % scale, width: places)
        }
    }

    /// Fixed-point text of a finite double (see `number(_:decimals:)`).
    static func fixed(_ value: Double, decimals: Int) -> String {
        guard let fixed = FixedPoint(value, decimals: decimals) else { return value.description }
        return String(unsafeUninitializedCapacity: FixedPoint.maximumLength) { room in
            var sink = ByteSink(room)
            fixed.put(into: &sink)
            return sink.count
        }
    }
}

// MARK: - Lines

/// JSON lines in one buffer that is written out and reused: each value ends with a newline.
extension JSONWriter {
    /// Ends the value written with a newline; the next value starts a line of its own.
    public mutating func endLine() {
        append(UInt8(ascii: "\n"))
        needsComma = false
    }

    /// Appends `line`, a JSON value encoded elsewhere, and its newline.
    public mutating func appendLine(_ line: String) {
        needsComma = false
        put(upTo: line.utf8.count) { $0.putUTF8(line) }
        endLine()
    }

    /// Drops the bytes written so far (they were written out), keeping the buffer's capacity and the
    /// writer's place: a long value goes on in the next piece, and after `endLine` a new line starts.
    public mutating func removeWritten() {
        count = 0
    }
}
