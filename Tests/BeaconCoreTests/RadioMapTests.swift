import BeaconCore
import Foundation
import Testing

@Suite struct RadioMapTests {
    /// A 12 m square room, gateway "a" in one corner and "b" in the other, 2 m up.
    static let site = Site(rooms: [Room(name: "r", polygon: [Point2(x: 0, y: 0), Point2(x: 12, y: 0), Point2(x: 12, y: 12), Point2(x: 0, y: 12)])],
                           gateways: [SiteGateway(name: "a", x: 0, y: 0, z: 2), SiteGateway(name: "b", x: 12, y: 12, z: 2)])
    static let model = SignalModel()

    static func loss(_ gateway: Int, _ x: Double, _ y: Double) -> Double {
        RadioMap.pathLoss(site: site, gateway: gateway, at: Point2(x: x, y: y), floor: 0, model: model)
    }

    static func predict(_ map: inout RadioMap, _ gateway: Int, _ x: Double, _ y: Double, floor: Int) -> Prediction? {
        map.prediction(gateway: gateway, at: Point2(x: x, y: y), floor: floor).map { Prediction(correction: $0.correction, variance: $0.variance) }
    }

    struct Prediction: Equatable {
        var correction: Double
        var variance: Double
    }

    /// A point of gateway `gateway` heard as the distance model says from a beacon of -50 dBm at 1 m, plus `extra` dB.
    static func point(_ gateway: String, _ x: Double, _ y: Double, extra: Double = 0, samples: Int = 100) -> SurveyPoint {
        let index = gateway == "a" ? 0 : 1
        return SurveyPoint(point: Point2(x: x, y: y), gateway: gateway, rssi: -50 - loss(index, x, y) + extra, samples: samples, spread: 2)
    }

    /// Gateway "a" surveyed every 4 m over the room's west part; the places with x < 3 heard 8 dB louder
    /// than the distance model says (a reflection the site file does not know).
    static func westSurvey() -> [SurveyPoint] {
        [1.0, 5].flatMap { x in [1.0, 5, 9].map { y in point("a", x, y, extra: x < 3 ? 8 : 0) } }
    }

    @Test func atASurveyedPointTheMapGivesWhatWasMeasuredAndBetweenPointsItBlendsThem() throws {
        var map = RadioMap(site: Self.site, survey: Self.westSurvey(), model: Self.model)
        let loud = try #require(Self.predict(&map, 0, 1, 5, floor: 0))
        let quiet = try #require(Self.predict(&map, 0, 5, 5, floor: 0))
        #expect(abs(loud.correction - quiet.correction - 8) < 2.5)
        let between = try #require(Self.predict(&map, 0, 3, 5, floor: 0))
        #expect(between.correction < loud.correction - 1 && between.correction > quiet.correction + 1)
        // At a point: the point's own fading and a fresh reading's; between points more, far away most.
        #expect(loud.variance < (map.shadowingVariance + RadioMap.localVariance) / 2)
        #expect(between.variance > loud.variance + 1)
    }

    @Test func farOutsideTheSurveyTheMapFallsBackToTheDistanceModelWithAGrowingVariance() throws {
        var map = RadioMap(site: Self.site, survey: Self.westSurvey(), model: Self.model)
        let inside = try #require(Self.predict(&map, 0, 5, 5, floor: 0))
        let near = try #require(Self.predict(&map, 0, 8, 5, floor: 0))
        let far = try #require(Self.predict(&map, 0, 13.9, 13.9, floor: 0))
        #expect(inside.variance < near.variance && near.variance < far.variance)
        #expect(abs(far.variance - (map.shadowingVariance + RadioMap.localVariance)) < 0.5)
        // One gateway surveyed: no offset; far from the points no correction.
        #expect(map.offsets[0] == 0)
        #expect(abs(far.correction) < 0.5)
    }

    @Test func aGatewayAbsentFromTheSurveyIsTheDistanceModelAlone() {
        var map = RadioMap(site: Self.site, survey: Self.westSurvey(), model: Self.model)
        #expect(map.covers(gateway: 0, floor: 0))
        #expect(!map.covers(gateway: 1, floor: 0))
        #expect(!map.covers(gateway: 0, floor: 1))
        #expect(Self.predict(&map, 1, 5, 5, floor: 0) == nil)
        #expect(Self.predict(&map, 0, 5, 5, floor: 1) == nil)
        #expect(map.offsets[1] == nil)
    }

