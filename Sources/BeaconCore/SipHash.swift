/// SipHash-2-4 (Aumasson and Bernstein, 2012) of four 64-bit words under a 128-bit key: a keyed hash
/// whose collisions cannot be found without the key, so a table keyed by what strangers advertise
/// cannot be flooded into long probe chains. Linux hashes its tables' fixed-size keys the same way
/// (`siphash_4u64`).
struct SipHash: Sendable {
    let k0: UInt64
    let k1: UInt64

    /// A key from the system's random source (getrandom), drawn anew for every table.
    static func randomKey() -> SipHash {
        var generator = SystemRandomNumberGenerator()
        return SipHash(k0: generator.next(), k1: generator.next())
    }

    /// The hash of the 32-byte message `a b c d` (each word little-endian, as the reference reads it).
    @inline(__always)
    func hash(_ a: UInt64, _ b: UInt64, _ c: UInt64, _ d: UInt64) -> UInt64 {
        var state = State(k0: k0, k1: k1)
        state.compress(a)
        state.compress(b)
        state.compress(c)
        state.compress(d)
        return state.finalize(length: 32)
    }

    private struct State {
        var v0, v1, v2, v3: UInt64

        init(k0: UInt64, k1: UInt64) {
            v0 = k0 ^ 0x736f_6d65_7073_6575
            v1 = k1 ^ 0x646f_7261_6e64_6f6d
            v2 = k0 ^ 0x6c79_6765_6e65_7261
            v3 = k1 ^ 0x7465_6462_7974_6573
        }

        @inline(__always)
        mutating func round() {
            v0 &+= v1; v1 = v1.rotated(13); v1 ^= v0; v0 = v0.rotated(32)
            v2 &+= v3; v3 = v3.rotated(16); v3 ^= v2
            v0 &+= v3; v3 = v3.rotated(21); v3 ^= v0
            v2 &+= v1; v1 = v1.rotated(17); v1 ^= v2; v2 = v2.rotated(32)
        }

        @inline(__always)
        mutating func compress(_ m: UInt64) {
            v3 ^= m
            round()
            round()
            v0 ^= m
        }

        /// The last block holds only the message length (a multiple of 8 bytes here) in its top byte.
        @inline(__always)
        mutating func finalize(length: UInt64) -> UInt64 {
            compress(length << 56)
            v2 ^= 0xFF
            round()
            round()
            round()
            round()
            return v0 ^ v1 ^ v2 ^ v3
        }
    }
}

private extension UInt64 {
    @inline(__always)
    func rotated(_ bits: UInt64) -> UInt64 { self << bits | self >> (64 - bits) }
}
