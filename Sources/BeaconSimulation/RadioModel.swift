#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import BeaconCore

/// How an advertisement's power falls between a beacon and the receiver, and how packets are lost.
///
/// The power of one received packet, in dBm, is
///
///     measuredPower − 10 · pathLossExponent · log10(max(d, 0.1 m))   the mean at the true distance d
///       + shadowing                                                 slowly varying, per beacon
///       + channelOffsets[channel]                                   the advertising channel heard
///       + fastFading                                                new for every packet
///       − bodyBlocking.attenuation                                  while a body is in the way
///       − dips.depth                                                for a share `dips.share` of packets
///
/// Then the packet is lost with probability `loss` (and `interference.loss` during a burst), and is not
/// received at all below the receiver's sensitivity. In a site scene the distance is the beacon's to each
/// gateway, and walls, the gateway's offset and its noise come in too (`ScanningReceiver`).
public struct RadioModel: Hashable, Sendable {
    /// The log-distance path-loss exponent n: 2 in free space, 2 to 4 indoors (default 2).
    public var pathLossExponent: Double
    /// Log-normal shadowing: obstacles that change slowly as the beacon moves and time passes.
    public var shadowing: Shadowing
    /// Offsets in dB on advertising channels 37, 38 and 39 (default 0, −1.5, +1.5: antennas and
    /// multipath differ per frequency).
    public var channelOffsets: [Double]
    /// Standard deviation in dB of the per-packet fast fading, normal in dB (default 2).
    public var fastFading: Double
    /// Episodes in which a body between beacon and receiver attenuates it; nil for none.
    public var bodyBlocking: BodyBlocking?
    /// Probability that a packet is lost, independently of every other (default 0).
    public var loss: Double
    /// Bursts of heavy loss that hit every beacon at once (a microwave oven, a Wi-Fi transfer); nil for none.
    public var interference: InterferenceBursts?
    /// Packets received that much weaker at random (multipath); nil for none.
    public var dips: Dips?

    /// Distances are taken as at least this many metres in the path loss (log10 of 0 has no value).
    public static let minimumDistance = 0.1
    /// The advertising channels, in the order of `channelOffsets`.
    public static let advertisingChannels: [UInt8] = [37, 38, 39]

    public init(pathLossExponent: Double = 2.0, shadowing: Shadowing = Shadowing(),
                channelOffsets: [Double] = [0, -1.5, 1.5], fastFading: Double = 2.0,
                bodyBlocking: BodyBlocking? = nil, loss: Double = 0, interference: InterferenceBursts? = nil, dips: Dips? = nil) {
        self.pathLossExponent = pathLossExponent
        self.shadowing = shadowing
        self.channelOffsets = channelOffsets
        self.fastFading = fastFading
        self.bodyBlocking = bodyBlocking
        self.loss = loss
        self.interference = interference
        self.dips = dips
    }

    /// The mean received power (dBm) at `distance` metres from a beacon calibrated to `measuredPower` at 1 m.
    public func meanRSSI(measuredPower: Int8, distance: Double) -> Double {
        Double(measuredPower) - 10 * pathLossExponent * log10(max(distance, Self.minimumDistance))
    }

    /// Log-normal shadowing as a Gauss-Markov process per beacon: between two packets its value keeps a
    /// correlation of exp(−moved / decorrelationDistance − elapsed / decorrelationTime).
    public struct Shadowing: Hashable, Sendable {
        /// Standard deviation in dB (default 3; 0 turns shadowing off).
        public var sigma: Double
        /// Metres of movement over which the correlation falls to 1/e (default 1).
        public var decorrelationDistance: Double
        /// Time over which the correlation of a still beacon falls to 1/e (default 5 s).
        public var decorrelationTime: Micros

        public init(sigma: Double = 3, decorrelationDistance: Double = 1, decorrelationTime: Micros = .seconds(5)) {
            self.sigma = sigma
            self.decorrelationDistance = decorrelationDistance
            self.decorrelationTime = decorrelationTime
        }
    }

    /// Episodes of a body in the way, drawn for each beacon on its own.
    public struct BodyBlocking: Hashable, Sendable {
        /// dB taken off while blocked (default 10).
        public var attenuation: Double
        public var episodes: Episodes

        public init(attenuation: Double = 10, every: Micros = .seconds(60), lasting: Micros = .seconds(5)) {
            self.attenuation = attenuation
            episodes = Episodes(every: every, lasting: lasting)
        }
    }

    /// Bursts of interference, the same for every beacon, during which each packet is lost with
    /// probability `loss`.
    public struct InterferenceBursts: Hashable, Sendable {
        /// Probability that a packet is lost during a burst (default 0.9), on top of `RadioModel.loss`.
        public var loss: Double
        public var episodes: Episodes

        public init(loss: Double = 0.9, every: Micros = .seconds(120), lasting: Micros = .seconds(3)) {
            self.loss = loss
            episodes = Episodes(every: every, lasting: lasting)
        }
    }

    /// Multipath dips: each packet received is, independently, with probability `share`, `depth` dB
    /// weaker ("10 % of readings 6 dB low").
    public struct Dips: Hashable, Sendable {
        public var share: Double
        public var depth: Double

        public init(share: Double = 0.1, depth: Double = 6) {
            self.share = share
            self.depth = depth
        }
    }

    /// When an impairment comes and goes: episodes start on average `every` apart and last `lasting`
    /// on average, both exponentially distributed (a Poisson process of episodes).
    public struct Episodes: Hashable, Sendable {
        public var every: Micros
        public var lasting: Micros

        public init(every: Micros, lasting: Micros) {
            self.every = every
            self.lasting = lasting
        }
    }
}
