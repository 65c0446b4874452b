@testable import BeaconCore
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Pairs built from the fit's own model with known offsets and exponents, so any error is the fit's.
private enum Truth {
    static let measuredPower = -59.0

    static func site(_ points: [(Double, Double)], walls: [Wall] = [], floors: [Int]? = nil) -> Site {
        let gateways = points.enumerated().map { index, point in
            SiteGateway(name: "gw\(index + 1)", x: point.0, y: point.1, floor: floors?[index] ?? 0)
        }
        return Site(rooms: [], gateways: gateways, walls: walls)
    }

    /// Every ordered pair of different gateways, the receiver's offset and exponent applied, the site's
    /// walls and `extraLoss` (dB on every link touching that gateway) taken off, `noise` dB added.
    static func pairs(_ site: Site, offsets: [Double], exponents: [Double], extraLoss: [Int: Double] = [:],
                      noise: Double = 0, seed: UInt64 = 7) -> [GatewayPair] {
        var rng = SplitMix64(seed: seed)
        var pairs: [GatewayPair] = []
        for i in site.gateways.indices {
            for j in site.gateways.indices where i != j {
                let a = site.gateways[i], b = site.gateways[j]
                let distance = max(a.point.distance(to: b.point), 0.1)
                var rssi = measuredPower + offsets[i] - 10 * exponents[i] * log10(distance)
                rssi -= site.wallsCrossed(from: a.point, to: b.point, floor: a.floor)
                rssi -= (extraLoss[i] ?? 0) + (extraLoss[j] ?? 0)
                rssi += noise * rng.normal()
                pairs.append(GatewayPair(receiver: i, transmitter: j, rssi: rssi, measuredPower: measuredPower))
            }
        }
        return pairs
    }

    /// Eight gateways round a 16 × 10 m floor, not on a grid: distances from 2 to 18 m.
    static let office = site([(0, 0), (6, 1), (15, 0), (16, 6), (10, 10), (3, 9), (8, 4.5), (12, 3)])
    static let offsets = [-6, 4.5, 0, 2, -3, 6, -1.5, 3.5]
    static let exponents = [1.5, 2.2, 3.5, 2.8, 1.9, 3.1, 2.5, 1.7]
}

@Suite("the gateways' self-calibration: each gateway's offset and exponent from how they hear each other")
struct GatewayCalibrationTests {
    @Test("eight gateways with offsets within ±6 dB and exponents 1.5–3.5, 0.3 dB of noise on each pair (a median of minutes of readings): each recovered within 2 dB and 0.3")
    func recoversTruth() throws {
        let pairs = Truth.pairs(Truth.office, offsets: Truth.offsets, exponents: Truth.exponents, noise: 0.3)
        let fit = try #require(GatewayCalibration.fit(pairs, site: Truth.office, exponentPrior: 2.5))
        #expect(fit.gateways.count == 8)
        #expect(fit.pairs == 56)
        for gateway in fit.gateways {
            #expect(abs(gateway.offset - Truth.offsets[gateway.gateway]) < 2, "\(gateway)")
            #expect(abs(gateway.exponent - Truth.exponents[gateway.gateway]) < 0.3, "\(gateway)")
            #expect(gateway.pairs == 7)
            #expect(gateway.offsetError > 0 && gateway.offsetError < 2 && gateway.exponentError < 0.3, "\(gateway)")
        }
        #expect(fit.scatter >= GatewayCalibration.minimumScatter && fit.scatter < 1, "\(fit.scatter)")
    }

    @Test("with 2 dB of noise on each pair, every error is within three of the fit's own 1-σ uncertainties")
    func honestUncertainty() throws {
        for seed in UInt64(1)...5 {
            let pairs = Truth.pairs(Truth.office, offsets: Truth.offsets, exponents: Truth.exponents, noise: 2, seed: seed)
            let fit = try #require(GatewayCalibration.fit(pairs, site: Truth.office, exponentPrior: 2.5))
            for gateway in fit.gateways {
                #expect(abs(gateway.offset - Truth.offsets[gateway.gateway]) < 3 * gateway.offsetError, "\(seed) \(gateway)")
                #expect(abs(gateway.exponent - Truth.exponents[gateway.gateway]) < 3 * gateway.exponentError, "\(seed) \(gateway)")
            }
        }
    }

