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

/// A bounds-checked little-endian cursor over bytes. Every read either returns a value
/// or throws a `DecodeError` naming the field; nothing is indexed unchecked.
public struct ByteReader {
    public let bytes: ArraySlice<UInt8>
    /// Absolute offset of the cursor inside `bytes` (indices of the slice).
    public private(set) var position: Int
    /// Offset reported in errors for the first byte, so nested readers report positions in the outer input.
    public let baseOffset: Int

    public init(_ bytes: ArraySlice<UInt8>, baseOffset: Int = 0) {
        self.bytes = bytes
        self.position = bytes.startIndex
        self.baseOffset = baseOffset
    }

    public init(_ bytes: [UInt8], baseOffset: Int = 0) {
        self.init(bytes[...], baseOffset: baseOffset)
    }

    /// Offset of the cursor relative to the start of the input, as used in errors.
    public var offset: Int { baseOffset + (position - bytes.startIndex) }
    public var remaining: Int { bytes.endIndex - position }
    public var isAtEnd: Bool { position >= bytes.endIndex }

    public func error(_ field: String, needed: Int) -> DecodeError {
        DecodeError(offset: offset, field: field, needed: needed, available: remaining)
    }

    public func invalid(_ field: String, _ reason: String) -> DecodeError {
        DecodeError(offset: offset, field: field, needed: 0, available: remaining, reason: reason)
    }

    // The readers are inlined into the decoders that call them: one compare per read on the hot path,
    // with the error (its strings, its offsets) built out of line only when input is short.
    @inline(__always)
    public mutating func require(_ count: Int, _ field: String) throws(DecodeError) {
        guard count >= 0, remaining >= count else { throw shortInput(field, needed: count) }
    }

    @inline(never)
    private func shortInput(_ field: String, needed: Int) -> DecodeError {
        error(field, needed: needed)
    }

    @inline(__always)
    public mutating func u8(_ field: String) throws(DecodeError) -> UInt8 {
        try require(1, field)
        defer { position += 1 }
        return bytes[position]
    }

    @inline(__always)
    public mutating func i8(_ field: String) throws(DecodeError) -> Int8 {
        Int8(bitPattern: try u8(field))
    }

    @inline(__always)
    public mutating func u16(_ field: String) throws(DecodeError) -> UInt16 {
        try require(2, field)
        defer { position += 2 }
        return UInt16(bytes[position]) | UInt16(bytes[position + 1]) << 8
    }

    @inline(__always)
    public mutating func u16BigEndian(_ field: String) throws(DecodeError) -> UInt16 {
        try require(2, field)
        defer { position += 2 }
        return UInt16(bytes[position]) << 8 | UInt16(bytes[position + 1])
    }

    @inline(__always)
    public mutating func u24(_ field: String) throws(DecodeError) -> UInt32 {
        try require(3, field)
        defer { position += 3 }
        return UInt32(bytes[position]) | UInt32(bytes[position + 1]) << 8 | UInt32(bytes[position + 2]) << 16
    }

    @inline(__always)
    public mutating func u32(_ field: String) throws(DecodeError) -> UInt32 {
        try require(4, field)
        defer { position += 4 }
        var value: UInt32 = 0
        for i in 0..<4 { value |= UInt32(bytes[position + i]) << (8 * UInt32(i)) }
        return value
    }

    @inline(__always)
    public mutating func u32BigEndian(_ field: String) throws(DecodeError) -> UInt32 {
        try require(4, field)
        defer { position += 4 }
        var value: UInt32 = 0
        for i in 0..<4 { value = value << 8 | UInt32(bytes[position + i]) }
        return value
    }

    @inline(__always)
    public mutating func u64(_ field: String) throws(DecodeError) -> UInt64 {
        try require(8, field)
        defer { position += 8 }
        var value: UInt64 = 0
        for i in 0..<8 { value |= UInt64(bytes[position + i]) << (8 * UInt64(i)) }
        return value
    }

    @inline(__always)
    public mutating func u64BigEndian(_ field: String) throws(DecodeError) -> UInt64 {
        try require(8, field)
        defer { position += 8 }
        var value: UInt64 = 0
        for i in 0..<8 { value = value << 8 | UInt64(bytes[position + i]) }
        return value
    }

    /// A view of the next `count` bytes (no copy); indices are those of the underlying input.
    @inline(__always)
    public mutating func bytes(_ count: Int, _ field: String) throws(DecodeError) -> ArraySlice<UInt8> {
        try require(count, field)
        defer { position += count }
        return bytes[position..<position + count]
    }

    /// Reads the next `length` bytes in place through their fixed layout and moves past them; nil, with
    /// nothing read, when fewer remain.
    @inline(__always)
    mutating func fixed<T>(_ length: Int, _ body: (FixedLayout) -> T) -> T? {
        guard let value = FixedLayout.read(bytes, at: position - bytes.startIndex, length: length, body) else { return nil }
        position += length
        return value
    }

    /// Everything not read yet, as a view.
    public mutating func rest() -> ArraySlice<UInt8> {
        defer { position = bytes.endIndex }
        return bytes[position...]
    }

    @inline(__always)
    public mutating func skip(_ count: Int, _ field: String) throws(DecodeError) {
        try require(count, field)
        position += count
    }
}