    @Test func drawnAtAnotherExponentTheMapMovesAsItsLeverageSaysAtThePointsBetweenThemAndBeyond() throws {
        // Both gateways surveyed at five places, each point a little off the model (distinct residuals, so
        // each median is one point's) and the shadowing at its floor under either exponent.
        let places = [(1.0, 1.0), (3, 5), (5, 2), (2, 8), (6, 6)]
        let survey = places.enumerated().flatMap { index, place in
            [Self.point("a", place.0, place.1, extra: 0.3 * Double(index)),
             Self.point("b", place.0, place.1, extra: -0.25 * Double(index) - 2)]
        }
        var steeper = Self.model
        let multiple = 1.005
        steeper.exponent *= multiple
        var map = RadioMap(site: Self.site, survey: survey, model: Self.model)
        var moved = RadioMap(site: Self.site, survey: survey, model: steeper)
        #expect(map.shadowingVariance == moved.shadowingVariance)
        let slope = 5 * Self.model.exponent / log(10.0)
        var leverages: [Double] = []
        for gateway in [0, 1] {
            for (x, y) in [(1.0, 1.0), (4, 3.5), (11, 11)] {
                let predicted = map.prediction(gateway: gateway, at: Point2(x: x, y: y), floor: 0)
                let movedPrediction = moved.prediction(gateway: gateway, at: Point2(x: x, y: y), floor: 0)
                let here = try #require(predicted), there = try #require(movedPrediction)
                let perUnit = (there.correction - here.correction) / ((multiple - 1) * slope)
                #expect(abs(perUnit - here.exponentLeverage) < 0.05, "gateway \(gateway) at (\(x), \(y))")
                leverages.append(here.exponentLeverage)
            }
        }
        // At a surveyed point the map holds the exponent it was measured at, so it moves with that place's
        // distance (1.7 m from gateway "a", against its median point's 5.5 m); far from them, with the level's.
        #expect(leverages[0] < leverages[2] - 0.5)
    }

    @Test func aGatewayHeardQuieterThanTheOthersEverywhereHasThatOffset() throws {
        let places = [(2.0, 2.0), (6, 6), (10, 3), (4, 9)]
        let survey = places.flatMap { [Self.point("a", $0.0, $0.1), Self.point("b", $0.0, $0.1, extra: -6)] }
        var map = RadioMap(site: Self.site, survey: survey, model: Self.model)
        let a = try #require(map.offsets[0]), b = try #require(map.offsets[1])
        #expect(abs(a - b - 6) < 1e-9)
        // The offset holds away from the points too.
        let far = try #require(Self.predict(&map, 1, 13, -1, floor: 0))
        #expect(abs(far.correction - b) < 1)
    }

    @Test func oneSurveyedPointGivesAFiniteMapWhoseVarianceGrowsAwayFromIt() throws {
        var map = RadioMap(site: Self.site, survey: [Self.point("a", 4, 4, extra: 5)], model: Self.model)
        let at = try #require(Self.predict(&map, 0, 4, 4, floor: 0))
        let away = try #require(Self.predict(&map, 0, 10, 10, floor: 0))
        #expect(at.correction.isFinite && away.correction.isFinite)
        #expect(abs(at.correction) < 0.5)  // its own level: nothing left to interpolate
        #expect(at.variance < away.variance)
        #expect(map.heard == 1)
    }

    @Test func duplicatePointsArePooledNotASingularMatrix() throws {
        let twice = [Self.point("a", 4, 4, extra: 2), Self.point("a", 4, 4, extra: 2), Self.point("a", 8, 8), Self.point("a", 8, 8)]
        var map = RadioMap(site: Self.site, survey: twice, model: Self.model)
        let at = try #require(Self.predict(&map, 0, 4, 4, floor: 0))
        let other = try #require(Self.predict(&map, 0, 8, 8, floor: 0))
        #expect(at.correction.isFinite && at.variance.isFinite)
        #expect(abs(at.correction - other.correction - 2) < 1)
        #expect(map.contradictions.isEmpty)
    }

    @Test func aPointAtOddsWithItsNeighboursIsAContradictionAndTheMapKeepsTheirMedian() throws {
        let survey = [Self.point("a", 4, 4), Self.point("a", 4.1, 4), Self.point("a", 4, 4.1, extra: 25), Self.point("a", 9, 9)]
        var map = RadioMap(site: Self.site, survey: survey, model: Self.model)
        #expect(map.contradictions.count == 1)
        let contradiction = try #require(map.contradictions.first)
        #expect(contradiction.gateway == "a" && contradiction.point == Point2(x: 4, y: 4.1))
        let at = try #require(Self.predict(&map, 0, 4, 4, floor: 0))
        #expect(abs(at.correction) < 1)
    }

    @Test func pointsNotHeardAndOfGatewaysTheSiteLacksAreCountedNotMapped() {
        let survey = [SurveyPoint(point: Point2(x: 1, y: 1), gateway: "a", rssi: nil, samples: 0),
                      SurveyPoint(point: Point2(x: 1, y: 1), gateway: "zz", rssi: -60, samples: 3)]
        let map = RadioMap(site: Self.site, survey: survey, model: Self.model)
        #expect(map.notHeard == 1 && map.heard == 0)
        #expect(map.unknownGateways == ["zz": 1])
        #expect(!map.covers(gateway: 0, floor: 0))
    }
}
