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

    static func observations(at point: Point2, rng: inout SplitMix64) -> [SignalObservation] {
        site.gateways.indices.map { index in
            let gateway = site.gateways[index]
            let dx = gateway.x - point.x, dy = gateway.y - point.y, dz = gateway.z - SignalModel().beaconHeight
            let distance = (dx * dx + dy * dy + dz * dz).squareRoot()
            let rssi = Double(LocatorFixture.measuredPower) - 10 * siteExponent * log10(distance) + 2 * rng.normal()
            return SignalObservation(gateway: index, rssi: rssi, sigma: 4, measuredPower: Double(LocatorFixture.measuredPower))
        }
    }

    /// The estimate after a minute of a beacon standing at `point`, with `hedge` and `receivers`.
    static func estimate(standingAt point: Point2, hedge: [Double], receivers: [SignalModel.Receiver] = [],
                         seed: UInt64) throws -> Point2 {
        var map = SiteMap(site: site)
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
