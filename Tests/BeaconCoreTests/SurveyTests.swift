import BeaconCore
import Testing

@Suite("survey: a beacon's levels at a point, per gateway, and the walk that places readings on a path")
struct SurveyTests {
    static let beacon = "e2c56db5-dffb-48d2-b060-d0f5a71096e0-1-1"
    static let site = Site(rooms: [Room(name: "hall", polygon: [Point2(x: 0, y: 0), Point2(x: 10, y: 0), Point2(x: 10, y: 10), Point2(x: 0, y: 10)])],
                           gateways: [SiteGateway(name: "gw1", x: 1, y: 1), SiteGateway(name: "gw2", x: 9, y: 1), SiteGateway(name: "gw3", x: 5, y: 9)])
    static let start = Timestamp(microseconds: 1_767_225_600_000_000)

    static func at(seconds: Double) -> Timestamp { start + Micros(Int64(seconds * 1_000_000)) }

    /// A readings message of `gateway` at `seconds` after the start, the beacon at `rssi` (heard `samples`
    /// times) or, for nil, not in it.
    static func tick(_ gateway: String, _ seconds: Double, rssi: Double?, samples: Int = 10) -> GatewayReadings {
        let readings = rssi.map { [BeaconReading(id: beacon, rssi: $0, filteredRSSI: $0, spread: 1, samples: samples, measuredPower: -59, accuracy: 1)] } ?? []
        return GatewayReadings(gateway: gateway, time: at(seconds: seconds), sequence: Int(seconds) + 1, readings: readings)
    }

    /// The median of the readings themselves: each tick's mean repeated once per sample.
    static func expandedMedian(_ ticks: [(Double, Int)]) -> Double {
        OrderStatistics.quantile(sorted: ticks.flatMap { Array(repeating: $0.0, count: $0.1) }.sorted(), 0.5)
    }

    // MARK: - Levels

    @Test("the weighted median and MAD spread are those of the readings, each at its tick's mean",
          arguments: [[(-60.0, 1)], [(-60.0, 1), (-70.0, 1)], [(-60.0, 3), (-70.0, 1), (-65.0, 2)],
                      [(-80.0, 10), (-60.0, 1), (-61.0, 1), (-62.0, 9)], [(-50.0, 4), (-90.0, 4)]])
    func levels(ticks: [(Double, Int)]) throws {
        var levels = SurveyLevels()
        for (rssi, samples) in ticks { levels.add(rssi: rssi, samples: samples) }
        let median = Self.expandedMedian(ticks)
        #expect(levels.median == median)
        let deviations = ticks.map { (abs($0.0 - median), $0.1) }
        #expect(levels.spread == (ticks.count < 2 ? nil : Self.expandedMedian(deviations) * 1.4826))
        #expect(levels.samples == ticks.reduce(0) { $0 + $1.1 })
    }

    @Test("nothing heard: no median, no spread, no samples; a tick without samples or with a non-finite mean adds nothing")
    func nothingHeard() {
        var levels = SurveyLevels()
        levels.add(rssi: -60, samples: 0)
        levels.add(rssi: .nan, samples: 3)
        #expect(levels.median == nil && levels.spread == nil && levels.samples == 0)
        // One tick heard after them: a single tick has no spread, so neither of the two was kept.
        levels.add(rssi: -70, samples: 2)
        #expect(levels.median == -70 && levels.spread == nil && levels.samples == 2)
    }

    // MARK: - Lines

    @Test("a survey file line and a stdout survey line: a heard gateway, and one not heard (rssi null, samples 0, no spread)")
    func lines() {
        let heard = SurveyPoint(point: Point2(x: 3.2, y: 1.5), floor: 1, gateway: "gw1", rssi: -71.5, samples: 3400, spread: 2.966, time: Self.start)
        #expect(SurveyLine.encode(heard)
            == #"{"x":3.20,"y":1.50,"floor":1,"gateway":"gw1","rssi":-71.5,"samples":3400,"spread":2.97,"time":"2026-01-01T00:00:00.000Z"}"#)
        let notHeard = SurveyPoint(point: Point2(x: 3.2, y: 1.5), gateway: "gw\"2", rssi: nil, samples: 0)
        #expect(SurveyLine.encode(notHeard) == #"{"x":3.20,"y":1.50,"floor":0,"gateway":"gw\"2","rssi":null,"samples":0}"#)
        #expect(SurveyLine.event(notHeard, beacon: Self.beacon, time: Self.start)
            == #"{"event":"survey","time":"2026-01-01T00:00:00.000Z","beacon":"\#(Self.beacon)","x":3.20,"y":1.50,"floor":0,"gateway":"gw\"2","rssi":null,"samples":0}"#)
    }

