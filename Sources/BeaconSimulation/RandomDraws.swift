#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The distributions the radio model draws from, on SplitMix64 so a seed fixes every draw.
extension SplitMix64 {
    /// Uniform in [0, 1), from the top 53 bits.
    public mutating func unit() -> Double {
        Double(next() >> 11) * 0x1p-53
    }

    /// True with probability `p`.
    public mutating func chance(_ p: Double) -> Bool {
        unit() < p
    }

    /// Standard normal (Box-Muller; one of the pair is used, so every call draws exactly twice).
    public mutating func normal() -> Double {
        let u = 1 - unit() // (0, 1]: log stays finite
        let v = unit()
        return (-2 * log(u)).squareRoot() * cos(2 * Double.pi * v)
    }

    /// Exponential with the given mean (the gaps and lengths of Poisson episodes).
    mutating func exponential(mean: Double) -> Double {
        -log(1 - unit()) * mean
    }

    /// Uniform in 0...bound microseconds.
    mutating func micros(upTo bound: Int64) -> Int64 {
        bound <= 0 ? 0 : Int64(next() % UInt64(bound + 1))
    }

    /// An independent stream for the `index`-th part of a run (a beacon, the interference), so adding
    /// a beacon to a scene leaves the draws of the others as they were.
    public static func stream(seed: UInt64, index: UInt64) -> SplitMix64 {
        var mixer = SplitMix64(seed: seed ^ (index &* 0xD1B5_4A32_D192_ED03))
        return SplitMix64(seed: mixer.next())
    }
}
