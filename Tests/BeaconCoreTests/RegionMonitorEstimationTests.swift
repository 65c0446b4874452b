import Testing
import BeaconCore
import BeaconSimulation

@Suite("RegionMonitor: estimation")
struct RegionMonitorEstimationTests {
    let region = BeaconRegion(uuid: Fixture.uuid)
    static let logTwo = RangingEstimator(filter: .intervalMean, distance: .logDistance(exponent: 2))

    func firstBeacon(_ out: [MonitorOutput]) throws -> RangedBeacon {
        try #require(out.compactMap(\.beacons).first?.first)
    }

    @Test func accuracyComesFromTheFilteredValueNotTheIntervalMean() throws {
        var h = MonitorHarness([region], estimator: RangingEstimator(filter: .runningMedian(window: .seconds(10)),
                                                                     distance: .logDistance(exponent: 2)))
        for (ms, rssi) in [(100, Int8(-59)), (200, -59), (1_100, -99)] { h.sighting(Fixture.sighting(rssi: rssi, ms: Int64(ms))) }
        let b = try firstBeacon(h.tick(ms: 2_000).filter { $0.time == Fixture.at(ms: 2_000) })
        #expect(b.rssi == -99)                     // CoreLocation's meaning: this interval's mean
        #expect(b.filteredRSSI == -59)             // median of -59, -59, -99
        #expect(abs(b.accuracy - 1) < 1e-9)
    }

    @Test func beaconJustLostIsListedUnknownForTheTrackingAge() throws {
        var h = MonitorHarness([region], exitAfter: .seconds(60),
                               estimator: RangingEstimator(trackingAge: .seconds(3)))
        h.sighting(Fixture.sighting(ms: 500))
        let out = h.tick(ms: 10_000).compactMap(\.beacons)
        // Heard before 1 s; listed at 1 s with a reading, at 2, 3 s (within 3 s of 0.5 s) as lost, then not.
        #expect(out.map(\.count) == [1, 1, 1, 0, 0, 0, 0, 0, 0, 0])
        let lost = try #require(out[1].first)
        #expect(lost.proximity == .unknown && lost.accuracy == -1 && lost.rssi == nil && lost.samples == 0)
        #expect(lost.lastSeen == Fixture.at(ms: 500))
        #expect(h.monitor.trackedBeaconCount == 0)
    }

    @Test func zeroTrackingAgeListsOnlyBeaconsHeardInTheInterval() {
        var h = MonitorHarness([region], estimator: RangingEstimator(trackingAge: .seconds(0)))
        h.sighting(Fixture.sighting(ms: 500))
        #expect(h.tick(ms: 3_000).compactMap { $0.beacons?.count } == [1, 0, 0])
    }

    @Test func zeroDBmMeanIsAReading() throws {
        var h = MonitorHarness([region], estimator: Self.logTwo)
        h.sighting(Fixture.sighting(rssi: 0, measuredPower: -40, ms: 100))
        let b = try firstBeacon(h.tick(ms: 1_000))
        #expect(b.rssi == 0)
        #expect(abs(b.accuracy - 0.01) < 1e-12)    // 10^((-40 - 0) / 20)
        #expect(b.proximity == .immediate)
    }

    @Test func implausibleMeasuredPowerIsFlaggedAndGivesNoDistance() throws {
        for power in [Int8(0), 5, 127, -101, -128] {
            var h = MonitorHarness([region])
            h.sighting(Fixture.sighting(rssi: -60, measuredPower: power, ms: 100))
            let b = try firstBeacon(h.tick(ms: 1_000))
            #expect(!b.measuredPowerValid && b.accuracy == -1 && b.proximity == .unknown, "\(power)")
            #expect(b.filteredRSSI == -60)
        }
        var fixed = MonitorHarness([region], estimator: RangingEstimator(filter: .intervalMean, distance: .logDistance(exponent: 2),
                                                                         measuredPowerOverride: -60))
        fixed.sighting(Fixture.sighting(rssi: -60, measuredPower: 0, ms: 100))
        let b = try firstBeacon(fixed.tick(ms: 1_000))
        #expect(b.measuredPowerValid && abs(b.accuracy - 1) < 1e-12)
        #expect(b.measuredPower == 0)              // as advertised; the override only calibrates
    }