    // MARK: - Still point

    /// A still point of 10 s at (4, 5): gw1 hears `gw1` at each tick, gw2 reports without the beacon,
    /// gw3 says nothing; every gateway reports to `through` seconds.
    func still(_ gw1: (Int) -> Double?, samples: Int = 10, lateness: Micros? = nil, through: Int = 11) -> SurveyRecorder {
        var recorder = SurveyRecorder(site: Self.site, beacon: Self.beacon, plan: .still(at: Point2(x: 4, y: 5), duration: .seconds(10)),
                                      floor: 0, maximumLateness: lateness)
        for second in 0...through {
            #expect(recorder.receive(Self.tick("gw1", Double(second), rssi: gw1(second), samples: samples), arrival: Self.at(seconds: Double(second))) == .accepted)
            #expect(recorder.receive(Self.tick("gw2", Double(second), rssi: nil), arrival: Self.at(seconds: Double(second))) == .accepted)
        }
        return recorder
    }

    @Test("a still point: the heard gateway's median of the ticks inside the duration, the one that reported without the beacon not heard, the silent one left out")
    func stillPoint() throws {
        // Ticks 0...9 are inside the 10 s; 10 and 11 (-20 dBm) are not.
        let recorder = still { $0 < 10 ? -60 - Double($0 % 3) : -20 }
        #expect(!recorder.isComplete(at: Self.at(seconds: 100)), "gw3 is waited for without a lateness bound")
        let result = try recorder.result().get()
        #expect(result.points.map(\.gateway) == ["gw1", "gw2"])
        let gw1 = result.points[0]
        #expect(gw1.rssi == -61 && gw1.samples == 100 && gw1.point == Point2(x: 4, y: 5) && gw1.time == Self.start)
        #expect(gw1.spread == 1.4826)
        #expect(result.points[1].rssi == nil && result.points[1].samples == 0 && result.points[1].spread == nil)
        #expect(recorder.silentGateways == ["gw3"])
    }

    @Test("a median beyond what a survey file holds (an --rssi-offset past -127 dBm) is written at its bound")
    func fileBounds() throws {
        let points = try still { _ in -131 }.result().get().points
        #expect(points[0].rssi == -127 && points[0].samples == 100)
    }

    @Test("complete once every gateway reported past the end, went offline, or (live) stayed silent longer than the bound")
    func completion() {
        var recorder = still({ _ in -60 }, through: 9)
        #expect(!recorder.isComplete(at: Self.at(seconds: 9)))
        #expect(recorder.receive(Self.tick("gw1", 10, rssi: -60), arrival: Self.at(seconds: 10)) == .accepted)
        #expect(!recorder.isComplete(at: Self.at(seconds: 10)), "gw2 has not reported past the end")
        let known = [recorder.status(gateway: "gw2", online: false)]
        #expect(!recorder.isComplete(at: Self.at(seconds: 10)), "gw3, unheard, is waited for")
        // An offline status before any readings (retained from an earlier run) does not end the wait.
        let statuses = known + [recorder.status(gateway: "gw3", online: false), recorder.status(gateway: "intruder", online: true)]
        #expect(statuses == [true, true, false])
        #expect(!recorder.isComplete(at: Self.at(seconds: 100)))
        #expect(recorder.receive(Self.tick("gw3", 9, rssi: nil), arrival: Self.at(seconds: 101)) == .accepted)
        #expect(!recorder.isComplete(at: Self.at(seconds: 101)), "gw3 reports again: online")
        let offline = recorder.status(gateway: "gw3", online: false)
        #expect(offline && recorder.isComplete(at: Self.at(seconds: 101)))

        // Live: gw2 stops at 9 s; gw3, never heard, is silent from the first message on.
        var live = still({ _ in -60 }, lateness: .seconds(5), through: 9)
        #expect(live.receive(Self.tick("gw1", 10, rssi: -60), arrival: Self.at(seconds: 10)) == .accepted)
        #expect(!live.isComplete(at: Self.at(seconds: 14)))
        #expect(live.isComplete(at: Self.at(seconds: 14.5)), "gw2 silent for more than 5 s")
    }

