/// A 128-bit proximity UUID held as two big-endian halves, so comparing and hashing never allocate.
public struct BeaconUUID: Hashable, Sendable, Comparable, ASCIIText {
    public var high: UInt64
    public var low: UInt64

    public init(high: UInt64, low: UInt64) {
        self.high = high
        self.low = low
    }

    /// From 16 bytes in transmission (big-endian) order.
    public init?<C: Collection>(bytes: C) where C.Element == UInt8 {
        guard bytes.count == 16 else { return nil }
        var h: UInt64 = 0, l: UInt64 = 0
        for (i, b) in bytes.enumerated() {
            if i < 8 { h = h << 8 | UInt64(b) } else { l = l << 8 | UInt64(b) }
        }
        high = h
        low = l
    }

    /// Parses `E2C56DB5-DFFB-48D2-B060-D0F5A71096E0` (8-4-4-4-12 hex digits, either case) or the same 32 digits without hyphens.
    public init?(_ text: String) {
        let utf8 = Array(text.utf8)
        let hyphenPositions: Set<Int> = [8, 13, 18, 23]
        var digits: [UInt8] = []
        if utf8.count == 36 {
            for (i, c) in utf8.enumerated() {
                if hyphenPositions.contains(i) {
                    guard c == UInt8(ascii: "-") else { return nil }
                } else {
                    digits.append(c)
                }
            }
        } else if utf8.count == 32 {
            digits = utf8
        } else {
            return nil
        }
        guard let bytes = Hex.decode(String(decoding: digits, as: UTF8.self)), bytes.count == 16 else { return nil }
        self.init(bytes: bytes)
    }

    /// The 16 bytes in transmission (big-endian) order.
    public var bytes: [UInt8] {
        var w = ByteWriter(capacity: 16)
        w.u64BigEndian(high)
        w.u64BigEndian(low)
        return w.bytes
    }

    /// Canonical upper-case 8-4-4-4-12 form: 36 characters.
    public static let textLength = 36

    /// Built in place from the two words, eight digits at a time: every ranged beacon prints one.
    public func write(into text: UnsafeMutableBufferPointer<UInt8>) {
        precondition(text.count >= Self.textLength)
        let start = UnsafeMutableRawPointer(text.baseAddress!)
        // 8-4-4-4-12 digits, left to right. A group shorter than eight is written with the digits that
        // follow it, which the next group and the dashes then overwrite.
        Hex.write(UInt32(truncatingIfNeeded: high >> 32), at: start)
        Hex.write(UInt32(truncatingIfNeeded: high), at: start + 9)
        Hex.write(UInt32(truncatingIfNeeded: high) << 16 | UInt32(truncatingIfNeeded: low >> 48), at: start + 14)
        Hex.write(UInt32(truncatingIfNeeded: low >> 32), at: start + 19)
        Hex.write(UInt32(truncatingIfNeeded: low >> 16), at: start + 24)
        Hex.write(UInt32(truncatingIfNeeded: low), at: start + 28)
        text[8] = UInt8(ascii: "-")
        text[13] = UInt8(ascii: "-")
        text[18] = UInt8(ascii: "-")
        text[23] = UInt8(ascii: "-")
    }

    public static func < (a: BeaconUUID, b: BeaconUUID) -> Bool {
        (a.high, a.low) < (b.high, b.low)
    }
}
