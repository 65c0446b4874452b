#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// What one gateway (the receiver) heard of another's own beacon (the transmitter), summed up.
public struct GatewayPair: Equatable, Sendable {
    public var receiver: Int
    public var transmitter: Int
    /// What the receiver reads of the beacon, over many ticks (dBm).
    public var rssi: Double
    /// The transmitter's calibrated power at 1 m, as its beacon advertises it (dBm).
    public var measuredPower: Double

    public init(receiver: Int, transmitter: Int, rssi: Double, measuredPower: Double) {
        self.receiver = receiver
        self.transmitter = transmitter
        self.rssi = rssi
        self.measuredPower = measuredPower
    }
}

/// How one gateway hears: the dB it reads above (or below) the log-distance model, and its own path-loss
/// exponent, each with its 1-σ uncertainty.
public struct GatewayFit: Equatable, Sendable {
    public var gateway: Int
    /// dB added to what a calibrated receiver would read at 1 m.
    public var offset: Double
    public var offsetError: Double
    public var exponent: Double
    public var exponentError: Double
    /// The covariance of offset and exponent (dB): large, since the offset is the fit's value
    /// at 1 m, well short of the pairs.
    public var covariance: Double
    /// The geometric mean of its pairs' distances, metres: where the fit is surest of the level it reads.
    public var centre: Double
    /// The other gateways' beacons it heard, in the fit.
    public var pairs: Int
    /// Root mean square of its pairs' residuals about the fit, outliers included, dB.
    public var residual: Double
    /// The transmitters the fit set aside (a wall the site does not have, a gateway moved), by index.
    public var outliers: [Int]

    public init(gateway: Int, offset: Double, offsetError: Double, exponent: Double, exponentError: Double,
                covariance: Double = 0, centre: Double = 1, pairs: Int, residual: Double, outliers: [Int]) {
        self.gateway = gateway
        self.offset = offset
        self.offsetError = offsetError
        self.exponent = exponent
        self.exponentError = exponentError
        self.covariance = covariance
        self.centre = centre
        self.pairs = pairs
        self.residual = residual
        self.outliers = outliers
    }

    /// What the fit says the gateway reads above the model at `distance` metres (dB), and its 1-σ.
    public func level(at distance: Double) -> (value: Double, error: Double) {
        let x = -10 * log10(max(distance, 0.1))
        let variance = offsetError * offsetError + 2 * x * covariance + x * x * exponentError * exponentError
        return (offset + exponent * x, max(0, variance).squareRoot())
    }

    /// Whether `fresh` says this gateway hears differently now (moved, a new cupboard): the level it
    /// reads at the fresh fit's centre moved by more than `offsetChange` dB, or its exponent by more than
    /// `exponentChange`, beyond twice the two fits' combined uncertainty. The level is compared where the
    /// pairs are, not at 1 m, where offset and exponent trade off against each other.
    public func isContradicted(by fresh: GatewayFit, offsetChange: Double = 3, exponentChange: Double = 0.5) -> Bool {
        let old = level(at: fresh.centre), new = fresh.level(at: fresh.centre)
        let levelSpread = (old.error * old.error + new.error * new.error).squareRoot()
        let exponentSpread = (exponentError * exponentError + fresh.exponentError * fresh.exponentError).squareRoot()
        return abs(new.value - old.value) > offsetChange + 2 * levelSpread
            || abs(fresh.exponent - exponent) > exponentChange + 2 * exponentSpread
    }
}

/// The gateways of a site fitted from how they hear each other's beacons.
public struct SiteCalibration: Equatable, Sendable {
    /// One per gateway that heard at least one other gateway's beacon, by gateway index.
    public var gateways: [GatewayFit]
    /// The robust scale of every pair's residual, dB: how well the log-distance model holds at the site.
    public var scatter: Double
    /// Pairs in the fit.
    public var pairs: Int

    public init(gateways: [GatewayFit], scatter: Double, pairs: Int) {
        self.gateways = gateways
        self.scatter = scatter
        self.pairs = pairs
    }

    public func fit(ofGateway index: Int) -> GatewayFit? { gateways.first { $0.gateway == index } }
}

/// Fits each gateway's RSSI offset and path-loss exponent from the gateways' readings of each other's
/// beacons at the distances the site gives.
///
/// Model: the receiver i of transmitter j reads `measuredPower_j + offset_i − 10 · exponent_i · log10(d_ij)
/// − walls_ij`, d in 3-D (each gateway at its height on its floor), walls the site's between the two.
/// A receiver's offset and a transmitter's power enter only as their sum, so the transmitter is pinned to
/// the power its beacon advertises: a transmitter that is louder than it says shows as every receiver
/// reading it high, which the robust loss sets aside when the others agree. Only pairs on one floor count
/// (floors between are not modelled).
///
/// The fit is iteratively reweighted least squares: Huber weights to converge, then Tukey's biweight so a
/// pair far off the model (a gateway behind a wall the site does not have) gets no weight at all. The
/// residual scale is one for the whole site (the median absolute residual of every pair), so a receiver
/// with few pairs is judged against what every pair shows. Weak priors (offset 0 ± `offsetPrior` dB,
/// exponent `exponentPrior` ± `exponentPriorSpread`) keep a gateway that heard one other, or others all at
/// one distance, finite: its uncertainty then says the prior decided.
public enum GatewayCalibration {
    /// Offset prior's 1-σ, dB.
    public static let offsetPrior = 10.0
    /// Exponent prior's 1-σ.
    public static let exponentPriorSpread = 1.0
    /// Residual scale is taken as at least this, dB: RSSI arrives in whole dB.
    public static let minimumScatter = 0.5
    /// Residual scale when the pairs leave no degree of freedom to measure it, dB.
    public static let unmeasuredScatter = 4.0
    /// Huber's and Tukey's tuning constants, in residual scales (95 % efficiency at the normal).
    static let huber = 1.345
    static let tukey = 4.685
    /// A pair with a final weight below this is reported as an outlier.
    static let outlierWeight = 0.1