    @Test("replays fed one after another, live bound or not: a gateway whose replay has not started yet is waited for until 60 s after the last replayed message")
    func replaysWaitedFor() {
        var recorder = SurveyRecorder(site: Self.site, beacon: Self.beacon, plan: .still(at: Point2(x: 4, y: 5), duration: .seconds(10)),
                                      floor: 0, maximumLateness: .seconds(5))
        // gw1's replay, 12 s of readings at once; then gw2's, 30 s later.
        for second in 0...11 {
            var tick = Self.tick("gw1", Double(second), rssi: -60)
            tick.replay = true
            #expect(recorder.receive(tick, arrival: Self.at(seconds: 0)) == .accepted)
        }
        let known = recorder.status(gateway: "gw1", online: false)
        #expect(known)
        #expect(!recorder.isComplete(at: Self.at(seconds: 30)), "gw2 and gw3 waited for as without a bound")
        for second in 0...11 {
            var tick = Self.tick("gw2", Double(second), rssi: nil)
            tick.replay = true
            #expect(recorder.receive(tick, arrival: Self.at(seconds: 30)) == .accepted)
        }
        #expect(!recorder.isComplete(at: Self.at(seconds: 90)), "gw3 waited for 60 s after the last replayed message")
        #expect(recorder.isComplete(at: Self.at(seconds: 95.5)), "then the live bound again")
    }

    @Test("live, a message 20 minutes ahead of the other gateways, or a replay's ahead of this machine's clock, is from the future: dropped, the gateway's later readings still counted and the bound kept")
    func fromTheFuture() throws {
        var recorder = still({ _ in -60 }, lateness: .seconds(5), through: 4)
        #expect(recorder.receive(Self.tick("gw1", 5 + 1_200, rssi: -20), arrival: Self.at(seconds: 5)) == .fromTheFuture)
        var forged = Self.tick("gw2", 5 + 1_200, rssi: -20)
        forged.replay = true
        #expect(recorder.receive(forged, arrival: Self.at(seconds: 5)) == .fromTheFuture)
        for second in 5...11 {
            #expect(recorder.receive(Self.tick("gw1", Double(second), rssi: -60), arrival: Self.at(seconds: Double(second))) == .accepted)
        }
        #expect(recorder.isComplete(at: Self.at(seconds: 11)), "gw2 silent for more than 5 s: the forged replay did not lift the bound")
        let points = try recorder.result().get().points
        #expect(points.first { $0.gateway == "gw1" }?.rssi == -60 && points.first { $0.gateway == "gw1" }?.samples == 100)
        // Without a bound (replays of captures dated ahead), every message counts.
        var unbounded = still({ _ in -60 }, through: 4)
        #expect(unbounded.receive(forged, arrival: Self.at(seconds: 5)) == .accepted)
    }

    @Test("the survey starts at the first message's time; earlier ticks, repeats and strangers do not count")
    func start() throws {
        var recorder = still { _ in -60 }
        #expect(recorder.start == Self.start)
        #expect(recorder.receive(Self.tick("gw3", -1, rssi: -90), arrival: Self.at(seconds: 12)) == .accepted)
        #expect(recorder.receive(Self.tick("gw3", -2, rssi: -90), arrival: Self.at(seconds: 12)) == .repeated)
        #expect(recorder.receive(Self.tick("gw1", 5, rssi: -90), arrival: Self.at(seconds: 12)) == .repeated)
        #expect(recorder.receive(Self.tick("gw9", 5, rssi: -90), arrival: Self.at(seconds: 12)) == .unknownGateway)
        let points = try recorder.result().get().points
        #expect(points.map(\.gateway) == ["gw1", "gw2"], "gw3's tick before the start is no point")
        #expect(points[0].rssi == -60 && points[0].samples == 100)
    }

