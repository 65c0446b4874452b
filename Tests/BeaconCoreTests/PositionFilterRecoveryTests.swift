import BeaconCore
import Testing

@Suite("the position filter finds a beacon again that its cloud has lost")
struct PositionFilterRecoveryTests {
    /// A 20 × 4 m corridor, gateways 1 m up at its corners and in the middle of its long walls.
    static let site = Site(rooms: [Room(name: "corridor", polygon: LocatorFixture.rectangle(0, 0, 20, 4))],
                           gateways: [(0.0, 0.0), (0, 4), (10, 0), (10, 4), (20, 0), (20, 4)].enumerated().map {
                               SiteGateway(name: "gw\($0.offset + 1)", x: $0.element.0, y: $0.element.1)
                           })

    static func observations(at point: Point2, rng: inout SplitMix64) -> [SignalObservation] {
        site.gateways.indices.map { index in
            let distance = site.gateways[index].point.distance(to: point)
            return SignalObservation(gateway: index, rssi: LocatorFixture.rssi(atDistance: distance) + rng.normal(), sigma: 2,
                                     measuredPower: Double(LocatorFixture.measuredPower))
        }
    }

    @Test("after the readings jump 17 m (the cloud standing at one end, beyond any walk's reach in seconds), the estimate is within 1.5 m of the new place 3 s later",
          arguments: [UInt64(1), 2, 3, 4, 5])
    func recoversFromAJump(seed: UInt64) throws {
        var map = SiteMap(site: Self.site)
        var filter = PositionFilter(seed: seed)
        var rng = SplitMix64(seed: seed &+ 100)
        let before = Point2(x: 1.5, y: 2), after = Point2(x: 18.5, y: 2)
        for second in 1...20 {
            filter.step(to: LocatorFixture.at(seconds: Double(second)), Self.observations(at: before, rng: &rng), map: &map, model: SignalModel())
        }
        let settled = try #require(filter.centre)
        #expect(settled.point.distance(to: before) < 1)
        for second in 21...23 {
            filter.step(to: LocatorFixture.at(seconds: Double(second)), Self.observations(at: after, rng: &rng), map: &map, model: SignalModel())
        }
        let found = try #require(filter.centre)
        #expect(found.point.distance(to: after) < 1.5, "\(found.point)")
    }
}