    @Test func rssiOffsetCorrectsAReceiverThatReadsLow() throws {
        var h = MonitorHarness([region], estimator: RangingEstimator(filter: .intervalMean, distance: .logDistance(exponent: 2),
                                                                     rssiOffset: 6))
        h.sighting(Fixture.sighting(rssi: -65, measuredPower: -59, ms: 100))
        let b = try firstBeacon(h.tick(ms: 1_000))
        #expect(b.rssi == -65)
        #expect(abs(b.accuracy - 1) < 1e-12)
    }

    /// A scan response is the second report of one advertising event: one event counts once.
    @Test func scanResponseOfTheSameEventIsNotASecondSample() throws {
        var h = MonitorHarness([region], estimator: Self.logTwo)
        func seen(ms: Int64, rssi: Int8, response: Bool) {
            var s = Fixture.sighting(rssi: rssi, ms: 0)
            s.time = Fixture.at(ms: 0) + Micros(ms * 1000)
            s.isScanResponse = response
            h.sighting(s)
        }
        seen(ms: 100, rssi: -60, response: false)
        seen(ms: 101, rssi: -80, response: true)    // same event
        seen(ms: 400, rssi: -62, response: true)    // no advertisement heard for this event: it counts
        let b = try firstBeacon(h.tick(ms: 1_000))
        #expect(b.samples == 2)
        #expect(b.rssi == -61)
        #expect(b.lastSeen == Fixture.at(ms: 400))
    }

    /// Readings outside -127...+20 dBm are "not available" by the time they are sightings.
    @Test func rssiOutsideTheControllersRangeIsNotAReading() {
        for raw in [Int8(127), 21, 100, -128] {
            let report = AdvertisingReport(eventType: 3, isExtended: false, addressType: .publicDevice,
                                           address: Fixture.address1, rssi: raw, data: [][...])
            #expect(report.rssiValue == nil, "\(raw)")
        }
        for raw in [Int8(-127), 0, 20] {
            let report = AdvertisingReport(eventType: 3, isExtended: false, addressType: .publicDevice,
                                           address: Fixture.address1, rssi: raw, data: [][...])
            #expect(report.rssiValue == raw)
        }
    }

    /// 100 ms advertising through 50 % loss for an hour: never an exit. Leaving is then seen within
    /// exitAfter plus one interval.
    @Test func noFalseExitAtHalfLossAndDepartureWithinExitAfter() {
        var h = MonitorHarness([region], exitAfter: .seconds(10))
        var rng = SplitMix64(seed: 42)
        var lastHeard: Int64 = 0
        for ms in stride(from: Int64(100), through: 3_600_000, by: 100) where Bool.random(using: &rng) {
            h.sighting(Fixture.sighting(rssi: Int8(-70 + Int.random(in: -8...8, using: &rng)), ms: ms))
            lastHeard = ms
        }
        #expect(!h.outputs.contains { $0.kind == "exit" })
        let out = h.tick(ms: lastHeard + 11_000)
        let exit = out.first { $0.kind == "exit" }
        #expect(exit?.time == Fixture.at(ms: lastHeard + 10_000))
    }

    /// A beacon standing still on the near/far boundary, advertising every 100 ms with ±6 dB of noise,
    /// ranged with the default estimator: hysteresis keeps its class.
    @Test func proximityDoesNotFlapOnAThreshold() {
        // The attenuation at which the default model says 3 m.
        var low = 0.0, high = 40.0
        for _ in 0..<50 {
            let mid = (low + high) / 2
            if DistanceModel.standard.distance(rssi: -mid, measuredPower: 0) < 3 { low = mid } else { high = mid }
        }
        let boundaryRSSI = -59 - low
        func flips(margin: Double) -> Int {
            var estimator = RangingEstimator()
            estimator.proximity.margin = margin
            var h = MonitorHarness([region], exitAfter: .seconds(10), estimator: estimator)
            var rng = SplitMix64(seed: 9)
            for ms in stride(from: Int64(100), through: 1_800_000, by: 100) {
                let rssi = (boundaryRSSI + Double.random(in: -6...6, using: &rng)).rounded()
                h.sighting(Fixture.sighting(rssi: Int8(rssi), ms: ms))
            }
            h.tick(ms: 1_800_500)
            let classes = h.outputs.compactMap { $0.beacons?.first?.proximity }.filter { $0 != .unknown }
            return zip(classes, classes.dropFirst()).filter { $0 != $1 }.count
        }
        let without = flips(margin: 0), with = flips(margin: RangingEstimator().proximity.margin)
        #expect(without >= 50)
        #expect(with * 10 <= without)
    }

