import BeaconCore
import BeaconSimulation
import BeaconEvaluation
import Testing

/// The room metrics on hand-made estimates and truth.
@Suite("Room scoring")
struct RoomScoringTests {
    static func at(_ seconds: Double) -> Timestamp { Timestamp(microseconds: Int64(seconds * 1_000_000)) }

    /// Standing in the west room for a second, walking 3 m east over two, standing in the east room.
    static let truth = [
        TruthPoint(time: at(0), x: 1, y: 1, room: "west"), TruthPoint(time: at(1), x: 1, y: 1, room: "west"),
        TruthPoint(time: at(2), x: 2, y: 1, room: "west"), TruthPoint(time: at(3), x: 4, y: 1, room: "east"),
        TruthPoint(time: at(4), x: 4, y: 1, room: "east"),
    ]
    /// Right until the truth enters the east room at 3 s; east at 3.5 s, back west at 3.7 s, east again at 3.9 s.
    static let estimates = [
        RoomEstimate(time: at(0), room: "west", x: 1, y: 1), RoomEstimate(time: at(1), room: "west", x: 1, y: 2),
        RoomEstimate(time: at(3.5), room: "east", x: 5, y: 1), RoomEstimate(time: at(3.7), room: "west", x: 2, y: 1),
        RoomEstimate(time: at(3.9), room: "east", x: 4, y: 1.5),
    ]

    static func near(_ value: Double?, _ expected: Double) -> Bool {
        value.map { abs($0 - expected) < 1e-9 } ?? false
    }

    @Test func roomTimeIsSplitAtEachEstimateAndTheTruthHoldsUntilItsNextPoint() {
        let tally = RoomTally(estimates: Self.estimates, truth: Self.truth)
        #expect(tally.scoredTime == 4)
        // Right 0–3 s, 3.5–3.7 s and 3.9–4 s; wrong 3–3.5 s and 3.7–3.9 s.
        #expect(Self.near(tally.rightTime, 3.3) && Self.near(tally.wrongTime, 0.7))
        let scores = tally.scores
        #expect(Self.near(scores[.roomAccuracy], 82.5) && Self.near(scores[.wrongRoom], 17.5))
    }

    @Test func positionErrorsAreTakenAtEachTruthPointFromTheEstimateHoldingThen() {
        let tally = RoomTally(estimates: Self.estimates, truth: Self.truth)
        // (1,1)–(1,1), (1,2)–(1,1), (1,2)–(2,1), (1,2)–(4,1), (4,1.5)–(4,1).
        let expected = [0, 1, 2.0.squareRoot(), 10.0.squareRoot(), 0.5]
        #expect(zip(tally.positionErrors, expected).allSatisfy { abs($0 - $1) < 1e-9 } && tally.positionErrors.count == 5)
        let scores = tally.scores
        #expect(Self.near(scores[.positionMedian], 1))
        #expect(Self.near(scores[.positionP90], 2.0.squareRoot() + 0.6 * (10.0.squareRoot() - 2.0.squareRoot())))
        #expect(Self.near(scores[.positionP95], 2.0.squareRoot() + 0.8 * (10.0.squareRoot() - 2.0.squareRoot())))
    }

    @Test func flapsAreRoomChangesWhileStandingStillButNotTheFirstArrival() {
        let tally = RoomTally(estimates: Self.estimates, truth: Self.truth)
        // 3.5 s is the arrival; 3.7 s and 3.9 s are flaps; the truth stood still 0–1 s and 3–4 s.
        #expect(tally.flaps == 2 && tally.standingTime == 2)
        #expect(Self.near(tally.scores[.roomFlaps], 3600))
    }

    @Test func aRoomChangeWhileWalkingIsNoFlap() {
        let estimates = [RoomEstimate(time: Self.at(0), room: "west"), RoomEstimate(time: Self.at(1.5), room: "east"),
                         RoomEstimate(time: Self.at(2.5), room: "west")]
        #expect(RoomTally(estimates: estimates, truth: Self.truth).flaps == 0)
    }

    @Test func arrivalIsTheTimeFromEnteringARoomToTheEstimateNamingIt() {
        #expect(RoomTally(estimates: Self.estimates, truth: Self.truth).arrivals == [0.5])
        // Naming the room before the truth enters it is an arrival of zero.
        let early = [RoomEstimate(time: Self.at(0), room: "west"), RoomEstimate(time: Self.at(2.5), room: "east")]
        #expect(RoomTally(estimates: early, truth: Self.truth).arrivals == [0])
    }

    @Test func noEstimatesScoreNoRoomNoPositionAndNeverArrive() {
        let tally = RoomTally(estimates: [], truth: Self.truth)
        let scores = tally.scores
        #expect(scores[.roomAccuracy] == 0 && scores[.wrongRoom] == 0)
        #expect(scores[.positionMedian] == nil && scores[.roomFlaps] == 0)
        #expect(scores[.roomArrival] == .infinity && Metric.roomArrival.format(.infinity) == "never")
        #expect(RoomTally(estimates: Self.estimates, truth: []).scores.isEmpty)
    }

