/// A keyed hash of four 64-bit words for tables whose keys strangers choose (advertised beacon
/// identities). First the multilinear hash of Lemire and Kaser ("Strongly universal string hashing is
/// fast", 2014) under a random key m₀…m₈: the words are read as eight 32-bit pieces s₁…s₈ and summed as
/// m₀ + m₁s₁ + … + m₈s₈ modulo 2⁶⁴. Two different keys' sums agree with probability about 2⁻³², whatever
/// the keys, for anyone who does not know m: no set of identities can be picked in advance to collide.
/// Then a fixed mix (xor-shift, multiply, xor-shift: one-to-one, so it adds no collision): identities
/// that count up (minor 1, 2, 3…) give sums that count up by m, and a table probed linearly would pile
/// them into runs for some keys; the mix spreads them as a random function would.
///
/// The key comes from outside: the system's random source wherever strangers advertise (BeaconTransport
/// draws it), a seed where the identities are measurements and a run must repeat.
public struct MultilinearHash: Sendable {
    /// m₀…m₈.
    let key: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64)

    /// A key of nine draws from `generator`.
    public static func randomKey(using generator: inout some RandomNumberGenerator) -> MultilinearHash {
        MultilinearHash(key: (generator.next(), generator.next(), generator.next(), generator.next(), generator.next(),
                              generator.next(), generator.next(), generator.next(), generator.next()))
    }

    /// The sum m₀ + Σ mᵢsᵢ for `a b c d`, each word read as its low then its high 32 bits.
    @inline(__always)
    func sum(_ a: UInt64, _ b: UInt64, _ c: UInt64, _ d: UInt64) -> UInt64 {
        var sum = key.0
        sum &+= key.1 &* (a & 0xFFFF_FFFF)
        sum &+= key.2 &* (a >> 32)
        sum &+= key.3 &* (b & 0xFFFF_FFFF)
        sum &+= key.4 &* (b >> 32)
        sum &+= key.5 &* (c & 0xFFFF_FFFF)
        sum &+= key.6 &* (c >> 32)
        sum &+= key.7 &* (d & 0xFFFF_FFFF)
        sum &+= key.8 &* (d >> 32)
        return sum
    }

    /// The slot among 2^`bits` (at most 32) for `a b c d`: the top bits of the mixed sum.
    @inline(__always)
    func slot(_ a: UInt64, _ b: UInt64, _ c: UInt64, _ d: UInt64, bits: Int) -> Int {
        var mixed = sum(a, b, c, d)
        mixed ^= mixed >> 32
        mixed &*= 0xFF51_AFD7_ED55_8CCD
        mixed ^= mixed >> 32
        return Int(truncatingIfNeeded: mixed >> UInt64(64 - bits))
    }
}

extension MultilinearHash {
    /// The key drawn from SplitMix64 seeded with `seed` (an initializer in the struct would hide the memberwise one).
    public init(seed: UInt64) {
        var generator = SplitMix64(seed: seed)
        self = Self.randomKey(using: &generator)
    }
}
