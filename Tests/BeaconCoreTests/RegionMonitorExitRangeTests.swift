import Testing
import BeaconCore

/// A region that exits with beacons heard since the last tick reports them, as a partial range at the
/// exit's time, before the exit.
@Suite("RegionMonitor: a range line before an exit")
struct RegionMonitorExitRangeTests {
    let region = BeaconRegion(uuid: Fixture.uuid)

    /// A sighting every 100 ms from `fromMs` through `throughMs`.
    static func visit(_ h: inout MonitorHarness, fromMs: Int64, throughMs: Int64, minor: UInt16 = 2) {
        for ms in stride(from: fromMs, through: throughMs, by: 100) { h.sighting(Fixture.sighting(minor: minor, ms: ms)) }
    }

    @Test("heard 0.1–30 s with --interval 60s: at the exit (40 s) a partial range of the 300 readings, then exit and outside")
    func exitBeforeTheFirstTickReportsWhatWasHeard() throws {
        var h = MonitorHarness([region], exitAfter: .seconds(10), interval: .seconds(60))
        Self.visit(&h, fromMs: 100, throughMs: 30_000)
        #expect(h.tick(ms: 39_999) == [])
        let out = h.tick(ms: 40_000)
        #expect(out.map(\.kind) == ["partial", "exit", "state"])
        #expect(out.map(\.time) == Array(repeating: Fixture.at(ms: 40_000), count: 3))
        let beacon = try #require(out.first?.beacons?.first)
        #expect(out.first?.beacons?.count == 1)
        #expect(beacon.samples == 300)
        #expect(beacon.lastSeen == Fixture.at(ms: 30_000))
        #expect(beacon.accuracy > 0 && beacon.proximity != .unknown)
        // Nothing is left for the tick at 60 s to report.
        #expect(h.tick(ms: 60_000) == [])
    }

    @Test("a tick on the exit's instant: the exit comes first, so the partial range takes the interval's readings")
    func tickOnTheExitInstant() throws {
        var h = MonitorHarness([region], exitAfter: .seconds(10), interval: .seconds(10))
        h.sighting(Fixture.sighting(ms: 0))
        h.sighting(Fixture.sighting(ms: 100))
        let first = h.tick(ms: 10_000)
        #expect(first.map(\.kind) == ["range"])
        h.sighting(Fixture.sighting(ms: 10_000))
        let out = h.tick(ms: 20_000)
        #expect(out.map(\.kind) == ["partial", "exit", "state"])
        #expect(try #require(out.first?.beacons?.first).samples == 1)
    }

    @Test("an exit with nothing heard since the last tick prints no range line")
    func nothingHeardSinceTheLastTick() {
        var h = MonitorHarness([region], exitAfter: .seconds(10), interval: .seconds(1))
        h.sighting(Fixture.sighting(ms: 500))
        let out = h.tick(ms: 10_500)
        #expect(out.suffix(2).map(\.kind) == ["exit", "state"])
        #expect(!out.contains { $0.kind == "partial" })
    }

    @Test("after earlier ticks only the readings since the last one are in the partial range")
    func onlyTheUnreportedPart() throws {
        var h = MonitorHarness([region], exitAfter: .seconds(10), interval: .seconds(60))
        Self.visit(&h, fromMs: 50_100, throughMs: 90_000)
        h.tick(ms: 100_000)
        let out = h.outputs.filter { $0.time > Fixture.at(ms: 50_100) }
        #expect(out.map(\.kind) == ["range", "partial", "exit", "state"])
        #expect(out.map(\.time) == [60_000, 100_000, 100_000, 100_000].map { Fixture.at(ms: $0) })
        // 50.1 … 59.9 s, then 60.0 … 90.0 s (a sighting on the tick belongs to the next interval).
        #expect(out.first?.beacons?.first?.samples == 99)
        #expect(out.dropFirst().first?.beacons?.first?.samples == 301)
    }

    @Test("a region that exits reports its beacons without taking them from a region still inside")
    func overlappingRegionStillInside() throws {
        let wide = BeaconRegion(uuid: Fixture.uuid)
        let narrow = BeaconRegion(uuid: Fixture.uuid, major: 1, minor: 2)
        var h = MonitorHarness([wide, narrow], exitAfter: .seconds(10), interval: .seconds(60))
        Self.visit(&h, fromMs: 100, throughMs: 5_000)
        Self.visit(&h, fromMs: 100, throughMs: 59_900, minor: 3)
        let exit = h.outputs.filter { $0.region == narrow && $0.time == Fixture.at(ms: 15_000) }
        #expect(exit.map(\.kind) == ["partial", "exit", "state"])
        #expect(exit.first?.beacons?.map(\.samples) == [50])
        let tick = h.tick(ms: 60_000)
        #expect(tick.map(\.kind) == ["range"])
        let listed = try #require(tick.first?.beacons)
        #expect(listed.map(\.samples).sorted() == [50, 599])
    }
}
