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
    /// The text of the latest second a member's time was written in (see `TimeTextCache`).
    private var times = TimeTextCache()

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
        put(upTo: ByteSink.escapedLength(name) + 1) { sink in
            sink.putEscaped(name)
            sink.put(UInt8(ascii: ":"))
        }
        needsComma = false
    }

    // MARK: - Values

    public mutating func string(_ value: String) {
        put(upTo: ByteSink.escapedLength(value)) { $0.putEscaped(value) }
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

    /// Writes `value` as `JSONNumber` does: fixed decimals, never `-0`, `null` when not finite.
    public mutating func number(_ value: Double, decimals: Int) {
        let number = JSONNumber(value, decimals: decimals)
        put(upTo: number.maximumLength) { number.put(into: &$0) }
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

    /// Writes members of the object being written, in place, through `JSONMembers`. `body` may run
    /// more than once (when the room set aside proves too small), so it must only write members.
    public mutating func members(_ body: (inout JSONMembers) -> Void) {
        var room = Self.memberRoom
        while true {
            if storage.count - count < room { grow(toHold: room) }
            let (start, comma) = (count, needsComma)
            let (written, commaAfter, overflowed) = withUnsafeMutablePointer(to: &times) { times in
                storage.withUnsafeMutableBufferPointer { all in
                    var members = JSONMembers(UnsafeMutableBufferPointer(rebasing: all[start...]), needsComma: comma,
                                              times: times)
                    body(&members)
                    return (members.count, members.needsComma, members.overflowed)
                }
            }
            if !overflowed {
                count += written
                needsComma = commaAfter
                return
            }
            room = 2 * (storage.count - count)
        }
    }

    /// Room set aside for a run of members before its first try: a ranged beacon's dozen fit.
    private static let memberRoom = 1024

    public mutating func field(_ name: StaticString, _ value: String) {
        members { $0.field(name, value) }
    }

    /// An identifier, address or time (ISO-8601, `Timestamp.iso8601`), written in place.
    public mutating func field(_ name: StaticString, _ value: some ASCIIText) {
        members { $0.field(name, value) }
    }

    public mutating func field<T: BinaryInteger>(_ name: StaticString, _ value: T) {
        members { $0.field(name, value) }
    }

    public mutating func field(_ name: StaticString, _ value: Double, decimals: Int) {
        members { $0.field(name, value, decimals: decimals) }
    }

    public mutating func field(_ name: StaticString, _ value: Bool) {
        members { $0.field(name, value) }
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
