/// Text put byte by byte into memory that its owner set aside, for the encoders that run once per
/// output value (JSON lines of thousands of beacons): each put costs a store and one check that the
/// room is not exceeded, instead of an array's growth and uniqueness checks.
struct ByteSink {
    private let start: UnsafeMutablePointer<UInt8>
    private let end: UnsafeMutablePointer<UInt8>
    /// Where the next byte goes.
    private var cursor: UnsafeMutablePointer<UInt8>

    /// A sink over `room` whose first `count` bytes are already put.
    init(_ room: UnsafeMutableBufferPointer<UInt8>, count: Int = 0) {
        start = room.baseAddress!
        end = start + room.count
        cursor = start + count
    }

    /// Bytes put so far.
    var count: Int { cursor - start }

    /// Room left.
    var remaining: Int { end - cursor }

    /// Room for `length` more bytes, at the current end; the caller fills it. (The pointers' difference
    /// cannot overflow, and `length` is never negative: one comparison is the whole check.)
    @inline(__always)
    private mutating func claim(_ length: Int) -> UnsafeMutablePointer<UInt8> {
        precondition(UInt(bitPattern: length) <= UInt(bitPattern: end - cursor), "ByteSink: room exceeded")
        defer { cursor += length }
        return cursor
    }

    @inline(__always)
    mutating func put(_ byte: UInt8) {
        claim(1).pointee = byte
    }

    @inline(__always)
    mutating func put(_ text: StaticString) {
        let length = text.utf8CodeUnitCount
        claim(length).update(from: text.utf8Start, count: length)
    }

    mutating func put(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let source = bytes.baseAddress else { return }
        claim(bytes.count).update(from: source, count: bytes.count)
    }

    /// `text`'s UTF-8 as it is (the caller knows it needs no escapes).
    mutating func putUTF8(_ text: String) {
        var text = text
        text.withUTF8 { put($0) }
    }

    /// The decimal digits of `value`, as many as it has.
    mutating func putDecimal(_ value: UInt64) {
        putDigits(value, width: Self.decimalDigitCount(value))
    }

    /// How many decimal digits `value` has (1 for 0).
    @inline(__always)
    static func decimalDigitCount(_ value: UInt64) -> Int {
        // Most values written are small (RSSIs, counts, identifiers, a time's fields): compares first,
        // then a division per digit.
        if value < 10 { return 1 }
        if value < 100 { return 2 }
        if value < 1000 { return 3 }
        var digits = 4
        var rest = value / 10_000
        while rest > 0 {
            rest /= 10
            digits &+= 1
        }
        return digits
    }

    /// "00" to "99", each pair of digits at twice its value.
    private static var digitPairs: StaticString {
        "00010203040506070809101112131415161718192021222324252627282930313233343536373839404142434445464748495051525354555657585960616263646566676869707172737475767778798081828384858687888990919293949596979899"
    }

    /// The last `width` decimal digits of `value`, zero-padded: for a value below 10^width (a time's
    /// fields, a number's decimals), all of its digits. Two digits a division, from the right.
    @inline(__always)
    mutating func putDigits(_ value: UInt64, width: Int) {
        let text = claim(width)
        let pairs = Self.digitPairs.utf8Start
        var rest = value
        var i = width
        while i > 1 {
            i &-= 2
            let pair = Int(truncatingIfNeeded: rest % 100) &* 2
            rest /= 100
            text[i] = pairs[pair]
            text[i &+ 1] = pairs[pair &+ 1]
        }
        if i == 1 { text[0] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: rest % 10) }
    }

    /// `value` in decimal with a point `places` digits from its right and at least one digit before the
    /// point (`1234`, 2: `12.34`; `5`, 2: `0.05`); no point for `places` 0. The digits are taken off from
    /// the right by constant divisions, one pass.
    @inline(__always)
    mutating func putFixed(_ value: UInt64, places: Int) {
        let digits = max(Self.decimalDigitCount(value), places + 1)
        let length = places > 0 ? digits + 1 : digits
        let text = claim(length)
        var rest = value
        var i = length - 1
        for _ in 0..<places {
            text[i] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: rest % 10)
            rest /= 10
            i -= 1
        }
        if places > 0 {
            text[i] = UInt8(ascii: ".")
            i -= 1
        }
        while i >= 0 {
            text[i] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: rest % 10)
            rest /= 10
            i -= 1
        }
    }

    /// `text` between double quotes.
    @inline(__always)
    mutating func putQuoted(_ text: some ASCIIText) {
        text.write(into: putQuotes(around: type(of: text).textLength))
    }

    /// Double quotes around room for `length` bytes, which the caller fills in place: one claim of room for all.
    @inline(__always)
    mutating func putQuotes(around length: Int) -> UnsafeMutableBufferPointer<UInt8> {
        let room = claim(length + 2)
        room[0] = UInt8(ascii: "\"")
        room[length + 1] = UInt8(ascii: "\"")
        return UnsafeMutableBufferPointer(start: room + 1, count: length)
    }

    /// `value` in decimal, with a minus sign when negative.
    @inline(__always)
    mutating func putInteger(_ value: Int64) {
        if value < 0 { put(UInt8(ascii: "-")) }
        putDecimal(value.magnitude)
    }

    /// `"name":`, a JSON object member's key (schema names need no escapes), after a comma when `comma`:
    /// one claim of room for all of it, as every member starts with one.
    @inline(__always)
    mutating func putKey(_ name: StaticString, comma: Bool = false) {
        let length = name.utf8CodeUnitCount
        let lead = comma ? 2 : 1
        let text = claim(lead + length + 2)
        text[0] = comma ? UInt8(ascii: ",") : UInt8(ascii: "\"")
        text[lead - 1] = UInt8(ascii: "\"")
        (text + lead).update(from: name.utf8Start, count: length)
        text[lead + length] = UInt8(ascii: "\"")
        text[lead + length + 1] = UInt8(ascii: ":")
    }

    /// `text` between double quotes, escaped per RFC 8259 section 7: quote, reverse solidus and
    /// U+0000–U+001F are escaped; the rest is copied as UTF-8.
    mutating func putEscaped(_ text: String) {
        put(UInt8(ascii: "\""))
        // Names, proximities and address types need no escapes: copied in one go from the string's
        // contiguous UTF-8 (native and small strings always have it), not byte by byte through its view.
        let copied: Bool? = text.utf8.withContiguousStorageIfAvailable { utf8 in
            guard !utf8.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) else { return false }
            put(utf8)
            return true
        }
        if copied != true {
            for c in text.utf8 {
                switch c {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"):
                    put(UInt8(ascii: "\\"))
                    put(c)
                case 0x08: put("\\b")
                case 0x0C: put("\\f")
                case 0x0A: put("\\n")
                case 0x0D: put("\\r")
                case 0x09: put("\\t")
                case 0x00..<0x20:
                    put("\\u00")
                    put(Hex.lowerDigit(c >> 4))
                    put(Hex.lowerDigit(c & 0x0F))
                default: put(c)
                }
            }
        }
        put(UInt8(ascii: "\""))
    }

    /// The most room `putEscaped` takes for `text`: an escape is at most six bytes (`\u001F`) for one.
    static func escapedLength(_ text: String) -> Int { text.utf8.count * 6 + 2 }

    /// The room `putKey` takes for `name`.
    static func keyLength(_ name: StaticString) -> Int { name.utf8CodeUnitCount + 3 }

    /// Longest text of `putInteger`: a sign and 19 digits.
    static let integerLength = 20
}
