import BeaconCore
import Foundation
import Testing

@Suite("the position filter weighs every gateway that hears a beacon, the quiet ones too")
struct PositionFilterQuietGatewaysTests {
    /// A 20 × 16 m open office, twelve gateways 2.3 m up round its walls and in its middle; its readings
    /// (`PositionFilterHedgeTests.observations`) fall more slowly than the model's exponent says.
    static let office = Site(rooms: [Room(name: "office", polygon: LocatorFixture.rectangle(0, 0, 20, 16))],
                              gateways: [(0.0, 0.0), (10, 0), (20, 0), (20, 8), (20, 16), (10, 16), (0, 16), (0, 8), (7, 5), (13, 5), (7, 11), (13, 11)]
                                .enumerated().map { SiteGateway(name: "gw\($0.offset + 1)", x: $0.element.0, y: $0.element.1, z: 2.3) })

    @Test("a beacon twelve gateways hear is placed by all twelve: without the four quietest it is placed further off")
    func quietGatewaysCount() throws {
        let point = Point2(x: 3, y: 4)
        var errors = [8: [Double](), 12: [Double]()]
        for seed in UInt64(1)...10 {
            for count in [8, 12] {
                var map = SiteMap(site: Self.office)
                var filter = PositionFilter(seed: seed)
                var rng = SplitMix64(seed: seed &+ 100)
                for second in 1...60 {
                    let loudest = PositionFilterHedgeTests.observations(at: point, site: Self.office, scatter: 4, rng: &rng).sorted { $0.rssi > $1.rssi }.prefix(count)
                    filter.step(to: LocatorFixture.at(seconds: Double(second)), Array(loudest), map: &map, model: SignalModel())
                }
                errors[count, default: []].append(try #require(filter.centre).point.distance(to: point))
            }
        }
        let all = (errors[12] ?? []).reduce(0, +) / 10, loudest = (errors[8] ?? []).reduce(0, +) / 10
        #expect(all < 0.7)
        #expect(all < loudest - 0.2)
    }
}
