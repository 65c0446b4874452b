import Testing
import BeaconCore

@Suite("RegionMonitor: monitoring")
struct RegionMonitorMonitoringTests {
    let region = BeaconRegion(uuid: Fixture.uuid)

    @Test func startReportsEveryRegionUnknownInOrder() {
        let a = BeaconRegion(uuid: Fixture.uuid, major: 1)
        let b = BeaconRegion(uuid: Fixture.otherUUID)
        let h = MonitorHarness([a, b], startMs: 250)
        #expect(h.outputs == [.state(a, .unknown, Fixture.at(ms: 250)), .state(b, .unknown, Fixture.at(ms: 250))])
        #expect(h.state(of: a) == .unknown)
        // Unknown until exitAfter (10 s) has passed without a matching sighting.
        #expect(h.monitor.nextDeadline == Fixture.at(ms: 10_250))
    }

    @Test func regionNotHeardWithinExitAfterOfTheStartBecomesOutside() {
        let heard = BeaconRegion(name: "heard", uuid: Fixture.uuid)
        let silent = BeaconRegion(name: "silent", uuid: Fixture.otherUUID)
        var h = MonitorHarness([heard, silent], exitAfter: .seconds(10), interval: .seconds(60))
        h.sighting(Fixture.sighting(ms: 9_000))
        #expect(h.tick(ms: 9_999) == [])
        #expect(h.tick(ms: 10_000) == [.state(silent, .outside, Fixture.at(ms: 10_000))])
        #expect(h.state(of: silent) == .outside)
        #expect(h.state(of: heard) == .inside)
        // Exited before the first tick at 60 s: what it heard is reported first (see exitBeforeTheFirstTick...).
        let exit = h.tick(ms: 19_000)
        #expect(exit.map(\.kind) == ["partial", "exit", "state"])
        #expect(exit.dropFirst() == [.exit(heard, Fixture.at(ms: 19_000)), .state(heard, .outside, Fixture.at(ms: 19_000))])
        #expect(h.monitor.nextDeadline == nil)
    }

    @Test func entersOnFirstMatchingSightingOnly() {
        var h = MonitorHarness([region])
        #expect(h.sighting(Fixture.sighting(ms: 300)) == [.enter(region, Fixture.at(ms: 300)), .state(region, .inside, Fixture.at(ms: 300))])
        #expect(h.state(of: region) == .inside)
        #expect(h.sighting(Fixture.sighting(ms: 400)) == [])
    }

    @Test func ignoresOtherUUID() {
        var h = MonitorHarness([region])
        #expect(h.sighting(Fixture.sighting(uuid: Fixture.otherUUID, ms: 300)) == [])
        #expect(h.state(of: region) == .unknown)
        #expect(h.monitor.trackedBeaconCount == 0)
        #expect(h.tick(ms: 5000) == [])
    }

    @Test(arguments: [
        // (region major, region minor, sighting major, sighting minor, enters)
        (UInt16?(0), UInt16?.none, UInt16(0), UInt16(7), true),
        (0, nil, 1, 7, false),
        (nil, nil, 0, 7, true),
        (nil, nil, 1, 7, true),
        (nil, nil, 65535, 7, true),
        (1, 0, 1, 0, true),
        (1, 0, 1, 1, false),
        (1, 2, 2, 2, false),
        (1, nil, 1, 65535, true),
    ])
    func majorAndMinorConstraints(regionMajor: UInt16?, regionMinor: UInt16?, major: UInt16, minor: UInt16, enters: Bool) {
        let constrained = BeaconRegion(uuid: Fixture.uuid, major: regionMajor, minor: regionMinor)
        var h = MonitorHarness([constrained])
        let out = h.sighting(Fixture.sighting(major: major, minor: minor, ms: 10))
        #expect(out == (enters ? [.enter(constrained, Fixture.at(ms: 10)), .state(constrained, .inside, Fixture.at(ms: 10))] : []))
        #expect(h.state(of: constrained) == (enters ? .inside : .unknown))
    }