    /// The fit of `pairs` at `site`, exponents pulled weakly toward `exponentPrior`; nil when no pair is usable
    /// (none finite, every one a gateway with itself or across floors).
    public static func fit(_ pairs: [GatewayPair], site: Site, exponentPrior: Double) -> SiteCalibration? {
        let map = SiteMap(site: site)
        var links: [Link] = []
        for pair in pairs {
            let (i, j) = (pair.receiver, pair.transmitter)
            guard i != j, site.gateways.indices.contains(i), site.gateways.indices.contains(j),
                  pair.rssi.isFinite, pair.measuredPower.isFinite else { continue }
            let receiver = site.gateways[i], transmitter = site.gateways[j]
            guard receiver.floor == transmitter.floor else { continue }
            let dz = map.elevation(ofGateway: i) - map.elevation(ofGateway: j)
            let flat = receiver.point.distance(to: transmitter.point)
            let distance = max((flat * flat + dz * dz).squareRoot(), 0.1)
            let walls = site.wallsCrossed(from: receiver.point, to: transmitter.point, floor: receiver.floor)
            links.append(Link(receiver: i, transmitter: j, x: -10 * log10(distance),
                              y: pair.rssi - pair.measuredPower + walls))
        }
        guard !links.isEmpty, exponentPrior.isFinite else { return nil }
        let receivers = Array(Set(links.map(\.receiver))).sorted()
        let byReceiver = Dictionary(grouping: links.indices, by: { links[$0].receiver })
        var weights = [Double](repeating: 1, count: links.count)
        var solutions: [Int: Solution] = [:]
        let freedom = links.count - 2 * receivers.count
        var scatter = unmeasuredScatter
        // Huber weights (and the scale) until they settle, then Tukey's at that scale: an MM-estimate.
        for tukeyPhase in [false, true] {
            for _ in 0..<40 {
                for receiver in receivers {
                    solutions[receiver] = solve(byReceiver[receiver]!.map { (links[$0], weights[$0]) }, scatter: scatter,
                                                exponentPrior: exponentPrior)
                }
                let residuals = links.map { $0.y - solutions[$0.receiver]!.predict($0.x) }
                if !tukeyPhase, freedom > 0 {
                    let mad = OrderStatistics.quantile(sorted: residuals.map(abs).sorted(), 0.5)
                    scatter = max(minimumScatter, 1.4826 * mad * (Double(links.count) / Double(freedom)).squareRoot())
                }
                var change = 0.0
                for k in links.indices {
                    let u = abs(residuals[k]) / scatter
                    let weight: Double
                    if tukeyPhase {
                        let t = u / tukey
                        weight = t < 1 ? (1 - t * t) * (1 - t * t) : 0
                    } else {
                        weight = u <= huber ? 1 : huber / u
                    }
                    change = max(change, abs(weight - weights[k]))
                    weights[k] = weight
                }
                if change < 1e-6 { break }
            }
        }
        let fits = receivers.map { receiver -> GatewayFit in
            let members = byReceiver[receiver]!
            let solution = solve(members.map { (links[$0], weights[$0]) }, scatter: scatter, exponentPrior: exponentPrior)
            let squares = members.reduce(0.0) { sum, k in
                let r = links[k].y - solution.predict(links[k].x)
                return sum + r * r
            }
            let meanX = members.reduce(0.0) { $0 + links[$1].x } / Double(members.count)
            return GatewayFit(gateway: receiver, offset: solution.offset, offsetError: solution.offsetError,
                              exponent: solution.exponent, exponentError: solution.exponentError,
                              covariance: solution.covariance, centre: pow(10, -meanX / 10), pairs: members.count,
                              residual: (squares / Double(members.count)).squareRoot(),
                              outliers: members.filter { weights[$0] < outlierWeight }.map { links[$0].transmitter }.sorted())
        }
        return SiteCalibration(gateways: fits, scatter: scatter, pairs: links.count)
    }

    /// One pair as the fit sees it: y = offset + exponent · x.
    private struct Link {
        var receiver: Int
        var transmitter: Int
        /// −10 · log10(distance).
        var x: Double
        /// RSSI less the transmitter's measured power, walls added back.
        var y: Double
    }

    private struct Solution {
        var offset: Double
        var exponent: Double
        var offsetError: Double
        var exponentError: Double
        var covariance: Double

        func predict(_ x: Double) -> Double { offset + exponent * x }
    }

    /// The weighted least-squares line through one receiver's pairs with the priors, and its covariance
    /// at residual scale `scatter`.
    private static func solve(_ points: [(Link, Double)], scatter: Double, exponentPrior: Double) -> Solution {
        let s2 = scatter * scatter
        // Normal equations in units of the scale: (XᵀWX / s² + P) θ = XᵀWy / s² + P θ₀.
        var a = 1 / (offsetPrior * offsetPrior), b = 0.0
        var c = 1 / (exponentPriorSpread * exponentPriorSpread)
        var u = 0.0, v = exponentPrior * c
        for (link, weight) in points {
            let w = weight / s2
            a += w
            b += w * link.x
            c += w * link.x * link.x
            u += w * link.y
            v += w * link.x * link.y
        }
        let determinant = a * c - b * b
        let offset = (c * u - b * v) / determinant
        let exponent = (a * v - b * u) / determinant
        return Solution(offset: offset, exponent: exponent,
                        offsetError: (c / determinant).squareRoot(), exponentError: (a / determinant).squareRoot(),
                        covariance: -b / determinant)
    }
}
