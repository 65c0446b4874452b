/// Why a byte sequence could not be decoded: where, what was needed and what was there.
public struct DecodeError: Error, Equatable, CustomStringConvertible {
    /// Offset in the input at which decoding failed.
    public let offset: Int
    /// What the decoder was reading (for example "LE Advertising Report data").
    public let field: String
    /// Bytes needed at `offset`.
    public let needed: Int
    /// Bytes that were available at `offset`.
    public let available: Int
    /// Extra explanation when the failure is not about length (for example an invalid value).
    public let reason: String?

    public init(offset: Int, field: String, needed: Int, available: Int, reason: String? = nil) {
        self.offset = offset
        self.field = field
        self.needed = needed
        self.available = available
        self.reason = reason
    }

    public var description: String {
        if let reason {
            return "\(field) at offset \(offset): \(reason)"
        }
        return "\(field) at offset \(offset): needed \(needed.counted("byte")), \(available) available"
    }
}

/// A bounds-checked little-endian cursor over bytes read in place. Every read either returns a value
/// or throws a `DecodeError` naming the field and its offset; nothing is read unchecked. The decoders
/// that run on every advertisement and the ones that explain a malformed input are the same code
/// over this reader.
public struct ByteReader {
    /// The input. It lives as long as the `withUnsafeBytes` (or `read`) call that lent it.
    public let bytes: UnsafeRawBufferPointer
    /// Offset of the cursor from the start of `bytes`.
    public private(set) var position = 0
    /// Offset reported in errors for the first byte, so nested readers report positions in the outer input.
    public let baseOffset: Int
    /// Where reading stops: the end of `bytes`, or of a `prefix`.
    private var end: Int

    @inline(__always)
    public init(_ bytes: UnsafeRawBufferPointer, baseOffset: Int = 0) {
        self.bytes = bytes
        self.baseOffset = baseOffset
        end = bytes.count
    }

    /// Runs `body` with a reader over `bytes`; slices of `bytes` it keeps are taken with `span`.
    public static func read<T>(_ bytes: ArraySlice<UInt8>, baseOffset: Int = 0,
                               _ body: (inout ByteReader) throws(DecodeError) -> T) throws(DecodeError) -> T {
        let result: Result<T, DecodeError> = bytes.withUnsafeBytes { raw in
            var r = ByteReader(raw, baseOffset: baseOffset)
            return Result { () throws(DecodeError) in try body(&r) }
        }
        return try result.get()
    }

    /// The same for an array.
    public static func read<T>(_ bytes: [UInt8], baseOffset: Int = 0,
                               _ body: (inout ByteReader) throws(DecodeError) -> T) throws(DecodeError) -> T {
        try read(bytes[...], baseOffset: baseOffset, body)
    }

    /// Offset of the cursor relative to the start of the input, as used in errors.
    public var offset: Int { baseOffset &+ position }
    // Wrapping arithmetic on positions: 0 <= position <= end <= bytes.count always holds, and the
    // overflow checks would cost an instruction per read.
    public var remaining: Int { end &- position }
    public var isAtEnd: Bool { position >= end }

    public func error(_ field: String, needed: Int) -> DecodeError {
        DecodeError(offset: offset, field: field, needed: needed, available: remaining)
    }

    public func invalid(_ field: String, _ reason: String) -> DecodeError {
        DecodeError(offset: offset, field: field, needed: 0, available: remaining, reason: reason)
    }

    // The reads are inlined into the decoders that call them: one compare per read (none where the
    // length is known, as after `prefix`), with the error (its strings, its offsets) built out of
    // line only when input is short.
    @inline(__always)
    public func require(_ count: Int, _ field: String) throws(DecodeError) {
        guard count >= 0, remaining >= count else {
            throw Self.shortInput(field, needed: count, offset: offset, available: remaining)
        }
    }

    /// Takes the reader's figures rather than the reader: a method would take the reader by address,
    /// and every reader read in place would be stored to memory for the error that rarely comes.
    @inline(never)
    private static func shortInput(_ field: String, needed: Int, offset: Int, available: Int) -> DecodeError {
        DecodeError(offset: offset, field: field, needed: needed, available: available)
    }

    @inline(__always)
    private mutating func load<T: FixedWidthInteger>(_ field: String, as: T.Type) throws(DecodeError) -> T {
        try require(MemoryLayout<T>.size, field)
        defer { position &+= MemoryLayout<T>.size }
        return bytes.loadUnaligned(fromByteOffset: position, as: T.self)
    }

    @inline(__always)
    public mutating func u8(_ field: String) throws(DecodeError) -> UInt8 {
        try load(field, as: UInt8.self)
    }

