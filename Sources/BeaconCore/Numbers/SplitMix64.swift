#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A small deterministic pseudo-random generator (SplitMix64), so simulated runs and the fuser's
/// particles repeat exactly.
public struct SplitMix64: RandomNumberGenerator, Sendable {
    private var state: UInt64
    public init(seed: UInt64) { state = seed }
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// The distributions drawn from (the simulated radio, the fuser's particles), on SplitMix64 so a seed fixes every draw.
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

    /// Two independent standard normals (Marsaglia's polar method: no trigonometry, for the fuser's
    /// particles; `normal()` keeps the simulator's draws as they were).
    public mutating func normalPair() -> (Double, Double) {
        while true {
            let u = 2 * unit() - 1, v = 2 * unit() - 1
            let s = u * u + v * v
            guard s > 0, s < 1 else { continue }
            let factor = (-2 * log(s) / s).squareRoot()
            return (u * factor, v * factor)
        }
    }

    /// Exponential with the given mean (the gaps and lengths of Poisson episodes).
    public mutating func exponential(mean: Double) -> Double {
        -log(1 - unit()) * mean
    }

    /// Uniform in 0...bound microseconds.
    public mutating func micros(upTo bound: Int64) -> Int64 {
        bound <= 0 ? 0 : Int64(next() % UInt64(bound + 1))
    }

    /// An independent stream for the `index`-th part of a run (a beacon, the interference), so adding
    /// a beacon to a scene leaves the draws of the others as they were.
    public static func stream(seed: UInt64, index: UInt64) -> SplitMix64 {
        var mixer = SplitMix64(seed: seed ^ (index &* 0xD1B5_4A32_D192_ED03))
        return SplitMix64(seed: mixer.next())
    }
}
