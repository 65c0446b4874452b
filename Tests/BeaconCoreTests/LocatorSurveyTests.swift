import BeaconCore
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The fuser with a survey's radio map, on `LocatorFixture`'s two rooms: readings from a field the site
/// file does not describe (a cabinet by gateway gw1 that takes 12 dB off everything it hears from room B).
@Suite struct LocatorSurveyTests {
    typealias F = LocatorFixture
    /// The fixture's rooms with two more gateways, on the wall between them: six, so that one of them is
    /// checked against five others.
    static let site = Site(rooms: F.site.rooms, gateways: F.site.gateways + [SiteGateway(name: "gw5", x: 3, y: 0), SiteGateway(name: "gw6", x: 3, y: 4)])

    /// What `gateway` hears from a beacon at `point`, with the cabinet, when the gateway stands at `from`.
    static func field(_ gateway: SiteGateway, _ point: Point2, from: Point2? = nil) -> Double {
        let place = from ?? gateway.point
        let rssi = F.rssi(atDistance: place.distance(to: point))
        return gateway.name == "gw1" && point.x > 3 ? rssi - 12 : rssi
    }

    /// A person's survey: every metre of both rooms, 30 readings a point.
    static let survey: [SurveyPoint] = stride(from: 0.5, through: 5.5, by: 1).flatMap { x in
        stride(from: 0.5, through: 3.5, by: 1).flatMap { y in
            site.gateways.map { gateway in
                SurveyPoint(point: Point2(x: x, y: y), gateway: gateway.name, rssi: field(gateway, Point2(x: x, y: y)), samples: 30, spread: 1)
            }
        }
    }

    /// The beacon standing at `point` for `seconds`, each gateway's reading from the field with 2 dB of
    /// noise (gw1 heard as if it stood at `gw1At`); the last location line.
    static func locate(_ point: Point2, radio: RadioMap?, gw1At: Point2? = nil, seconds: Int = 30, filterSeed: UInt64 = 0,
                       warnings: inout [(gateway: String, deviation: Double, readings: Int)]) -> LocatedBeacon? {
        var settings = Locator.Settings()
        settings.filterSeed = filterSeed
        var locator = Locator(site: site, settings: settings, radio: radio)
        var rng = SplitMix64(seed: 7)
        var last: LocatedBeacon?
        for second in 1...seconds {
            let time = F.at(seconds: Double(second))
            for gateway in site.gateways {
                let noise = 2 * rng.normalPair().0
                let rssi = field(gateway, point, from: gateway.name == "gw1" ? gw1At : nil) + noise
                _ = locator.receive(GatewayReadings(gateway: gateway.name, time: time, sequence: second, readings: [F.reading(rssi: rssi)]),
                                    arrival: time)
            }
            locator.advance(arrival: time) { if let located = $0.located { last = located } }
            warnings += locator.surveyWarnings()
        }
        return last
    }

    @Test func aSurveyPlacesABeaconWhereTheDistanceModelIsWrong() throws {
        let truth = Point2(x: 4.5, y: 2)
        var warnings: [(gateway: String, deviation: Double, readings: Int)] = []
        let radio = RadioMap(site: Self.site, survey: Self.survey, model: SignalModel())
        // The mean error over a few draws of the filter: one draw's chance is not the survey's effect.
        var errorWithout = 0.0, errorWith = 0.0
        let draws: [UInt64] = [0, 1, 2, 3, 4]
        for seed in draws {
            let without = try #require(Self.locate(truth, radio: nil, filterSeed: seed, warnings: &warnings)?.fix)
            let with = try #require(Self.locate(truth, radio: radio, filterSeed: seed, warnings: &warnings)?.fix)
            #expect(with.point.distance(to: truth) < 0.5)
            errorWithout += without.point.distance(to: truth) / Double(draws.count)
            errorWith += with.point.distance(to: truth) / Double(draws.count)
        }
        #expect(errorWith < errorWithout / 2)
        #expect(warnings.isEmpty)
    }

    @Test func aGatewayMovedSinceTheSurveyIsWarnedAboutOnce() {
        var warnings: [(gateway: String, deviation: Double, readings: Int)] = []
        let radio = RadioMap(site: Self.site, survey: Self.survey, model: SignalModel())
        // In room B: gw1, now beside the beacon, hears it some 18 dB louder than the survey says.
        _ = Self.locate(Point2(x: 5, y: 2), radio: radio, gw1At: Point2(x: 6, y: 2), seconds: 120, warnings: &warnings)
        #expect(warnings.map(\.gateway) == ["gw1"])
        #expect(warnings.allSatisfy { $0.deviation > 2 && $0.readings == 60 })
    }

    @Test func aSurveyMadeWithAQuieterBeaconPlacesALouderOneAsWell() throws {
        let truth = Point2(x: 4.5, y: 2)
        let quieter = Self.survey.map { point in
            var point = point
            point.rssi = point.rssi.map { $0 - 9 }
            return point
        }
        var warnings: [(gateway: String, deviation: Double, readings: Int)] = []
        let fix = try #require(Self.locate(truth, radio: RadioMap(site: Self.site, survey: quieter, model: SignalModel()), warnings: &warnings)?.fix)
        #expect(fix.point.distance(to: truth) < 0.5)
        #expect(warnings.isEmpty)
    }
}