    @Test("refused: the beacon moved (the spread of a well-heard gateway over 6 dB, or its thirds' medians over 10 dB apart), too few readings, the gateways gone before the end, no readings")
    func refusals() {
        // Half the ticks at -60, half at -75: the median absolute deviation is 7.5 dB.
        #expect(still { $0 < 5 ? -60 : -75 }.result() == .failure(.moved(gateway: "gw1", spread: 7.5 * 1.4826)))
        // The last three ticks of ten 11 dB weaker: the spread (robust) is 0, the last third's median moved;
        // 10 dB is within the bound.
        #expect(still { $0 < 7 ? -60 : -71 }.result() == .failure(.movedPartWay(gateway: "gw1", medians: [-60, -60, -71])))
        #expect((try? still { $0 < 7 ? -60 : -70 }.result().get()) != nil)
        // Within 6 dB (a 1-σ of 4.4 dB) is still.
        #expect((try? still { $0 % 2 == 0 ? -60 : -66 }.result().get()) != nil)
        // 10 readings in all.
        #expect(still({ _ in -60 }, samples: 1).result() == .failure(.tooFewSamples(heard: 10, needed: 20)))
        let short = still({ _ in -60 }, through: 6)
        #expect(short.result() == .failure(.cutShort(covered: .seconds(6), of: .seconds(10))))
        let empty = SurveyRecorder(site: Self.site, beacon: Self.beacon, plan: .still(at: Point2(x: 0, y: 0), duration: .seconds(1)))
        #expect(empty.result() == .failure(.noReadings))
        #expect(!empty.isComplete(at: Self.start))
        #expect(SurveyRefusal.moved(gateway: "gw1", spread: 11.119).description.contains("11.1 dB"))
        #expect(SurveyRefusal.movedPartWay(gateway: "gw1", medians: [-60, -60.04, -70]).description.contains("-60.0, -60.0, -70.0 dBm"))
    }

    // MARK: - Walk

    static let walk = SurveyPath([
        .init(point: Point2(x: 0, y: 0), time: .seconds(0)),
        .init(point: Point2(x: 2, y: 0), time: .seconds(2)),
        .init(point: Point2(x: 2, y: 0), time: .seconds(4)),
        .init(point: Point2(x: 2, y: 1.5), time: .seconds(7)),
    ])!

    @Test("a walk places each time on the path by linear interpolation, held at its ends, with pauses")
    func walkPlaces() throws {
        let path = Self.walk
        #expect(path.length == 3.5 && path.duration == .seconds(7) && path.stretchCount == 4)
        #expect(path.place(at: .seconds(0)) == (Point2(x: 0, y: 0), 0))
        #expect(path.place(at: .milliseconds(500)) == (Point2(x: 0.5, y: 0), 0.5))
        #expect(path.place(at: .seconds(3)) == (Point2(x: 2, y: 0), 2))
        #expect(path.place(at: .seconds(6)) == (Point2(x: 2, y: 1), 3))
        #expect(path.place(at: .seconds(9)) == (Point2(x: 2, y: 1.5), 3.5))
        #expect([0, 0.99, 1, 2.5, 3.5, 99].map(path.stretch(along:)) == [0, 0, 1, 2, 3, 3])
        // A long walk: a metre east a second, every point and every half-way found.
        let waypoints: [SurveyPath.Waypoint] = (0...1_000).map { .init(point: Point2(x: Double($0), y: 0), time: .seconds(Int64($0))) }
        let long = try #require(SurveyPath(waypoints))
        let places = (0...999).map { long.place(at: .milliseconds(Int64($0) * 1_000 + 500)).along }
        #expect(places == (0...999).map { Double($0) + 0.5 })
        #expect((0...1_000).map { long.place(at: .seconds(Int64($0))).point.x } == (0...1_000).map(Double.init))
        #expect(SurveyPath([.init(point: Point2(x: 0, y: 0), time: .seconds(1))]) == nil)
        #expect(SurveyPath([.init(point: Point2(x: 0, y: 0), time: .seconds(1)), .init(point: Point2(x: 1, y: 0), time: .seconds(1))]) == nil)
    }

