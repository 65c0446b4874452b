import BeaconCore
import BeaconEvaluation
import Testing

/// The peers' room rules on hand-made reading streams.
@Suite("Peer room rules")
struct RoomRuleTests {
    /// Two 3 × 4 m rooms side by side; gateways a and c in the left room, b in the right.
    static let site = Site(
        rooms: [Room(name: "left", polygon: [Point2(x: 0, y: 0), Point2(x: 3, y: 0), Point2(x: 3, y: 4), Point2(x: 0, y: 4)]),
                Room(name: "right", polygon: [Point2(x: 3, y: 0), Point2(x: 6, y: 0), Point2(x: 6, y: 4), Point2(x: 3, y: 4)])],
        // c names no room: its position puts it in the left one.
        gateways: [SiteGateway(name: "a", x: 0, y: 0, z: 2, room: "left"), SiteGateway(name: "b", x: 6, y: 0, z: 2, room: "right"),
                   SiteGateway(name: "c", x: 0, y: 4, z: 2)])

    static func at(_ seconds: Double) -> Timestamp { Timestamp(microseconds: Int64(seconds * 1_000_000)) }

    static func room<Rule: DistanceRoomRule>(_ rule: inout Rule, _ readings: [(Double, String, Double)], at seconds: Double) -> String? {
        for (time, gateway, distance) in readings {
            rule.add(RoomReading(time: at(time), gateway: gateway, beacon: "tag", distance: distance))
        }
        return rule.estimate(of: "tag", at: at(seconds)).room
    }

    @Test func mqttRoomTakesACloserOtherRoomAtOnceAndAFurtherOneOnlyAfterTheTimeout() {
        var rule = MQTTRoomRule(site: Self.site)
        #expect(Self.room(&rule, [(0, "a", 2.0), (1, "b", 2.5)], at: 1) == "left")
        #expect(Self.room(&rule, [(2, "b", 1.9)], at: 2) == "right")
        // b's state was updated at 2 s; a's further reading waits until it is 5 s old.
        #expect(Self.room(&rule, [(6.9, "a", 3.0)], at: 6.9) == "right")
        #expect(Self.room(&rule, [(7, "a", 3.0)], at: 7) == "left")
    }

    @Test func mqttRoomSameRoomReadingsReplaceTheDistanceEvenWhenFurther() {
        var rule = MQTTRoomRule(site: Self.site)
        // c is in a's room: its 4 m replaces a's 1 m, so b's 3 m is closer.
        #expect(Self.room(&rule, [(0, "a", 1.0), (1, "c", 4.0), (2, "b", 3.0)], at: 2) == "right")
    }

    @Test func bermudaNeedsThirtyPercentDifferenceToWinOutright() {
        var rule = BermudaRule(site: Self.site)
        #expect(Self.room(&rule, [(0, "a", 2.0)], at: 0) == "left")
        // |1.6 − 2| / 1.8 = 22 %: not enough with a short history.
        #expect(Self.room(&rule, [(1, "b", 1.6), (1, "a", 2.0)], at: 1) == "left")
        // |1.4 − 2| / 1.7 = 35 %.
        #expect(Self.room(&rule, [(2, "b", 1.4), (2, "a", 2.0)], at: 2) == "right")
    }

    @Test func bermudaWinsOnHistoryAtFifteenPercentWhenItsWorstBeatsTheIncumbentsBest() {
        var rule = BermudaRule(site: Self.site)
        #expect(Self.room(&rule, [(0, "a", 2.0)], at: 0) == "left")
        // b at 1.7 m, a at 2.0 m: 16 % difference, below 30 %; b's worst (1.7) beats a's best (2.0)
        // once b has more than three readings.
        for second in 1...3 {
            #expect(Self.room(&rule, [(Double(second), "b", 1.7), (Double(second), "a", 2.0)], at: Double(second)) == "left")
        }
        #expect(Self.room(&rule, [(4, "b", 1.7), (4, "a", 2.0)], at: 4) == "right")
    }

