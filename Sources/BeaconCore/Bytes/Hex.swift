/// Hex text for golden vectors, JSON output and diagnostics.
public enum Hex {
    private static let digits: [UInt8] = Array("0123456789ABCDEF".utf8)

    /// The upper-case hex digit of a nibble (0–15).
    @inline(__always)
    static func digit(_ nibble: UInt8) -> UInt8 {
        nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "A") - 10 + nibble
    }

    /// The lower-case hex digit of a nibble (0–15), as JSON's `\u` escapes are usually written.
    @inline(__always)
    static func lowerDigit(_ nibble: UInt8) -> UInt8 {
        nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") - 10 + nibble
    }

    /// The eight upper-case hex digits of `value`, most significant first, written at `text`: all eight
    /// at once in one 64-bit word (each nibble spread to a byte, then shifted to its digit).
    @inline(__always)
    static func write(_ value: UInt32, at text: UnsafeMutableRawPointer) {
        var spread = UInt64(value)
        spread = (spread | spread << 16) & 0x0000_FFFF_0000_FFFF
        spread = (spread | spread << 8) & 0x00FF_00FF_00FF_00FF
        spread = (spread | spread << 4) & 0x0F0F_0F0F_0F0F_0F0F
        // 1 in each byte whose nibble is 10 or more, which then skips from after "9" to "A".
        let letters = ((spread &+ 0x0606_0606_0606_0606) >> 4) & 0x0101_0101_0101_0101
        let digits = spread &+ 0x3030_3030_3030_3030 &+ letters &* 7
        // The least significant nibble is in the lowest byte: reversed so the text reads from the top.
        text.storeBytes(of: digits.byteSwapped.littleEndian, as: UInt64.self)
    }

    /// Upper-case hex without separators.
    public static func encode<C: Collection>(_ bytes: C) -> String where C.Element == UInt8 {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count * 2)
        for b in bytes {
            out.append(digits[Int(b >> 4)])
            out.append(digits[Int(b & 0x0F)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Decodes hex text; spaces, newlines and underscores between bytes are ignored. Nil on any other character or an odd count.
    public static func decode(_ text: String) -> [UInt8]? {
        var out: [UInt8] = []
        var high: UInt8?
        for c in text.utf8 {
            let nibble: UInt8
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): nibble = c - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): nibble = c - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): nibble = c - UInt8(ascii: "A") + 10
            case UInt8(ascii: " "), UInt8(ascii: "\n"), UInt8(ascii: "\t"), UInt8(ascii: "_"):
                if high != nil { return nil }
                continue
            default: return nil
            }
            if let h = high {
                out.append(h << 4 | nibble)
                high = nil
            } else {
                high = nibble
            }
        }
        return high == nil ? out : nil
    }
}