    @Test("a walk: one point per metre of path and gateway, at the mean of its ticks' places, a pause weighing as long as it lasts; a stretch heard too little left out")
    func walkPoints() throws {
        var recorder = SurveyRecorder(site: Self.site, beacon: Self.beacon, plan: .walk(Self.walk), maximumLateness: .seconds(5))
        // Ticks every half second; gw1 hears the beacon at -60 - 5 × x, but only twice in the last stretch.
        for step in 0...15 {
            let seconds = Double(step) / 2
            let x = Self.walk.place(at: Micros(Int64(seconds * 1_000_000))).point.x
            let lastStretch = seconds >= 6
            _ = recorder.receive(Self.tick("gw1", seconds, rssi: -60 - 5 * x, samples: lastStretch ? 1 : 5), arrival: Self.at(seconds: seconds))
            _ = recorder.receive(Self.tick("gw2", seconds, rssi: nil), arrival: Self.at(seconds: seconds))
        }
        #expect(recorder.isComplete(at: Self.at(seconds: 8)), "gw3 silent for longer than the bound")
        let result = try recorder.result().get()
        #expect(result.leftOut == 1)
        let gw1 = result.points.filter { $0.gateway == "gw1" }
        // Stretch 0: x 0, 0.5; stretch 1: x 1, 1.5; stretch 2: the pause at (2, 0) from 2 s to 4 s (5 ticks),
        // then y 0.25, 0.5, 0.75.
        #expect(gw1.map(\.point) == [Point2(x: 0.25, y: 0), Point2(x: 1.25, y: 0), Point2(x: 2, y: 1.5 / 8)])
        #expect(gw1.map(\.rssi) == [-61.25, -66.25, -70])
        #expect(gw1.map(\.time) == [Self.start, Self.at(seconds: 1), Self.at(seconds: 2)])
        #expect(result.points.filter { $0.gateway == "gw2" }.allSatisfy { $0.rssi == nil && $0.samples == 0 })
        #expect(result.points.count == 6)
    }

    // MARK: - Path file

    @Test("a path file: an array of {x, y, t}, seconds from the start")
    func pathFile() throws {
        let path = try SurveyPath.decode(Array(#"[{"x":0,"y":0,"t":0},{"x":3,"y":4,"t":5.5}]"#.utf8))
        #expect(path.waypoints == [.init(point: Point2(x: 0, y: 0), time: .seconds(0)), .init(point: Point2(x: 3, y: 4), time: .milliseconds(5_500))])
        #expect(path.length == 5)
    }

    @Test("a path file that is not a walk: one clear error naming the fault", arguments: [
        ("[{\"x\":0,\"y\":0,\"t\":0}", "not valid JSON"),
        (#"{"x":0}"#, "expected an array"),
        (#"[{"x":0,"y":0,"t":0}]"#, "two or more points"),
        (#"[{"x":0,"y":0,"t":0},{"x":1,"y":0,"t":0}]"#, "[1].t: expected a time after"),
        (#"[{"x":0,"y":0,"t":0},{"x":1e300,"y":0,"t":1}]"#, "[1].x: expected a coordinate"),
        (#"[{"x":0,"y":0,"t":-1},{"x":1,"y":0,"t":1}]"#, "[0].t: expected seconds"),
        (#"[{"x":0,"y":0,"t":0},{"x":1,"y":0,"t":1,"z":2}]"#, #"unknown member "z""#),
        (#"[{"x":0,"y":0,"t":0},[1,2]]"#, "[1]: expected an object"),
        (#"[{"x":"0","y":0,"t":0},{"x":1,"y":0,"t":1}]"#, "[0].x"),
    ])
    func badPathFile(text: String, expected: String) {
        #expect(throws: SurveyPathError.self) { try SurveyPath.decode(Array(text.utf8)) }
        do {
            _ = try SurveyPath.decode(Array(text.utf8))
        } catch {
            #expect(error.description.contains(expected), "\(error)")
        }
    }

    @Test("a path file of more points than allowed, or larger than the limit, is refused without reading it all")
    func hugePathFile() {
        let point = #"{"x":1,"y":1,"t":1},"#
        let many = "[" + String(repeating: point, count: SurveyPath.maximumWaypoints + 1) + #"{"x":1,"y":1,"t":2}]"#
        #expect(throws: SurveyPathError.self) { try SurveyPath.decode(Array(many.utf8)) }
        let huge = [UInt8]("[".utf8) + [UInt8](repeating: UInt8(ascii: " "), count: SurveyPath.maximumFileBytes + 1)
        #expect(throws: SurveyPathError.self) { try SurveyPath.decode(huge) }
    }
}