    @Test func exitsExactlyAtLastSeenPlusExitAfter() {
        var h = MonitorHarness([region], exitAfter: .seconds(10), interval: .seconds(60))
        h.sighting(Fixture.sighting(ms: 500))
        #expect(h.monitor.nextDeadline == Fixture.at(ms: 10_500))
        #expect(h.tick(ms: 10_499) == [])
        #expect(h.state(of: region) == .inside)
        let exit = h.tick(ms: 10_500)
        #expect(exit.map(\.kind) == ["partial", "exit", "state"])
        #expect(exit.dropFirst() == [.exit(region, Fixture.at(ms: 10_500)), .state(region, .outside, Fixture.at(ms: 10_500))])
        #expect(h.state(of: region) == .outside)
        #expect(h.monitor.nextDeadline == nil)
        // A late tick does not exit again; the next sighting enters again.
        #expect(h.tick(ms: 30_000) == [])
        #expect(h.sighting(Fixture.sighting(ms: 31_000)) == [.enter(region, Fixture.at(ms: 31_000)), .state(region, .inside, Fixture.at(ms: 31_000))])
    }

    @Test func nextDeadlineFollowsEachSightingAndTheRangingSchedule() {
        // Exit after 0.5 s, ranging every second from 0: the exit binds until the region is heard again.
        var h = MonitorHarness([region], exitAfter: .milliseconds(500), interval: .seconds(1))
        #expect(h.monitor.nextDeadline == Fixture.at(ms: 500))
        h.sighting(Fixture.sighting(ms: 100))
        #expect(h.monitor.nextDeadline == Fixture.at(ms: 600))
        h.sighting(Fixture.sighting(ms: 300))
        #expect(h.monitor.nextDeadline == Fixture.at(ms: 800))
        // Heard at 0.7 s the exit would come at 1.2 s: the ranging tick at 1 s is first.
        h.sighting(Fixture.sighting(ms: 700))
        #expect(h.monitor.nextDeadline == Fixture.at(ms: 1_000))
        #expect(h.tick(ms: 1_000).count == 1)
        #expect(h.monitor.nextDeadline == Fixture.at(ms: 1_200))
        h.sighting(Fixture.sighting(ms: 1_100))
        #expect(h.monitor.nextDeadline == Fixture.at(ms: 1_600))
        // Another beacon of the region heard later moves nothing the first one holds back.
        h.sighting(Fixture.sighting(minor: 3, ms: 1_150))
        #expect(h.monitor.nextDeadline == Fixture.at(ms: 1_650))
    }

    @Test func exitTimeIsTheDeadlineNotTheTickTime() {
        var h = MonitorHarness([region], exitAfter: .seconds(10), interval: .seconds(60))
        h.sighting(Fixture.sighting(ms: 500))
        let exit = h.tick(ms: 45_000)
        #expect(exit.map(\.kind) == ["partial", "exit", "state"])
        #expect(exit.map(\.time) == Array(repeating: Fixture.at(ms: 10_500), count: 3))
    }

    @Test func sightingAtTheExitDeadlineExitsThenEntersAgain() {
        var h = MonitorHarness([region], exitAfter: .seconds(10), interval: .seconds(60))
        h.sighting(Fixture.sighting(ms: 500))
        #expect(h.sighting(Fixture.sighting(ms: 10_500)).dropFirst()
                == [.exit(region, Fixture.at(ms: 10_500)), .state(region, .outside, Fixture.at(ms: 10_500)),
                    .enter(region, Fixture.at(ms: 10_500)), .state(region, .inside, Fixture.at(ms: 10_500))])
    }

    @Test func noExitWhileSightingsContinue() {
        var h = MonitorHarness([region], exitAfter: .seconds(10))
        for ms in stride(from: Int64(0), through: 120_000, by: 9_999) {
            h.sighting(Fixture.sighting(ms: ms))
        }
        h.tick(ms: 120_000)
        #expect(!h.outputs.contains { $0.kind == "exit" })
        #expect(h.outputs.filter { $0.kind == "enter" }.count == 1)
        // One range line per second from 1 s to 120 s.
        #expect(h.outputs.filter { $0.kind == "range" }.map(\.time) == (1...120).map { Fixture.at(ms: Int64($0) * 1000) })
    }

    @Test func timeGoingBackwardsIsClampedToTheLatest() {
        var h = MonitorHarness([region], exitAfter: .seconds(10), interval: .seconds(60))
        h.sighting(Fixture.sighting(ms: 5_000))
        #expect(h.sighting(Fixture.sighting(ms: 1_000)) == [])
        #expect(h.tick(ms: -1_000_000) == [])
        // The sighting "at 1 s" counted as 5 s, so the exit is 10 s after 5 s.
        #expect(h.tick(ms: 14_999) == [])
        #expect(h.tick(ms: 15_000).dropFirst() == [.exit(region, Fixture.at(ms: 15_000)), .state(region, .outside, Fixture.at(ms: 15_000))])
        // A backwards sighting after the exit enters at the latest time seen.
        #expect(h.sighting(Fixture.sighting(ms: 2_000)) == [.enter(region, Fixture.at(ms: 15_000)), .state(region, .inside, Fixture.at(ms: 15_000))])
    }

    @Test func sightingBeforeStartStartsAtItsTime() {
        var h = MonitorHarness([region], startMs: nil)
        #expect(h.monitor.nextDeadline == nil)
        #expect(h.tick(ms: 100) == [])
        #expect(h.sighting(Fixture.sighting(ms: 700))
                == [.state(region, .unknown, Fixture.at(ms: 700)), .enter(region, Fixture.at(ms: 700)),
                    .state(region, .inside, Fixture.at(ms: 700))])
        #expect(h.monitor.nextDeadline == Fixture.at(ms: 1_700))
    }

    @Test func overlappingRegionsAreBothEnteredAndRanged() {
        let wide = BeaconRegion(uuid: Fixture.uuid)
        let narrow = BeaconRegion(uuid: Fixture.uuid, major: 1, minor: 2)
        let elsewhere = BeaconRegion(uuid: Fixture.uuid, major: 9)
        var h = MonitorHarness([wide, elsewhere, narrow])
        #expect(h.sighting(Fixture.sighting(ms: 100))
                == [.enter(wide, Fixture.at(ms: 100)), .state(wide, .inside, Fixture.at(ms: 100)),
                    .enter(narrow, Fixture.at(ms: 100)), .state(narrow, .inside, Fixture.at(ms: 100))])
        let ticks = h.tick(ms: 1_000)
        #expect(ticks.map(\.region) == [wide, narrow])
        #expect(ticks.map { $0.beacons?.count } == [1, 1])
        // One beacon, tracked once whatever the number of regions it is in.
        #expect(h.monitor.trackedBeaconCount == 1)
    }
}