    @Test func talliesOfSeveralRunsAddUp() {
        var total = RoomTally(estimates: Self.estimates, truth: Self.truth)
        total.add(RoomTally(estimates: [], truth: Self.truth))
        #expect(total.scoredTime == 8 && total.flaps == 2 && total.arrivals == [0.5, .infinity])
        #expect(Self.near(total.scores[.roomAccuracy], 41.25) && Self.near(total.scores[.roomFlaps], 1800))
        #expect(total.scores[.roomArrival] == .infinity)
    }
}

@Suite("Fleet evaluation")
struct FleetEvaluationTests {
    static var shortDiagonal: FleetScene {
        var fleet = FleetScenes.diagonal
        fleet.seeds = [1, 2]
        return fleet
    }

    @Test("a run gives every gateway one readings message a second, in time order, and the beacon's truth each second")
    func runOfTheDiagonal() throws {
        let run = try FleetRun(FleetScenes.diagonal.scene, seed: 1)
        #expect(run.malformedPackets == 0)
        #expect(zip(run.events, run.events.dropFirst()).allSatisfy { $0.time <= $1.time })
        let beacon = "e2c56db5-dffb-48d2-b060-d0f5a71096e0-1-1"
        #expect(run.truth.keys.sorted() == [beacon])
        #expect(run.truth[beacon]?.count == 61)
        for gateway in FleetScenes.companionSite.gateways {
            let times = run.events.compactMap { event -> Timestamp? in
                guard case .readings(let message) = event, message.gateway == gateway.name else { return nil }
                return message.time
            }
            // A message each second from 1 s (the first tick) to the end, the last partial tick included.
            #expect(times.count >= 60, "\(gateway.name): \(times.count)")
            #expect(zip(times, times.dropFirst()).allSatisfy { $1 - $0 <= .seconds(1) })
        }
        #expect(!run.events.contains { if case .offline = $0 { true } else { false } })
    }

    @Test("a gateway whose capture ends early goes offline right after its last readings message")
    func offlineAfterTheLastMessage() throws {
        let run = try FleetRun(FleetScenes.gatewayOffline.scene, seed: 1)
        let index = try #require(run.events.firstIndex { if case .offline(let gateway, _) = $0 { gateway == "node-bedroom-se" } else { false } })
        let last = try #require(run.events.lastIndex { if case .readings(let message) = $0 { message.gateway == "node-bedroom-se" } else { false } })
        #expect(last < index)
        #expect(run.events[index].time == run.events[last].time)
        #expect(run.events[index].time <= SceneSimulator.defaultStart + .seconds(181))
    }

    @Test("the table has a row per rule and the published figures; it is the same every run")
    func table() throws {
        let table = try FleetEvaluation.evaluate(Self.shortDiagonal)
        // The diagonal is one straight walk: the references' rows follow the peers'.
        #expect(table.rows.map(\.model) == ["beacon locate", "beacon locate --smoothing 3s", "mqtt_room", "Bermuda", "ESPresense centroid",
                                              "nearest gateway", "reference: true path loss, speed and heading held",
                                              "reference: true path loss, a walker's changes of pace", FleetEvaluation.publishedRow])
        #expect(table.metrics == FleetEvaluation.metrics)
        #expect(table.rows.dropLast().allSatisfy { $0.scores[.roomAccuracy] != nil })
        // Only the rules that place the beacon have position errors; only beacon locate's rows a confidence and away lines.
        #expect(table.rows.dropLast().map { $0.scores[.positionMedian] != nil } == [true, true, false, false, true, true, true, true])
        #expect(table.rows.dropLast().map { $0.scores[.confidence] != nil } == [true, true, false, false, false, false, false, false])
        #expect(table.rows.dropLast().map { $0.scores[.falseAways] != nil } == [true, true, false, false, false, false, false, false])
        #expect(table.rows.last?.scores[.wrongRoom] == 6.6)
        #expect(ReportTable.render(table) == ReportTable.render(try FleetEvaluation.evaluate(Self.shortDiagonal)))
    }

    @Test("the smoothed row answers for each second with its line for that second, and its delay counts in every time to the room")
    func smoothedRow() throws {
        let run = try FleetRun(Self.shortDiagonal.scene, seed: 1)
        let found = FleetEvaluation.estimates(events: run.events, truth: run.truth, site: run.site)
        #expect(found.delays.prefix(2) == [Micros(0), FleetEvaluation.smoothing])
        // Past the first seconds (nothing heard yet), every second has a position, the last ones too: the held-back
        // lines come out when the run ends.
        let smoothed = try #require(found.estimates[1].first)
        #expect(smoothed.suffix(smoothed.count - 3).allSatisfy { $0.x != nil })
        let tallies = FleetEvaluation.tallies(events: run.events, truth: run.truth, site: run.site)
        #expect(!tallies[1].arrivals.isEmpty)
        #expect(tallies[1].arrivals.allSatisfy { $0 >= FleetEvaluation.smoothing.seconds })
    }
}
