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
    /// The UTF-8 text written so far.
    public private(set) var bytes: [UInt8] = []
    /// True after a value, so the next key or array element is preceded by a comma.
    private var needsComma = false

    public init(capacity: Int = 256) {
        bytes.reserveCapacity(capacity)
    }

    /// The text written so far.
    public var text: String { String(decoding: bytes, as: UTF8.self) }

    // MARK: - Structure

    /// Writes an object whose members `body` writes.
    public mutating func object(_ body: (inout JSONWriter) -> Void) {
        beginValue()
        bytes.append(UInt8(ascii: "{"))
        needsComma = false
        body(&self)
        bytes.append(UInt8(ascii: "}"))
        needsComma = true
    }

    /// Writes an array whose elements `body` writes.
    public mutating func array(_ body: (inout JSONWriter) -> Void) {
        beginValue()
        bytes.append(UInt8(ascii: "["))
        needsComma = false
        body(&self)
        bytes.append(UInt8(ascii: "]"))
        needsComma = true
    }

    /// Writes an object member's key; the next value written is its value. Keys are the schema's names,
    /// written as they are (they need no escapes).
    public mutating func key(_ name: StaticString) {
        beginValue()
        bytes.append(UInt8(ascii: "\""))
        name.withUTF8Buffer { bytes.append(contentsOf: $0) }
        bytes.append(UInt8(ascii: "\""))
        bytes.append(UInt8(ascii: ":"))
        needsComma = false
    }

    /// A key made of text from elsewhere (a name a user gave), escaped like any string.
    public mutating func key(escaping name: String) {
        beginValue()
        appendQuoted(name)
        bytes.append(UInt8(ascii: ":"))
        needsComma = false
    }

    // MARK: - Values

    public mutating func string(_ value: String) {
        beginValue()
        appendQuoted(value)
        needsComma = true
    }

    /// An identifier or address, written in place between quotes.
    public mutating func string(_ value: some ASCIIText) {
        beginValue()
        bytes.append(UInt8(ascii: "\""))
        let start = bytes.count
        let length = type(of: value).textLength
        bytes.append(contentsOf: repeatElement(UInt8(ascii: " "), count: length))
        bytes.withUnsafeMutableBufferPointer { all in
            value.write(into: UnsafeMutableBufferPointer(rebasing: all[start..<start + length]))
        }
        bytes.append(UInt8(ascii: "\""))
        needsComma = true
    }

    public mutating func integer<T: BinaryInteger>(_ value: T) {
        beginValue()
        if let small = Int64(exactly: value) {
            if small < 0 { bytes.append(UInt8(ascii: "-")) }
            appendDigits(small.magnitude, width: 1)
        } else {
            bytes.append(contentsOf: String(value).utf8)
        }
        needsComma = true
    }

    /// Writes `value` rounded half away from zero to `decimals` places (e.g. `-50.0`, `0.35`),
    /// never `-0`. Non-finite values are written as `null`. Magnitudes of 10^15 and beyond, where
    /// fixed decimals would be meaningless, use Swift's shortest form (e.g. `1e+20`), still valid JSON.
    public mutating func number(_ value: Double, decimals: Int) {
        guard value.isFinite else { return null() }
        beginValue()
        let places = max(0, min(decimals, 9))
        var scale: UInt64 = 1
        for _ in 0..<places { scale *= 10 }
        let scaled = (value * Double(scale)).rounded(.toNearestOrAwayFromZero)
        if abs(value) < 1e15, abs(scaled) < 9e18 {
            // The common case, written in place: every ranged beacon has several of these.
            let units = Int64(scaled)
            if units < 0 { bytes.append(UInt8(ascii: "-")) }
            appendDigits(units.magnitude / scale, width: 1)
            if places > 0 {
                bytes.append(UInt8(ascii: "."))
                appendDigits(units.magnitude % scale, width: places)
            }
        } else {
            bytes.append(contentsOf: Self.fixed(value, decimals: decimals).utf8)
        }
        needsComma = true
    }

    /// The decimal digits of `value`, zero-padded to `width`.
    private mutating func appendDigits(_ value: UInt64, width: Int) {
        var scale: UInt64 = 1
        var count = 1
        while value / scale >= 10 {
            scale *= 10
            count += 1
        }
        for _ in count..<max(width, count) { bytes.append(UInt8(ascii: "0")) }
        var rest = value
        while scale > 0 {
            bytes.append(UInt8(ascii: "0") + UInt8(rest / scale))
            rest %= scale
            scale /= 10
        }
    }

    public mutating func bool(_ value: Bool) {
        beginValue()
        bytes.append(contentsOf: (value ? "true" : "false").utf8)
        needsComma = true
    }

    public mutating func null() {
        beginValue()
        bytes.append(contentsOf: "null".utf8)
        needsComma = true
    }

    // MARK: - Object members

    public mutating func field(_ name: StaticString, _ value: String) {
        key(name)
        string(value)
    }

    public mutating func field(_ name: StaticString, _ value: some ASCIIText) {
        key(name)
        string(value)
    }

    /// A time as its ISO-8601 string (`Timestamp.iso8601`), written in place.
    public mutating func field(_ name: StaticString, _ time: Timestamp) {
        key(name)
        beginValue()
        bytes.append(UInt8(ascii: "\""))
        time.appendISO8601(to: &bytes)
        bytes.append(UInt8(ascii: "\""))
        needsComma = true
    }

    public mutating func field<T: BinaryInteger>(_ name: StaticString, _ value: T) {
        key(name)
        integer(value)
    }

    public mutating func field(_ name: StaticString, _ value: Double, decimals: Int) {
        key(name)
        number(value, decimals: decimals)
    }

    public mutating func field(_ name: StaticString, _ value: Bool) {
        key(name)
        bool(value)
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

    private mutating func beginValue() {
        if needsComma { bytes.append(UInt8(ascii: ",")) }
    }

    private static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)

    /// RFC 8259 section 7: quote, reverse solidus and U+0000–U+001F are escaped; the rest is
    /// copied as UTF-8.
    private mutating func appendQuoted(_ s: String) {
        bytes.append(UInt8(ascii: "\""))
        // Keys, UUIDs and addresses need no escapes: scanned and copied in one go over the string's
        // contiguous UTF-8 (native and small strings always have it), not byte by byte through its view.
        let copied: Bool? = s.utf8.withContiguousStorageIfAvailable { text in
            guard !text.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) else { return false }
            bytes.append(contentsOf: text)
            return true
        }
        if copied == true {
            bytes.append(UInt8(ascii: "\""))
            return
        }
        for c in s.utf8 {
            switch c {
            case UInt8(ascii: "\""): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
            case UInt8(ascii: "\\"): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
            case 0x08: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "b")])
            case 0x0C: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "f")])
            case 0x0A: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
            case 0x0D: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
            case 0x09: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
            case 0x00..<0x20:
                bytes.append(contentsOf: Array("\\u00".utf8))
                bytes.append(Self.hexDigits[Int(c >> 4)])
                bytes.append(Self.hexDigits[Int(c & 0x0F)])
            default: bytes.append(c)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    /// Fixed-point text of a finite double (see `number(_:decimals:)`).
    static func fixed(_ value: Double, decimals: Int) -> String {
        let places = max(0, min(decimals, 9))
        var scale: Int64 = 1
        for _ in 0..<places { scale *= 10 }
        let scaled = (value * Double(scale)).rounded(.toNearestOrAwayFromZero)
        guard abs(value) < 1e15, abs(scaled) < 9e18 else { return value.description }
        let units = Int64(scaled)
        var text = units < 0 ? "-" : ""
        let magnitude = units.magnitude
        text += String(magnitude / UInt64(scale))
        if places > 0 {
            let fraction = String(magnitude % UInt64(scale))
            text += "." + String(repeating: "0", count: places - fraction.count) + fraction
        }
        return text
    }
}

// MARK: - Lines

/// JSON lines in one buffer that is written out and reused: each value ends with a newline.
extension JSONWriter {
    /// Ends the value written with a newline; the next value starts a line of its own.
    public mutating func endLine() {
        bytes.append(UInt8(ascii: "\n"))
        needsComma = false
    }

    /// Appends `line`, a JSON value encoded elsewhere, and its newline.
    public mutating func appendLine(_ line: String) {
        bytes.append(contentsOf: line.utf8)
        endLine()
    }

    /// Drops the bytes written so far (they were written out), keeping the buffer's capacity and the
    /// writer's place: a long value goes on in the next piece, and after `endLine` a new line starts.
    public mutating func removeWritten() {
        bytes.removeAll(keepingCapacity: true)
    }
}