    @inline(__always)
    public mutating func i8(_ field: String) throws(DecodeError) -> Int8 {
        Int8(bitPattern: try u8(field))
    }

    @inline(__always)
    public mutating func u16(_ field: String) throws(DecodeError) -> UInt16 {
        UInt16(littleEndian: try load(field, as: UInt16.self))
    }

    @inline(__always)
    public mutating func u16BigEndian(_ field: String) throws(DecodeError) -> UInt16 {
        UInt16(bigEndian: try load(field, as: UInt16.self))
    }

    @inline(__always)
    public mutating func u24(_ field: String) throws(DecodeError) -> UInt32 {
        try require(3, field)
        let low = UInt32(UInt16(littleEndian: bytes.loadUnaligned(fromByteOffset: position, as: UInt16.self)))
        defer { position &+= 3 }
        return low | UInt32(bytes[position &+ 2]) << 16
    }

    @inline(__always)
    public mutating func u32(_ field: String) throws(DecodeError) -> UInt32 {
        UInt32(littleEndian: try load(field, as: UInt32.self))
    }

    @inline(__always)
    public mutating func u32BigEndian(_ field: String) throws(DecodeError) -> UInt32 {
        UInt32(bigEndian: try load(field, as: UInt32.self))
    }

    /// Six bytes little-endian: a device address.
    @inline(__always)
    public mutating func u48(_ field: String) throws(DecodeError) -> UInt64 {
        try require(6, field)
        defer { position &+= 6 }
        return UInt64(UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: position, as: UInt32.self)))
            | UInt64(UInt16(littleEndian: bytes.loadUnaligned(fromByteOffset: position &+ 4, as: UInt16.self))) << 32
    }

    @inline(__always)
    public mutating func u64(_ field: String) throws(DecodeError) -> UInt64 {
        UInt64(littleEndian: try load(field, as: UInt64.self))
    }

    @inline(__always)
    public mutating func u64BigEndian(_ field: String) throws(DecodeError) -> UInt64 {
        UInt64(bigEndian: try load(field, as: UInt64.self))
    }

    /// The next `count` bytes in place.
    @inline(__always)
    public mutating func bytes(_ count: Int, _ field: String) throws(DecodeError) -> UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(rebasing: bytes[try span(count, field)])
    }

    /// Where the next `count` bytes lie, as offsets from the start of `bytes`: a caller that lent the
    /// bytes from an array keeps its own slice of them.
    @inline(__always)
    public mutating func span(_ count: Int, _ field: String) throws(DecodeError) -> Range<Int> {
        try require(count, field)
        defer { position &+= count }
        return Range(uncheckedBounds: (position, position &+ count))
    }

    /// Where everything not read yet lies, as `span`.
    public mutating func restSpan() -> Range<Int> {
        defer { position = end }
        return Range(uncheckedBounds: (position, end))
    }

    @inline(__always)
    public mutating func skip(_ count: Int, _ field: String) throws(DecodeError) {
        try require(count, field)
        position &+= count
    }

    /// Reads the fixed layout of the next `length` bytes with `body` and moves past them. The reads in
    /// `body` are checked against `length` once, where the compiler can see them pass; when fewer bytes
    /// remain, `body` reads what there is, so the read that runs out names its field.
    @inline(__always)
    public mutating func fixed<T>(_ length: Int, _ field: String,
                                  _ body: (inout ByteReader) throws(DecodeError) -> T) throws(DecodeError) -> T {
        guard var layout = prefix(length) else { try explainShort(length, field, body) }
        let value = try body(&layout)
        position &+= length
        return value
    }

    @inline(never)
    private func explainShort<T>(_ length: Int, _ field: String,
                                 _ body: (inout ByteReader) throws(DecodeError) -> T) throws(DecodeError) -> Never {
        var short = self
        _ = try body(&short)
        throw error(field, needed: length)
    }

    /// A reader of the next `count` bytes only, when that many remain: its reads past them throw. Its
    /// positions and offsets are those of this reader.
    /// Reads from a prefix of a known length are checked where the compiler can see they pass, so a
    /// fixed layout checked once costs no more than one compare.
    @inline(__always)
    public func prefix(_ count: Int) -> ByteReader? {
        guard count >= 0, remaining >= count else { return nil }
        var prefix = self
        prefix.end = position &+ count
        return prefix
    }
}

extension ArraySlice<UInt8> {
    /// The bytes at `span`, offsets from the start of the slice (as `ByteReader.span` gives them).
    @inline(__always)
    func view(_ span: Range<Int>) -> ArraySlice<UInt8> {
        self[startIndex + span.lowerBound..<startIndex + span.upperBound]
    }
}
