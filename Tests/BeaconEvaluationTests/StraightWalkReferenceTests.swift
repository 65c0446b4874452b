import BeaconCore
import BeaconEvaluation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The straight-walk reference on readings made from its own path-loss model, without noise.
@Suite("Straight-walk reference")
struct StraightWalkReferenceTests {
    static let site = FleetScenes.companionSite

    static func at(_ seconds: Double) -> Timestamp { Timestamp(microseconds: Int64(seconds * 1_000_000)) }

    /// Every gateway's readings message at `seconds`: the RSSI at `point` from `power` at 1 m with exponent 3.
    static func messages(at seconds: Double, point: Point2, power: Double = -59, gateways: ArraySlice<SiteGateway> = site.gateways[...])
        -> [GatewayReadings] {
        gateways.map { gateway in
            let distance = max(0.1, gateway.point.distance(to: point))
            let rssi = power - 30 * log10(distance)
            return GatewayReadings(gateway: gateway.name, time: at(seconds), sequence: Int(seconds),
                                   readings: [BeaconReading(id: "tag", rssi: rssi, filteredRSSI: rssi, spread: 0, samples: 1,
                                                            measuredPower: -59, accuracy: distance)])
        }
    }

    static func reference(_ motion: StraightWalkReference.Motion, scatter: Double = 0.2) -> StraightWalkReference {
        StraightWalkReference(site: site, exponent: 3, scatter: scatter, motion: motion)
    }

    @Test("a still beacon is placed where its readings were made, whatever its power at 1 m", arguments: [-59.0, -75.0])
    func stillBeaconIsPlaced(power: Double) throws {
        var reference = Self.reference(.walker)
        let place = Point2(x: 4.6, y: 1.3)
        var estimate = RoomEstimate(time: Self.at(0), room: nil)
        for second in 1...5 {
            for message in Self.messages(at: Double(second), point: place, power: power) { reference.add(message) }
            estimate = reference.estimate(of: "tag", at: Self.at(Double(second)))
        }
        #expect(estimate.room == "bedroom")
        let x = try #require(estimate.x), y = try #require(estimate.y)
        #expect(abs(x - place.x) < 0.05 && abs(y - place.y) < 0.05, "\(estimate)")
    }

    @Test("a walk held at one speed and heading is followed without lag: the bedroom is named within a second of the wall")
    func straightWalkIsFollowed() throws {
        var reference = Self.reference(.held)
        var bedroomFrom: Double?
        var lastError = Double.infinity
        // 0.1 m/s along y = 2 from x = 2: across the wall at x = 4 after 20 s.
        for second in 1...30 {
            let t = Double(second), truth = Point2(x: 2 + 0.1 * t, y: 2)
            for message in Self.messages(at: t, point: truth) { reference.add(message) }
            let estimate = reference.estimate(of: "tag", at: Self.at(t))
            if estimate.room == "bedroom", bedroomFrom == nil { bedroomFrom = t }
            lastError = Point2(x: try #require(estimate.x), y: try #require(estimate.y)).distance(to: truth)
        }
        let named = try #require(bedroomFrom)
        #expect(named >= 20 && named <= 21, "named the bedroom at \(named) s")
        #expect(lastError < 0.05)
    }

    @Test("one gateway's reading gives no fix, a place is carried on between fixes, a beacon never heard has none")
    func tooFewReadingsGiveNoPlace() {
        var reference = Self.reference(.walker)
        for message in Self.messages(at: 1, point: Point2(x: 1, y: 1), gateways: Self.site.gateways.prefix(1)) { reference.add(message) }
        #expect(reference.estimate(of: "tag", at: Self.at(1)).x == nil)
        for message in Self.messages(at: 2, point: Point2(x: 1, y: 1)) { reference.add(message) }
        #expect(reference.estimate(of: "tag", at: Self.at(2)).room == "living")
        // Nothing new for two seconds: the filter carries its place on.
        let carried = reference.estimate(of: "tag", at: Self.at(4))
        #expect(carried.room == "living")
        #expect(reference.estimate(of: "other", at: Self.at(4)).room == nil)
    }
}
