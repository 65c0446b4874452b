import BeaconCore
import Testing

@Suite("a gateway's readings: one message per ranging tick")
struct GatewayReadingsTests {
    static let whole = BeaconRegion(name: "all", uuid: Fixture.uuid)
    static let major1 = BeaconRegion(name: "one", uuid: Fixture.uuid, major: 1)

    /// Beacon 1/2 heard at -60 and -64 dBm, beacon 3/4 once at -70, through two overlapping regions.
    func ticks() -> [GatewayReadings] {
        var monitor = RegionMonitor(regions: [Self.whole, Self.major1], hashKey: MultilinearHash(seed: 0))
        var collector = GatewayReadingsCollector(gateway: "gw1")
        var ticks: [GatewayReadings] = []
        let emit: (MonitorOutput) -> Void = { collector.add($0) }
        monitor.start(at: Fixture.at(ms: 0), emit: emit)
        monitor.sighting(Fixture.sighting(rssi: -60, ms: 100), emit: emit)
        monitor.sighting(Fixture.sighting(rssi: -64, ms: 300), emit: emit)
        monitor.sighting(Fixture.sighting(major: 3, minor: 4, rssi: -70, address: Fixture.address2, ms: 400), emit: emit)
        ticks += collector.completed()
        monitor.tick(now: Fixture.at(ms: 2_050), emit: emit)
        ticks += collector.completed()
        return ticks
    }

    @Test("a tick's beacons from every region, each once, with mean, spread and samples; the sequence counts from 1")
    func collects() throws {
        let ticks = ticks()
        try #require(ticks.count == 2, "\(ticks)")
        #expect(ticks.map(\.sequence) == [1, 2])
        #expect(ticks.allSatisfy { $0.gateway == "gw1" })
        let first = ticks[0]
        #expect(first.readings.map(\.id) == ["e2c56db5-dffb-48d2-b060-d0f5a71096e0-1-2", "e2c56db5-dffb-48d2-b060-d0f5a71096e0-3-4"]
                || first.readings.map(\.id) == ["e2c56db5-dffb-48d2-b060-d0f5a71096e0-3-4", "e2c56db5-dffb-48d2-b060-d0f5a71096e0-1-2"])
        let near = try #require(first.readings.first { $0.id.hasSuffix("-1-2") })
        #expect(near.rssi == -62)
        #expect(near.spread == 2)
        #expect(near.samples == 2)
        #expect(near.measuredPower == -59)
        #expect(near.accuracy > 0)
        let far = try #require(first.readings.first { $0.id.hasSuffix("-3-4") })
        #expect(far.spread == 0)
        #expect(far.samples == 1)
        // The second tick heard nothing: beacons listed within the tracking age but not heard are no readings.
        #expect(ticks[1].readings.isEmpty)
        #expect(ticks[1].time - first.time == .seconds(1))
    }

    @Test("a tick at which no region is inside still gives one empty message, once; a tick with range outputs gives no second one")
    func emptyTicks() throws {
        var monitor = RegionMonitor(regions: [Self.whole], exitAfter: .seconds(2), hashKey: MultilinearHash(seed: 0))
        var collector = GatewayReadingsCollector(gateway: "gw1")
        var ticks: [GatewayReadings] = []
        let emit: (MonitorOutput) -> Void = { collector.add($0) }
        func stepEnded() {
            if let tick = monitor.lastRangeTick { collector.ticked(at: tick) }
            ticks += collector.completed()
        }
        monitor.start(at: Fixture.at(ms: 0), emit: emit)
        monitor.sighting(Fixture.sighting(rssi: -60, ms: 100), emit: emit)
        stepEnded()
        for second: Int64 in 1...5 {
            monitor.tick(now: Fixture.at(ms: second * 1_000), emit: emit)
            stepEnded()
            // Steps without a tick of their own (packets between ticks) add nothing.
            stepEnded()
        }
        // Inside until 2.1 s: ticks 1 and 2 range; 3, 4 and 5 are outside and still give messages.
        #expect(ticks.map(\.time) == (Int64(1)...5).map { Fixture.at(ms: $0 * 1_000) })
        #expect(ticks.map(\.sequence) == Array(1...5))
        #expect(ticks[0].readings.count == 1)
        #expect(ticks[2...].allSatisfy { $0.readings.isEmpty })
    }

    @Test("the message's JSON: gateway, the tick's time as range lines print it, seq, and each beacon's reading")
    func json() {
        let message = GatewayReadings(gateway: "gw1", time: Fixture.t0, sequence: 7, readings: [
            BeaconReading(id: "b-1-2", rssi: -61.25, filteredRSSI: -60.5, spread: 1.234, samples: 9, measuredPower: -59, accuracy: 1.5),
        ])
        #expect(message.json == #"{"gateway":"gw1","time":"2026-11-29T12:00:00.000Z","seq":7,"beacons":[{"id":"b-1-2","#
                + #""rssi":-61.3,"filteredRssi":-60.5,"spread":1.23,"samples":9,"measuredPower":-59,"accuracy":1.50}]}"#)
    }
}
