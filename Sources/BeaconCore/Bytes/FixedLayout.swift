/// A value of a fixed layout, read by offset once its length has been checked: the beacon decoders and
/// the report headers run on every advertisement, so they check the length once and read the fields in
/// place, with no copy and no reference counting of the bytes. Every offset a caller passes is a
/// constant of its layout, below the length checked here.
struct FixedLayout {
    private let bytes: UnsafeRawBufferPointer

    /// Nil when `bytes` is shorter than `length`; bytes after it are not read.
    init?(_ bytes: UnsafeRawBufferPointer, length: Int) {
        guard length >= 0, bytes.count >= length else { return nil }
        self.bytes = UnsafeRawBufferPointer(start: bytes.baseAddress, count: length)
    }

    /// Reads the layout of the `length` bytes at `offset` in `bytes` with `body`; nil when fewer follow it.
    static func read<T>(_ bytes: ArraySlice<UInt8>, at offset: Int = 0, length: Int, _ body: (FixedLayout) -> T?) -> T? {
        bytes.withUnsafeBytes { raw in
            guard offset >= 0, offset <= raw.count else { return nil }
            return FixedLayout(UnsafeRawBufferPointer(rebasing: raw[offset...]), length: length).flatMap(body)
        }
    }

    func u8(_ offset: Int) -> UInt8 { bytes[offset] }

    /// Little-endian, as HCI and company identifiers are.
    func u16(_ offset: Int) -> UInt16 { UInt16(littleEndian: load(offset)) }

    /// Six bytes little-endian: a device address.
    func u48(_ offset: Int) -> UInt64 {
        UInt64(UInt32(littleEndian: load(offset))) | UInt64(u16(offset + 4)) << 32
    }

    func u16BigEndian(_ offset: Int) -> UInt16 { UInt16(bigEndian: load(offset)) }

    func u32BigEndian(_ offset: Int) -> UInt32 { UInt32(bigEndian: load(offset)) }

    func u64BigEndian(_ offset: Int) -> UInt64 { UInt64(bigEndian: load(offset)) }

    private func load<T: FixedWidthInteger>(_ offset: Int) -> T {
        assert(offset >= 0 && offset + MemoryLayout<T>.size <= bytes.count, "a layout's offsets lie inside its length")
        return bytes.loadUnaligned(fromByteOffset: offset, as: T.self)
    }
}
