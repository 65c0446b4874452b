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

    /// Built in place from the two words, with no intermediate arrays: every ranged beacon prints one.
    public func write(into text: UnsafeMutableBufferPointer<UInt8>) {
        var at = 0
        for byte in 0..<16 {
            if byte == 4 || byte == 6 || byte == 8 || byte == 10 {
                text[at] = UInt8(ascii: "-")
                at += 1
            }
            let b = UInt8(truncatingIfNeeded: (byte < 8 ? high : low) >> (56 - 8 * UInt64(byte % 8)))
            text[at] = Hex.digit(b >> 4)
            text[at + 1] = Hex.digit(b & 0x0F)
            at += 2
        }
    }

    public static func < (a: BeaconUUID, b: BeaconUUID) -> Bool {
        (a.high, a.low) < (b.high, b.low)
    }
}

/// The identity an iBeacon advertises: proximity UUID, major and minor.
public struct BeaconIdentity: Hashable, Sendable, Comparable, CustomStringConvertible {
    public var uuid: BeaconUUID
    public var major: UInt16
    public var minor: UInt16

    public init(uuid: BeaconUUID, major: UInt16, minor: UInt16) {
        self.uuid = uuid
        self.major = major
        self.minor = minor
    }

    public var description: String { "\(uuid):\(major):\(minor)" }

    public static func < (a: BeaconIdentity, b: BeaconIdentity) -> Bool {
        (a.uuid, a.major, a.minor) < (b.uuid, b.major, b.minor)
    }
}