    @Test("one gateway behind a wall the site does not have: the others' fits hold, and they set its beacon aside")
    func gatewayBehindAWall() throws {
        let pairs = Truth.pairs(Truth.office, offsets: Truth.offsets, exponents: Truth.exponents, extraLoss: [4: 15], noise: 0.3)
        let fit = try #require(GatewayCalibration.fit(pairs, site: Truth.office, exponentPrior: 2.5))
        for gateway in fit.gateways where gateway.gateway != 4 {
            #expect(abs(gateway.offset - Truth.offsets[gateway.gateway]) < 2, "\(gateway)")
            #expect(abs(gateway.exponent - Truth.exponents[gateway.gateway]) < 0.3, "\(gateway)")
            #expect(gateway.outliers == [4], "\(gateway)")
        }
        // Every link of its own goes through the wall: its fit takes the wall as its offset.
        let walled = try #require(fit.fit(ofGateway: 4))
        #expect(walled.offset < Truth.offsets[4] - 10, "\(walled)")
    }

    @Test("the site's walls are taken off the readings before the fit")
    func modelledWalls() throws {
        let site = Truth.site([(0, 0), (6, 1), (15, 0), (16, 6), (10, 10), (3, 9), (8, 4.5), (12, 3)],
                              walls: [Wall(from: Point2(x: 7, y: -1), to: Point2(x: 7, y: 11), attenuation: 8)])
        let pairs = Truth.pairs(site, offsets: Truth.offsets, exponents: Truth.exponents)
        let fit = try #require(GatewayCalibration.fit(pairs, site: site, exponentPrior: 2.5))
        for gateway in fit.gateways {
            #expect(abs(gateway.offset - Truth.offsets[gateway.gateway]) < 0.5, "\(gateway)")
            #expect(abs(gateway.exponent - Truth.exponents[gateway.gateway]) < 0.05, "\(gateway)")
            #expect(gateway.outliers.isEmpty)
        }
    }

    @Test("gateways along a corridor, one line: distances still differ, and the fit recovers them")
    func collinear() throws {
        let site = Truth.site([(0, 0), (2, 0), (5, 0), (9, 0), (14, 0), (20, 0)])
        let offsets = [3.0, -2, 5, -5, 0, 1], exponents = [1.6, 2.0, 2.6, 3.4, 2.2, 3.0]
        let fit = try #require(GatewayCalibration.fit(Truth.pairs(site, offsets: offsets, exponents: exponents), site: site, exponentPrior: 2.5))
        for gateway in fit.gateways {
            #expect(abs(gateway.offset - offsets[gateway.gateway]) < 0.5, "\(gateway)")
            #expect(abs(gateway.exponent - exponents[gateway.gateway]) < 0.1, "\(gateway)")
        }
    }

    @Test("two gateways: each heard one other, the fit is finite, rests on the prior, and says so in its uncertainty")
    func twoGateways() throws {
        let site = Truth.site([(0, 0), (5, 0)])
        let fit = try #require(GatewayCalibration.fit(Truth.pairs(site, offsets: [2, -2], exponents: [2, 3]), site: site, exponentPrior: 2.5))
        #expect(fit.gateways.count == 2)
        for gateway in fit.gateways {
            #expect(gateway.offset.isFinite && gateway.exponent.isFinite)
            #expect(gateway.pairs == 1)
            #expect(gateway.exponentError > 0.5, "\(gateway)")
            #expect(gateway.offsetError > 3, "\(gateway)")
        }
        #expect(fit.scatter == GatewayCalibration.unmeasuredScatter)
    }

    @Test("three gateways all the same distance apart: the exponent cannot be told from the offset, and stays near the prior")
    func equalDistances() throws {
        let site = Truth.site([(0, 0), (6, 0), (3, 6 * 3.0.squareRoot() / 2)])
        let fit = try #require(GatewayCalibration.fit(Truth.pairs(site, offsets: [0, 0, 0], exponents: [3, 3, 3]), site: site, exponentPrior: 2.5))
        for gateway in fit.gateways {
            #expect(abs(gateway.exponent - 2.5) < 0.6, "\(gateway)")
            #expect(gateway.exponentError > 0.5, "\(gateway)")
        }
    }

