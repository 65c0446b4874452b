/// A value of a fixed layout, read by offset once its length has been checked: the beacon decoders run
/// on every advertisement, so they check the length and compare the layout's constant bytes once
/// instead of reading field by field. Every offset a caller passes is a constant of its layout, below
/// the length checked here.
struct FixedLayout {
    private let bytes: ArraySlice<UInt8>

    /// Nil when `bytes` is shorter than `length`; bytes after it are not read.
    init?(_ bytes: ArraySlice<UInt8>, length: Int) {
        guard bytes.count >= length else { return nil }
        self.bytes = bytes
    }

    func u8(_ offset: Int) -> UInt8 { bytes[bytes.startIndex + offset] }

    /// Little-endian, as HCI and company identifiers are.
    func u16(_ offset: Int) -> UInt16 { UInt16(u8(offset)) | UInt16(u8(offset + 1)) << 8 }

    /// Six bytes little-endian: a device address.
    func u48(_ offset: Int) -> UInt64 {
        var value: UInt64 = 0
        for i in (offset..<(offset + 6)).reversed() { value = value << 8 | UInt64(u8(i)) }
        return value
    }

    func u16BigEndian(_ offset: Int) -> UInt16 { UInt16(u8(offset)) << 8 | UInt16(u8(offset + 1)) }

    func u64BigEndian(_ offset: Int) -> UInt64 {
        var value: UInt64 = 0
        for i in offset..<(offset + 8) { value = value << 8 | UInt64(u8(i)) }
        return value
    }
}