    /// Heard at -45 dBm (immediate) for 3 s, then not heard for `silentTicks` whole intervals (within the
    /// 5 s tracking age), then heard at -85 dBm: the proximity of each tick once it is back.
    func proximityBack(silentTicks: Int64, backRSSI: Int8?) -> [Proximity] {
        var h = MonitorHarness([region], exitAfter: .seconds(30), estimator: Self.logTwo)
        for ms in stride(from: Int64(100), to: 3_000, by: 100) { h.sighting(Fixture.sighting(rssi: -45, ms: ms)) }
        let back = 3_000 + silentTicks * 1_000
        for ms in stride(from: back + 100, to: back + 3_000, by: 100) { h.sighting(Fixture.sighting(rssi: backRSSI, ms: ms)) }
        h.tick(ms: back + 3_000)
        return h.outputs.filter { $0.time > Fixture.at(ms: back) }.compactMap { $0.beacons?.first?.proximity }
    }

    @Test("back after one silent interval at -85 dBm, a beacon is far at once: the hysteresis of before the gap restarts")
    func proximityRestartsAfterAGap() {
        #expect(proximityBack(silentTicks: 1, backRSSI: -85) == [.far, .far, .far])
        #expect(proximityBack(silentTicks: 2, backRSSI: -85) == [.far, .far, .far])
    }

    @Test("heard without a reading is not a gap: the class needs its confirmations to change")
    func heardWithoutReadingsKeepsTheHysteresis() {
        var h = MonitorHarness([region], exitAfter: .seconds(30), estimator: Self.logTwo)
        for ms in stride(from: Int64(100), to: 3_000, by: 100) { h.sighting(Fixture.sighting(rssi: -45, ms: ms)) }
        h.sighting(Fixture.sighting(rssi: nil, ms: 3_500))
        for ms in stride(from: Int64(4_100), to: 7_000, by: 100) { h.sighting(Fixture.sighting(rssi: -85, ms: ms)) }
        h.tick(ms: 7_000)
        let classes = h.outputs.compactMap { $0.beacons?.first?.proximity }
        // 1–3 s immediate; 4 s unknown (no reading); 5 and 6 s far measured but not yet confirmed; 7 s far.
        #expect(classes == [.immediate, .immediate, .immediate, .unknown, .immediate, .immediate, .far])
    }

    /// One identity heard at address 1 from 0.1 s to 2.5 s, then at address 2 (a new random address) to
    /// 4.9 s: the (samples, address) of each entry at the ticks of 3 s (2.0–2.9 s heard) and 4 s.
    func rotation(_ estimator: RangingEstimator) -> [[(Int, DeviceAddress)]] {
        var h = MonitorHarness([region], estimator: estimator)
        for ms in stride(from: Int64(100), through: 4_900, by: 100) {
            h.sighting(Fixture.sighting(address: ms <= 2_500 ? Fixture.address1 : Fixture.address2, ms: ms))
        }
        return h.outputs.filter { $0.time == Fixture.at(ms: 3_000) || $0.time == Fixture.at(ms: 4_000) }
            .compactMap { $0.beacons?.map { ($0.samples, $0.address) } }
    }

    @Test("by default an identity at a new address is a second beacon, the old one listed as lost; ignoring addresses, one")
    func addressRotation() {
        let separate = rotation(RangingEstimator())
        #expect(separate.map { $0.map(\.0) } == [[6, 4], [10, 0]])
        #expect(separate.map { $0.map(\.1) } == [[Fixture.address1, Fixture.address2], [Fixture.address2, Fixture.address1]])
        var ignoring = RangingEstimator()
        ignoring.ignoresAddress = true
        let merged = rotation(ignoring)
        #expect(merged.map { $0.map(\.0) } == [[10], [10]])
        #expect(merged.map { $0.map(\.1) } == [[Fixture.address2], [Fixture.address2]])
    }

    @Test func hugeGapExitsOnceAndRangesFiniteValuesAfter() throws {
        var h = MonitorHarness([region], exitAfter: .seconds(10))
        h.sighting(Fixture.sighting(rssi: -60, ms: 100))
        let century: Int64 = 100 * 365 * 86_400_000
        h.sighting(Fixture.sighting(rssi: -80, ms: century))
        let out = h.tick(ms: century + 1_000)
        #expect(h.outputs.filter { $0.kind == "exit" }.count == 1)
        let b = try firstBeacon(out)
        #expect(b.accuracy.isFinite && b.accuracy > 0)
        #expect(b.filteredRSSI == -80)   // the filter started afresh: the old beacon was long forgotten
    }
}