    @Test("no pairs, only NaN, only a gateway with itself, across floors or unknown gateways: no fit")
    func nothingToFit() {
        let site = Truth.site([(0, 0), (5, 0), (0, 5)], floors: [0, 0, 1])
        #expect(GatewayCalibration.fit([], site: site, exponentPrior: 2.5) == nil)
        #expect(GatewayCalibration.fit([GatewayPair(receiver: 0, transmitter: 1, rssi: .nan, measuredPower: -59),
                                        GatewayPair(receiver: 1, transmitter: 0, rssi: -70, measuredPower: .infinity)],
                                       site: site, exponentPrior: 2.5) == nil)
        #expect(GatewayCalibration.fit([GatewayPair(receiver: 0, transmitter: 0, rssi: -40, measuredPower: -59),
                                        GatewayPair(receiver: 0, transmitter: 2, rssi: -70, measuredPower: -59),
                                        GatewayPair(receiver: 0, transmitter: 9, rssi: -70, measuredPower: -59),
                                        GatewayPair(receiver: -1, transmitter: 1, rssi: -70, measuredPower: -59)],
                                       site: site, exponentPrior: 2.5) == nil)
        let pair = GatewayPair(receiver: 0, transmitter: 1, rssi: -75, measuredPower: -59)
        #expect(GatewayCalibration.fit([pair], site: site, exponentPrior: .nan) == nil)
    }

    @Test("a NaN among good pairs is left out, and the rest fit as without it")
    func nanAmongGood() throws {
        var pairs = Truth.pairs(Truth.office, offsets: Truth.offsets, exponents: Truth.exponents)
        let clean = try #require(GatewayCalibration.fit(pairs, site: Truth.office, exponentPrior: 2.5))
        pairs.append(GatewayPair(receiver: 2, transmitter: 3, rssi: .nan, measuredPower: -59))
        pairs.append(GatewayPair(receiver: 3, transmitter: 2, rssi: -60, measuredPower: -.infinity))
        #expect(GatewayCalibration.fit(pairs, site: Truth.office, exponentPrior: 2.5) == clean)
    }

    @Test("a fit is contradicted by a level 3 dB or an exponent 0.5 away beyond twice their uncertainty, not by less")
    func contradiction() {
        let old = GatewayFit(gateway: 0, offset: 0, offsetError: 0.5, exponent: 2, exponentError: 0.1, pairs: 5, residual: 1, outliers: [])
        var fresh = old
        fresh.offset = 4
        #expect(!old.isContradicted(by: fresh))  // 4 < 3 + 2 · 0.71
        fresh.offset = 4.6
        #expect(old.isContradicted(by: fresh))
        fresh.offset = 0
        fresh.exponent = 2.7
        #expect(!old.isContradicted(by: fresh))  // 0.7 < 0.5 + 2 · 0.14
        fresh.exponent = 2.9
        #expect(old.isContradicted(by: fresh))
        fresh.exponent = 2.9
        fresh.exponentError = 1
        #expect(!old.isContradicted(by: fresh))
    }

    @Test("offset and exponent that trade off along the pairs (the same level at their centre) do not contradict")
    func levelNotIntercept() {
        // Offset error 3 dB at 1 m, exponent 0.3, almost perfectly anticorrelated: sure of the level at 5 m.
        let x = -10 * log10(5.0)
        let old = GatewayFit(gateway: 0, offset: 0, offsetError: 3, exponent: 2, exponentError: 3 / abs(x),
                             covariance: -0.99 * 3 * 3 / x, centre: 5, pairs: 6, residual: 1, outliers: [])
        var fresh = old
        fresh.offset = 3
        fresh.exponent = 2 - 3 / x  // the same level at 5 m
        #expect(!old.isContradicted(by: fresh))
        fresh.exponent = 2  // 3 dB higher at 5 m, with a level error of about 0.4 dB each
        #expect(old.level(at: 5).error < 0.5)
        #expect(!old.isContradicted(by: fresh))
        fresh.offset = 5
        #expect(old.isContradicted(by: fresh))
    }
}
