import BeaconCore
import Foundation
import Testing

@Suite("the position filter hedges over the site's path-loss exponent")
struct PositionFilterHedgeTests {
    /// An open 12 × 12 m office, eight gateways 2.3 m up at its corners and the middles of its walls.
    static let site = Site(rooms: [Room(name: "office", polygon: LocatorFixture.rectangle(0, 0, 12, 12))],
                           gateways: [(0.0, 0.0), (6, 0), (12, 0), (12, 6), (12, 12), (6, 12), (0, 12), (0, 6)].enumerated().map {
                               SiteGateway(name: "gw\($0.offset + 1)", x: $0.element.0, y: $0.element.1, z: 2.3)
                           })
    /// The readings fall with distance as under receivers mounted high in an open office: more slowly
    /// than the model's exponent says.
    static let siteExponent = 1.6

    /// Each gateway of `site`'s reading of a beacon at `point`, falling at `siteExponent` with `scatter` dB of noise.
    static func observations(at point: Point2, site: Site = site, scatter: Double = 2, rng: inout SplitMix64) -> [SignalObservation] {
        site.gateways.indices.map { index in
            let gateway = site.gateways[index]
            let dx = gateway.x - point.x, dy = gateway.y - point.y, dz = gateway.z - SignalModel().beaconHeight
            let distance = (dx * dx + dy * dy + dz * dz).squareRoot()
            let rssi = Double(LocatorFixture.measuredPower) - 10 * siteExponent * log10(distance) + scatter * rng.normal()
            return SignalObservation(gateway: index, rssi: rssi, sigma: 4, measuredPower: Double(LocatorFixture.measuredPower))
        }
    }

    /// The estimate after a minute of a beacon standing at `point`, with `hedge`, `receivers` and a survey's `radio` map.
    static func estimate(standingAt point: Point2, hedge: [Double], receivers: [SignalModel.Receiver] = [],
                         radio: RadioMap? = nil, seed: UInt64) throws -> Point2 {
        var map = SiteMap(site: site, radio: radio)
        var filter = PositionFilter(seed: seed)
        var rng = SplitMix64(seed: seed &+ 100)
        var model = SignalModel()
        model.exponentHedge = hedge
        model.receivers = receivers
        for second in 1...60 {
            filter.step(to: LocatorFixture.at(seconds: Double(second)), observations(at: point, rng: &rng), map: &map, model: model)
        }
        return try #require(filter.centre).point
    }

    static func error(standingAt point: Point2, hedge: [Double], seed: UInt64) throws -> Double {
        try estimate(standingAt: point, hedge: hedge, seed: seed).distance(to: point)
    }

    @Test("a beacon 3 m in from a corner of a site flatter than the model is placed nearer with the hedge than held to the model's exponent",
          arguments: [UInt64(1), 2, 3, 4, 5])
    func flatterSite(seed: UInt64) throws {
        let point = Point2(x: 3, y: 4)
        let hedged = try Self.error(standingAt: point, hedge: SignalModel().exponentHedge, seed: seed)
        let held = try Self.error(standingAt: point, hedge: [1], seed: seed)
        #expect(hedged < 1.0)
        #expect(hedged < held - 0.3)
    }

    /// Every gateway surveyed on a 1 m grid in the office's north-east corner (x and y 9 to 12), each
    /// point the median of 100 readings as the site reads them.
    static func cornerSurvey() -> [SurveyPoint] {
        var rng = SplitMix64(seed: 7)
        var points: [SurveyPoint] = []
        for x in stride(from: 9.0, through: 12, by: 1) {
            for y in stride(from: 9.0, through: 12, by: 1) {
                let place = Point2(x: x, y: y)
                for observation in observations(at: place, rng: &rng) {
                    points.append(SurveyPoint(point: place, gateway: site.gateways[observation.gateway].name,
                                              rssi: observation.rssi, samples: 100, spread: 2))
                }
            }
        }
        return points
    }

    @Test("a surveyed gateway is hedged where its survey does not reach: a beacon 8 m from the surveyed corner is placed nearer than held",
          arguments: [UInt64(1), 2, 3, 4, 5])
    func beyondTheSurvey(seed: UInt64) throws {
        let point = Point2(x: 3, y: 4)
        let radio = RadioMap(site: Self.site, survey: Self.cornerSurvey(), model: SignalModel())
        #expect(Self.site.gateways.indices.allSatisfy { index in radio.covers(gateway: index, floor: 0) })
        let hedged = try Self.estimate(standingAt: point, hedge: SignalModel().exponentHedge, radio: radio, seed: seed).distance(to: point)
        let held = try Self.estimate(standingAt: point, hedge: [1], radio: radio, seed: seed).distance(to: point)
        #expect(hedged < 1.0)
        #expect(hedged < held - 0.3)
    }

    @Test("gateways whose exponent was measured are judged by it alone: the hedge changes nothing")
    func measuredExponents() throws {
        let point = Point2(x: 3, y: 4)
        let measured = Self.site.gateways.map { _ in SignalModel.Receiver(offset: 0, exponent: 2.5, measured: true) }
        let hedged = try Self.estimate(standingAt: point, hedge: SignalModel().exponentHedge, receivers: measured, seed: 1)
        let held = try Self.estimate(standingAt: point, hedge: [1], receivers: measured, seed: 1)
        #expect(hedged == held)
        let unmeasured = measured.map { SignalModel.Receiver(offset: $0.offset, exponent: $0.exponent) }
        #expect(try Self.estimate(standingAt: point, hedge: SignalModel().exponentHedge, receivers: unmeasured, seed: 1) != held)
    }
}
