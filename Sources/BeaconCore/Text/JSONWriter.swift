/// Writes compact JSON (no spaces) with keys in the order they are written, in place into memory it owns.
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
/// Inside an object every value is preceded by `key(_:)` (the `field` members do both); inside an array
/// values follow one another. Strings are escaped per RFC 8259; doubles are written with a fixed number of
/// decimals, and non-finite doubles as `null`, so the output is always valid JSON.
///
/// Each member and value first reserves the most bytes it can take, its comma and key included (one
/// comparison; growing is a call out of line), then writes them with no further check. A ranged beacon is a
/// dozen members, and a line can hold thousands of beacons. Not copyable: it owns its memory.
public struct JSONWriter: ~Copyable {
    /// The memory the text is written into; `sink` writes from its start.
    private var storage: UnsafeMutableBufferPointer<UInt8>
    private var sink: ByteSink
    /// True after a value, so the next key or array element is preceded by a comma.
    private var needsComma = false
    /// The text of the latest second a time was written in (see `TimeTextCache`).
    private var times = TimeTextCache()

    public init(capacity: Int = 256) {
        storage = .allocate(capacity: max(capacity, 64))
        sink = ByteSink(storage)
    }

    deinit { storage.deallocate() }

    /// Bytes written so far.
    public var count: Int { sink.count }

    /// Bytes the writer holds room for before it grows.
    public var capacity: Int { storage.count }

    /// The UTF-8 text written so far.
    public var bytes: [UInt8] { Array(storage[..<count]) }

    /// The text written so far.
    public var text: String { String(decoding: storage[..<count], as: UTF8.self) }