    @Test func bermudaIgnoresChallengersOlderThanTenSecondsAndDropsAnIncumbentAfterThirty() {
        var rule = BermudaRule(site: Self.site)
        #expect(Self.room(&rule, [(0, "a", 3.0), (0, "b", 0.5)], at: 10.5) == nil)
        var other = BermudaRule(site: Self.site)
        #expect(Self.room(&other, [(0, "a", 1.0)], at: 0) == "left")
        // b is further but a has said nothing for more than 30 s.
        #expect(Self.room(&other, [(31, "b", 5.0)], at: 31) == "right")
    }

    @Test func bermudaTakesANearerGatewayOfTheSameRoomWhenTheIncumbentIsMoreThanASecondStaler() {
        var rule = BermudaRule(site: Self.site)
        #expect(Self.room(&rule, [(0, "a", 2.0)], at: 0) == "left")
        // c (left room too) is 5 % nearer: too little to win on distance, but a is 2 s staler.
        _ = Self.room(&rule, [(2, "c", 1.9)], at: 2)
        // Now c is the incumbent: b at 1.45 m races c's 1.9 m (27 %, not enough) rather than a's 2.0 m (32 %).
        #expect(Self.room(&rule, [(2.5, "b", 1.45)], at: 2.5) == "left")
    }

    @Test func readingsComeFromAReadingsMessageLeavingOutUnknownDistances() {
        let heard = BeaconReading(id: "tag", rssi: -65, filteredRSSI: -65, spread: 0, samples: 3, measuredPower: -59, accuracy: 2)
        var unknown = heard
        unknown.id = "other"
        unknown.accuracy = -1
        let message = GatewayReadings(gateway: "a", time: Self.at(3), sequence: 1, readings: [heard, unknown])
        #expect(RoomReading.readings(message) == [RoomReading(time: Self.at(3), gateway: "a", beacon: "tag", distance: 2)])
    }

    @Test func centroidWeighsGatewaysByInverseSquaredDistance() {
        var rule = GatewayPlacementRule.centroid(site: Self.site)
        for (gateway, distance) in [("a", 1.0), ("b", 1.0), ("c", 1.0)] {
            rule.add(RoomReading(time: Self.at(0), gateway: gateway, beacon: "tag", distance: distance))
        }
        let equal = rule.estimate(of: "tag", at: Self.at(0))
        #expect(abs((equal.x ?? 0) - 2) < 1e-6 && abs((equal.y ?? 0) - 4.0 / 3) < 1e-6 && equal.room == "left")
        // b twice as close: weight 4 against 1 and 1, x = 6 × 4 / 6 = 4.
        rule.add(RoomReading(time: Self.at(1), gateway: "b", beacon: "tag", distance: 0.5))
        let nearB = rule.estimate(of: "tag", at: Self.at(1))
        #expect(abs((nearB.x ?? 0) - 4) < 1e-5 && nearB.room == "right")
    }

    @Test func centroidOfTwoGatewaysIsTheirMidpointAndOfOneNothing() {
        var rule = GatewayPlacementRule.centroid(site: Self.site)
        rule.add(RoomReading(time: Self.at(0), gateway: "b", beacon: "tag", distance: 1))
        #expect(rule.estimate(of: "tag", at: Self.at(0)) == RoomEstimate(time: Self.at(0), room: nil))
        rule.add(RoomReading(time: Self.at(0), gateway: "c", beacon: "tag", distance: 5))
        let two = rule.estimate(of: "tag", at: Self.at(0))
        #expect(two.x == 3 && two.y == 2 && two.room == "left")
        // Readings older than the 30 s window are not heard.
        #expect(rule.estimate(of: "tag", at: Self.at(31)).room == nil)
    }

    @Test func nearestGatewayTakesTheSmallestRecentDistance() {
        var rule = GatewayPlacementRule.nearestGateway(site: Self.site)
        #expect(Self.room(&rule, [(0, "b", 0.5), (4, "a", 2.0)], at: 4) == "right")
        // b's reading is now more than 5 s old.
        let later = rule.estimate(of: "tag", at: Self.at(5.5))
        #expect(later.room == "left" && later.x == 0 && later.y == 0)
    }
}