@Suite("RegionMonitor: ranging")
struct RegionMonitorRangingTests {
    let region = BeaconRegion(uuid: Fixture.uuid)

    @Test func rangesOncePerIntervalOnlyWhileInside() {
        var h = MonitorHarness([region], exitAfter: .seconds(3), interval: .seconds(1))
        #expect(h.tick(ms: 5_000) == [.state(region, .outside, Fixture.at(ms: 3_000))])
        h.sighting(Fixture.sighting(ms: 5_200))
        let out = h.tick(ms: 20_000)
        // Ticks at 6, 7 and 8 s; the exit at 8.2 s; nothing after.
        #expect(out.map(\.kind) == ["range", "range", "range", "exit", "state"])
        #expect(out.map(\.time) == [6_000, 7_000, 8_000, 8_200, 8_200].map { Fixture.at(ms: $0) })
        // Heard only in the first interval; the later ones list it as just lost (within the tracking age).
        let entries = out.compactMap { $0.beacons?.first }
        #expect(entries.map(\.samples) == [1, 0, 0])
        #expect(entries.map(\.proximity).dropFirst() == [.unknown, .unknown])
    }

    /// The interval mean and the log-distance model with n = 2, so every figure is worked by hand.
    static let handWorked = RangingEstimator(filter: .intervalMean, distance: .logDistance(exponent: 2))

    @Test func meanRSSICountsAndLatestMeasuredPower() throws {
        var h = MonitorHarness([region], estimator: Self.handWorked)
        for (i, rssi) in [Int8(-50), -52, -57, nil].enumerated() {
            h.sighting(Fixture.sighting(rssi: rssi, measuredPower: i == 3 ? -61 : -59,
                                        addressType: i == 3 ? .randomDevice : .publicDevice, ms: 100 + Int64(i)))
        }
        let out = h.tick(ms: 1_000)
        let beacons = try #require(out.first?.beacons)
        #expect(beacons.count == 1)
        let b = try #require(beacons.first)
        #expect(b.rssi == -53.0)           // (-50 - 52 - 57) / 3: the nil reading is not averaged
        #expect(b.filteredRSSI == -53.0)
        #expect(b.lastSeen == Fixture.at(ms: 103))
        #expect(b.samples == 4)            // but it counts as an advertisement heard
        #expect(b.measuredPower == -61)    // latest
        #expect(b.addressType == .randomDevice)
        #expect(abs(b.accuracy - 0.3981071705534972) < 1e-12) // 10^((-61 - -53) / (10 * 2)) = 10^-0.4
        #expect(b.proximity == .immediate)
        #expect(b.address == Fixture.address1)
        #expect(b.identity == .iBeacon(IBeaconID(uuid: Fixture.uuid, major: 1, minor: 2)))
    }