    /// Calls `body` with the bytes written so far.
    public func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try body(UnsafeRawBufferPointer(start: storage.baseAddress, count: count))
    }

    // MARK: - Structure

    /// Writes an object whose members `body` writes.
    public mutating func object(_ body: (inout JSONWriter) -> Void) {
        begin(nil, 1)
        sink.put(UInt8(ascii: "{"))
        needsComma = false
        body(&self)
        close(UInt8(ascii: "}"))
    }

    /// Writes an array whose elements `body` writes.
    public mutating func array(_ body: (inout JSONWriter) -> Void) {
        begin(nil, 1)
        sink.put(UInt8(ascii: "["))
        needsComma = false
        body(&self)
        close(UInt8(ascii: "]"))
    }

    /// Writes an object member's key; the next value written is its value. Keys are the schema's names,
    /// written as they are (they need no escapes).
    public mutating func key(_ name: StaticString) {
        begin(name, 0)
        needsComma = false
    }

    /// A key made of text from elsewhere (a name a user gave), escaped like any string.
    public mutating func key(escaping name: String) {
        string(name)
        reserve(1)
        sink.put(UInt8(ascii: ":"))
        needsComma = false
    }

    // MARK: - Values and members
    //
    // Each kind of value is written by one function that takes the member's key, or nil for an array
    // element or a value after `key(_:)`; `field` and the bare value forms call it.

    /// A string, escaped per RFC 8259 (see `ByteSink.putEscaped`).
    public mutating func string(_ value: String) { string(value, key: nil) }

    public mutating func field(_ name: StaticString, _ value: String) { string(value, key: name) }

    private mutating func string(_ value: String, key: StaticString?) {
        begin(key, ByteSink.escapedLength(value))
        sink.putEscaped(value)
    }

    /// An identifier or address, written in place between quotes.
    @inline(__always)
    public mutating func string(_ value: some ASCIIText) { text(value, key: nil) }

    /// An identifier or address, written in place between quotes (a time takes the member below).
    @inline(__always)
    public mutating func field(_ name: StaticString, _ value: some ASCIIText) { text(value, key: name) }

    @inline(__always)
    private mutating func text(_ value: some ASCIIText, key: StaticString?) {
        begin(key, type(of: value).textLength + 2)
        sink.putQuoted(value)
    }

    /// A time (ISO-8601, `Timestamp.iso8601`), between quotes.
    @inline(__always)
    public mutating func field(_ name: StaticString, _ time: Timestamp) {
        begin(name, Timestamp.textLength + 2)
        times.write(time, into: sink.putQuotes(around: Timestamp.textLength))
    }

    /// A name of the schema's own (a proximity, an address type) between quotes: it needs no escapes.
    @inline(__always)
    public mutating func field(_ name: StaticString, name value: StaticString) {
        let length = value.utf8CodeUnitCount
        begin(name, length + 2)
        sink.putQuotes(around: length).baseAddress!.update(from: value.utf8Start, count: length)
    }

    /// An address type's name.
    @inline(__always)
    public mutating func field(_ name: StaticString, _ value: AddressType) {
        if let known = value.knownName { field(name, name: known) } else { field(name, value.name) }
    }

    /// A PHY's name.
    @inline(__always)
    public mutating func field(_ name: StaticString, _ value: PHY) {
        if let known = value.knownName { field(name, name: known) } else { field(name, value.name) }
    }

    public mutating func integer<T: BinaryInteger>(_ value: T) { integer(value, key: nil) }

    @inline(__always)
    public mutating func field<T: BinaryInteger>(_ name: StaticString, _ value: T) { integer(value, key: name) }

    /// An integer, or `null` for nil.
    public mutating func field<T: BinaryInteger>(_ name: StaticString, _ value: T?) {
        guard let value else { return null(name) }
        integer(value, key: name)
    }

    @inline(__always)
    private mutating func integer<T: BinaryInteger>(_ value: T, key: StaticString?) {
        if let small = Int64(exactly: value) {
            begin(key, ByteSink.integerLength)
            sink.putInteger(small)
        } else {
            let text = String(value)
            begin(key, text.utf8.count)
            sink.putUTF8(text)
        }
    }

    /// `value` rounded half away from zero to `decimals` places (see `FixedPoint`); `null` when nil or not
    /// finite. Magnitudes of 10^15 and beyond, where fixed decimals would be meaningless, are written in
    /// Swift's shortest form (e.g. `1e+20`), still valid JSON.
    public mutating func number(_ value: Double?, decimals: Int) { number(value, decimals: decimals, key: nil) }

    @inline(__always)
    public mutating func field(_ name: StaticString, _ value: Double?, decimals: Int) {
        number(value, decimals: decimals, key: name)
    }

    /// Fixed decimals are written inline; the other forms, which ranged beacons rarely need, are a call.
    @inline(__always)
    private mutating func number(_ value: Double?, decimals: Int, key: StaticString?) {
        guard let value, let fixed = FixedPoint(value, decimals: decimals) else { return unfixed(value, key: key) }
        begin(key, FixedPoint.maximumLength)
        fixed.put(into: &sink)
    }

    @inline(never)
    private mutating func unfixed(_ value: Double?, key: StaticString?) {
        guard let value, value.isFinite else { return null(key: key) }
        let text = value.description
        begin(key, text.utf8.count)
        sink.putUTF8(text)
    }

    public mutating func bool(_ value: Bool) { bool(value, key: nil) }

    @inline(__always)
    public mutating func field(_ name: StaticString, _ value: Bool) { bool(value, key: name) }

    @inline(__always)
    private mutating func bool(_ value: Bool, key: StaticString?) {
        begin(key, 5)
        // Two constant texts rather than a choice of one: each is then stored in place, not copied by a call.
        if value { sink.put("true") } else { sink.put("false") }
    }

    public mutating func null() { null(key: nil) }

    public mutating func null(_ name: StaticString) { null(key: name) }

    private mutating func null(key: StaticString?) {
        begin(key, 4)
        sink.put("null")
    }

    /// An object whose members `body` writes.
    public mutating func field(_ name: StaticString, object body: (inout JSONWriter) -> Void) {
        key(name)
        object(body)
    }

    /// An array whose elements `body` writes.
    public mutating func field(_ name: StaticString, array body: (inout JSONWriter) -> Void) {
        key(name)
        array(body)
    }

    // MARK: - Room

    /// Reserves room for a value of at most `valueLength` bytes with what goes before it (a comma, and
    /// `"key":` when `key` is given) and writes that; the value is written next, and a value after it
    /// takes a comma.
    @inline(__always)
    private mutating func begin(_ key: StaticString?, _ valueLength: Int) {
        if let key {
            reserve(ByteSink.keyLength(key) + 1 + valueLength)
            sink.putKey(key, comma: needsComma)
        } else {
            reserve(1 + valueLength)
            if needsComma { sink.put(UInt8(ascii: ",")) }
        }
        needsComma = true
    }

    /// One byte that closes an object or array (no comma before it).
    private mutating func close(_ byte: UInt8) {
        reserve(1)
        sink.put(byte)
        needsComma = true
    }

    /// Makes sure `length` more bytes fit.
    @inline(__always)
    private mutating func reserve(_ length: Int) {
        if sink.remaining < length { grow(toHold: length) }
    }

    /// Moves the text into memory with room for `more` bytes after it, at least twice the size.
    @inline(never)
    private mutating func grow(toHold more: Int) {
        let larger = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: max(2 * storage.count, count + more))
        larger.baseAddress!.initialize(from: storage.baseAddress!, count: count)
        storage.deallocate()
        sink = ByteSink(larger, count: count)
        storage = larger
    }

    /// Fixed-point text of a finite double (see `number(_:decimals:)`).
    static func fixed(_ value: Double, decimals: Int) -> String {
        FixedPoint(value, decimals: decimals)?.text ?? value.description
    }
}

// MARK: - Lines

/// JSON lines in one buffer that is written out and reused: each value ends with a newline.
extension JSONWriter {
    /// Ends the value written with a newline; the next value starts a line of its own.
    public mutating func endLine() {
        reserve(1)
        sink.put(UInt8(ascii: "\n"))
        needsComma = false
    }

    /// Appends `line`, a JSON value encoded elsewhere, and its newline.
    public mutating func appendLine(_ line: String) {
        reserve(line.utf8.count)
        sink.putUTF8(line)
        endLine()
    }

    /// Drops the bytes written so far (they were written out), keeping the buffer's capacity and the
    /// writer's place: a long value goes on in the next piece, and after `endLine` a new line starts.
    public mutating func removeWritten() {
        sink = ByteSink(storage)
    }
}