    @Test func nearestFirstThenUnknownThenByIdentityAndAddress() throws {
        var h = MonitorHarness([region], estimator: Self.handWorked)
        // minor 10: -70 dBm; minor 11: -50 dBm; minor 12: no RSSI; minor 13 at two addresses: -60 dBm both.
        h.sighting(Fixture.sighting(minor: 10, rssi: -70, ms: 10))
        h.sighting(Fixture.sighting(minor: 12, rssi: nil, ms: 20))
        h.sighting(Fixture.sighting(minor: 13, rssi: -60, address: Fixture.address2, ms: 30))
        h.sighting(Fixture.sighting(minor: 11, rssi: -50, ms: 40))
        h.sighting(Fixture.sighting(minor: 13, rssi: -60, address: Fixture.address1, ms: 50))
        h.sighting(Fixture.sighting(minor: 9, rssi: nil, ms: 60))
        let beacons = try #require(h.tick(ms: 1_000).first?.beacons)
        let minors = beacons.compactMap { (beacon: RangedBeacon) -> Int? in
            guard case .iBeacon(let id) = beacon.identity else { return nil }
            return Int(id.minor)
        }
        #expect(minors == [11, 13, 13, 10, 9, 12])
        #expect(beacons.map(\.address) == [Fixture.address1, Fixture.address1, Fixture.address2,
                                           Fixture.address1, Fixture.address1, Fixture.address1])
        #expect(beacons.map(\.proximity) == [.immediate, .near, .near, .far, .unknown, .unknown])
    }

    @Test func rssiUnavailableGivesZeroRSSIAndUnknownAccuracy() throws {
        var h = MonitorHarness([region])
        h.sighting(Fixture.sighting(rssi: nil, ms: 10))
        h.sighting(Fixture.sighting(rssi: nil, ms: 20))
        let b = try #require(h.tick(ms: 1_000).first?.beacons?.first)
        #expect(b.rssi == nil)
        #expect(b.filteredRSSI == nil)
        #expect(b.accuracy == -1)
        #expect(b.proximity == .unknown)
        #expect(b.samples == 2)
    }

    @Test func sampleAtATickBelongsToTheNextInterval() {
        var h = MonitorHarness([region])
        h.sighting(Fixture.sighting(ms: 500))
        h.sighting(Fixture.sighting(rssi: -70, ms: 1_000))
        h.tick(ms: 2_000)
        let out = h.outputs.filter { $0.kind == "range" }
        #expect(out.map(\.time) == [Fixture.at(ms: 1_000), Fixture.at(ms: 2_000)])
        #expect(out.map { $0.beacons?.first?.rssi } == [-59, -70])
    }

    @Test func exitComesBeforeRangeAtTheSameInstant() {
        let leaving = BeaconRegion(uuid: Fixture.uuid)
        let staying = BeaconRegion(uuid: Fixture.otherUUID)
        // `staying` first in region order, so only the rule puts the exit ahead of its range line.
        var h = MonitorHarness([staying, leaving], exitAfter: .seconds(2), interval: .seconds(1))
        h.sighting(Fixture.sighting(ms: 1_000))                           // leaving: exit due at 3 s
        h.sighting(Fixture.sighting(uuid: Fixture.otherUUID, ms: 2_500))  // staying: exit due at 4.5 s
        let out = h.tick(ms: 3_000)
        #expect(out.map(\.kind) == ["exit", "state", "range"])
        #expect(out.map(\.region) == [leaving, leaving, staying])
        #expect(out.map(\.time) == [3_000, 3_000, 3_000].map { Fixture.at(ms: $0) })
        #expect(h.monitor.nextDeadline == Fixture.at(ms: 4_000))
    }

    @Test func liveTicksAndFullSpeedReplayPrintTheSame() {
        let sightings = [120, 380, 1_950, 2_000, 2_001, 4_400, 17_000, 17_300].enumerated().map { i, ms in
            Fixture.sighting(minor: UInt16(i % 3), rssi: Int8(-60 - i), ms: Int64(ms))
        }
        var live = MonitorHarness([region], exitAfter: .seconds(10))
        var next = 0
        for now in stride(from: Int64(0), through: 40_000, by: 37) {
            while next < sightings.count, sightings[next].time <= Fixture.at(ms: now) {
                live.sighting(sightings[next])
                next += 1
            }
            live.tick(ms: now)
        }
        var replay = MonitorHarness([region], exitAfter: .seconds(10))
        for s in sightings { replay.sighting(s) }
        replay.tick(ms: 40_000)
        #expect(live.outputs == replay.outputs)
        #expect(replay.outputs.filter { $0.kind == "exit" }.map(\.time) == [Fixture.at(ms: 14_400), Fixture.at(ms: 27_300)])
        // Inside from 0.12 s to 14.4 s (ticks 1…14 s) and from 17 s to 27.3 s (ticks 18…27 s).
        #expect(replay.outputs.filter { $0.kind == "range" }.count == 14 + 10)
    }

    @Test func longSilenceDoesNotReplayEmptyTicks() {
        var h = MonitorHarness([region], exitAfter: .seconds(10), interval: .seconds(1))
        h.sighting(Fixture.sighting(ms: 0))
        let day: Int64 = 86_400_000
        let out = h.tick(ms: day)
        // Ticks at 1…9 s; at 10 s the exit comes first and the region is no longer inside.
        #expect(out.filter { $0.kind == "range" }.count == 9)
        #expect(out.suffix(2) == [.exit(region, Fixture.at(ms: 10_000)), .state(region, .outside, Fixture.at(ms: 10_000))])
        // The schedule stays on the start-anchored grid.
        h.sighting(Fixture.sighting(ms: day + 250))
        #expect(h.monitor.nextDeadline == Fixture.at(ms: day + 1_000))
    }

    @Test func nextDeadlineIsTheEarlierOfExitAndRangeTick() {
        var h = MonitorHarness([region], exitAfter: .milliseconds(300), interval: .seconds(1))
        h.sighting(Fixture.sighting(ms: 100))
        #expect(h.monitor.nextDeadline == Fixture.at(ms: 400))
        h.tick(ms: 400)
        #expect(h.monitor.nextDeadline == nil)
        h.sighting(Fixture.sighting(ms: 900))
        #expect(h.monitor.nextDeadline == Fixture.at(ms: 1_000))
    }

    @Test func memoryStaysBoundedWithManyDistinctBeacons() {
        var h = MonitorHarness([region, BeaconRegion(uuid: Fixture.uuid, major: 7)], exitAfter: .seconds(10), interval: .seconds(1))
        // Entries for beacons heard in their interval; beacons just lost are listed too, with no samples.
        var ranged = 0
        var peak = 0
        let total = 100_000
        for i in 0..<total {
            // 1000 distinct beacons per second, each at its own address; every fifth one also in the major-7 region.
            let s = Fixture.sighting(major: i % 5 == 0 ? 7 : 1, minor: UInt16(i % 65_536),
                                     address: DeviceAddress(value: UInt64(i)), ms: Int64(i))
            var emitted: [MonitorOutput] = []
            h.monitor.sighting(s) { emitted.append($0) }
            ranged += emitted.compactMap { $0.beacons?.filter { $0.samples > 0 }.count }.reduce(0, +)
            peak = max(peak, h.monitor.trackedBeaconCount)
        }
        var tail: [MonitorOutput] = []
        h.monitor.tick(now: Fixture.at(ms: Int64(total) + 1_000)) { tail.append($0) }
        ranged += tail.compactMap { $0.beacons?.filter { $0.samples > 0 }.count }.reduce(0, +)
        // Beacons are kept for the tracking age (5 s) after they were last heard, and the interval.
        #expect(peak <= 1_000 * 6 + 200)
        h.monitor.tick(now: Fixture.at(ms: Int64(total) + 20_000)) { _ in }
        #expect(h.monitor.trackedBeaconCount == 0)
        #expect(ranged == total + total / 5)
    }

    @Test("a flood of new identities in a region: at most maximumBeacons tracked, the least recently heard evicted and counted")
    func floodOfIdentitiesIsBounded() {
        var monitor = RegionMonitor(regions: [region], maximumBeacons: 64, hashKey: MultilinearHash(seed: 0))
        monitor.start(at: Fixture.t0) { _ in }
        var outputs: [MonitorOutput] = []
        let tracked = Fixture.flood(1_000).map { sighting in
            monitor.sighting(sighting) { outputs.append($0) }
            return monitor.trackedBeaconCount
        }
        #expect(tracked.max() == 64)
        #expect(monitor.evictedBeacons == 1_001 - monitor.trackedBeaconCount)
        monitor.tick(now: Fixture.at(ms: 1_000)) { outputs.append($0) }
        let ranged = outputs.compactMap(\.beacons).last ?? []
        #expect(ranged.count <= 64)
        #expect(ranged.contains { $0.identity == Fixture.steadyIdentity })
    }
}
