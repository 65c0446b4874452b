import BeaconCore
import BeaconSimulation
import Testing

@Suite("Range session")
struct RangeSessionTests {
    let uuid = BeaconUUID("E2C56DB5-DFFB-48D2-B060-D0F5A71096E0")!
    let t0 = Timestamp(microseconds: 1_800_000_000_000_000)

    func session(duration: Micros? = nil, exitAfter: Micros = .seconds(2)) -> RangeSession {
        RangeSession(monitor: RegionMonitor(regions: [BeaconRegion(uuid: uuid)], exitAfter: exitAfter,
                                            interval: .seconds(1), hashKey: MultilinearHash(seed: 0)), duration: duration)
    }

    /// An LE Advertising Report (not the extended one) carrying `beacon`'s ADV_NONCONN_IND at -60 dBm.
    static func legacyReport(_ beacon: SimulatedBeacon) -> HCIPacket {
        SimulatedAir.report(.nonConnectable, data: beacon.beacon.advertisingData, address: beacon.address,
                            addressType: .publicDevice, rssi: -60, extended: false)
    }

    func complete(_ opcode: HCIOpcode, status: UInt8 = 0) -> HCIPacket {
        HCIEvent.commandComplete(numCommandPackets: 1, opcode: opcode, returnParameters: [status][...]).packet
    }

    func lines(_ outputs: [MonitorOutput]) -> [String] { outputs.map { OutputLine.encode($0) } }

    @Test("monitoring starts when the controller completes the scan enable the host sent")
    func anchorsOnScanEnable() throws {
        var s = session()
        var out: [MonitorOutput] = []
        let beacon = SimulatedAir.beacon(1, uuid: uuid)
        try s.packet(complete(.reset), direction: .received, at: t0) { out.append($0) }
        try s.packet(HCICommand.leSetExtendedScanEnable(true, filterDuplicates: false, duration: 0, period: 0).packet,
                     direction: .sent, at: t0 + .milliseconds(5)) { out.append($0) }
        #expect(out.isEmpty)
        #expect(s.anchor == nil)
        try s.packet(complete(.leSetExtendedScanEnable), direction: .received, at: t0 + .milliseconds(7)) { out.append($0) }
        #expect(s.anchor == t0 + .milliseconds(7))
        try s.packet(SimulatedAir.extendedReport(beacon, rssi: -50), direction: .received, at: t0 + .milliseconds(100)) { out.append($0) }
        #expect(lines(out) == [
            #"{"event":"state","time":"2027-01-15T08:00:00.007Z","region":{"uuid":"E2C56DB5-DFFB-48D2-B060-D0F5A71096E0"},"state":"unknown"}"#,
            #"{"event":"enter","time":"2027-01-15T08:00:00.100Z","region":{"uuid":"E2C56DB5-DFFB-48D2-B060-D0F5A71096E0"}}"#,
            #"{"event":"state","time":"2027-01-15T08:00:00.100Z","region":{"uuid":"E2C56DB5-DFFB-48D2-B060-D0F5A71096E0"},"state":"inside"}"#,
        ])
    }

    @Test("a scan disable, or a failed enable, does not start monitoring")
    func disableIsNoAnchor() throws {
        var s = session()
        try s.packet(HCICommand.leSetScanEnable(false, filterDuplicates: false).packet, direction: .sent, at: t0) { _ in }
        try s.packet(complete(.leSetScanEnable), direction: .received, at: t0) { _ in }
        #expect(s.anchor == nil)
        try s.packet(HCICommand.leSetScanEnable(true, filterDuplicates: false).packet, direction: .sent, at: t0) { _ in }
        try s.packet(complete(.leSetScanEnable, status: 0x0C), direction: .received, at: t0) { _ in }
        #expect(s.anchor == nil)
    }

    @Test("a capture that starts mid-scan is anchored at its first advertising report")
    func anchorsOnFirstReport() throws {
        var s = session()
        var out: [MonitorOutput] = []
        try s.packet(SimulatedAir.otherAdvertisement(address: DeviceAddress(value: 5), rssi: -70), direction: .received, at: t0) { out.append($0) }
        #expect(s.anchor == t0)
        #expect(out.count == 1)
    }

    @Test("a live run (timer wake-ups between packets) and a replay (packets only) print the same lines")
    func liveEqualsReplay() throws {
        var rng = SplitMix64(seed: 7)
        var packets: [(HCIPacket, PacketDirection, Timestamp)] = [
            (HCICommand.leSetScanEnable(true, filterDuplicates: false).packet, .sent, t0),
            (complete(.leSetScanEnable), .received, t0 + .milliseconds(3)),
        ]
        var time = t0 + .milliseconds(3)
        for i in 0..<400 {
            // Bursts with silences long enough to exit and re-enter.
            time = time + Micros(Int64(rng.next() % 90_000) + (i % 100 == 99 ? 3_500_000 : 0))
            let beacon = SimulatedAir.beacon(Int(rng.next() % 4), uuid: uuid)
            packets.append((SimulatedAir.extendedReport(beacon, rssi: Int8(-40 - Int(rng.next() % 40))), .received, time))
        }
        let end = time

        var replay = session()
        var replayed: [MonitorOutput] = []
        for (p, d, t) in packets { try replay.packet(p, direction: d, at: t) { replayed.append($0) } }
        replay.advance(to: end) { replayed.append($0) }

        var live = session()
        var lived: [MonitorOutput] = []
        for (p, d, t) in packets {
            // The poll loop wakes at or after each deadline that falls before the next packet.
            while let due = live.nextDeadline, due < t {
                live.advance(to: due + Micros(Int64(rng.next() % 2_000))) { lived.append($0) }
                if live.nextDeadline == due { break }
            }
            try live.packet(p, direction: d, at: t) { lived.append($0) }
        }
        live.advance(to: end) { lived.append($0) }

        #expect(lines(lived) == lines(replayed))
        #expect(lines(replayed).contains { $0.hasPrefix(#"{"event":"exit""#) })
        #expect(lines(replayed).filter { $0.hasPrefix(#"{"event":"range""#) }.count > 20)
    }

    @Test("--duration ends the session at anchor + duration; later packets are ignored")
    func durationBounds() throws {
        var s = session(duration: .seconds(3), exitAfter: .seconds(10))
        var out: [MonitorOutput] = []
        let beacon = SimulatedAir.beacon(1, uuid: uuid)
        try s.packet(SimulatedAir.extendedReport(beacon, rssi: -50), direction: .received, at: t0) { out.append($0) }
        #expect(s.endTime == t0 + .seconds(3))
        #expect(s.nextDeadline == t0 + .seconds(1))
        #expect(!s.isFinished(at: t0 + .milliseconds(2999)))
        #expect(s.isFinished(at: t0 + .seconds(3)))
        try s.packet(SimulatedAir.extendedReport(beacon, rssi: -50), direction: .received, at: t0 + .seconds(4)) { out.append($0) }
        s.advance(to: t0 + .seconds(60)) { out.append($0) }
        let ranges = lines(out).filter { $0.hasPrefix(#"{"event":"range""#) }
        #expect(ranges.count == 3)
        #expect(!lines(out).contains { $0.hasPrefix(#"{"event":"exit""#) })
    }

    @Test("a malformed report is counted and thrown, and the session goes on")
    func malformedIsSkipped() throws {
        var s = session()
        var out: [MonitorOutput] = []
        let beacon = SimulatedAir.beacon(1, uuid: uuid)
        try s.packet(SimulatedAir.extendedReport(beacon, rssi: -50), direction: .received, at: t0) { out.append($0) }
        // LE Meta, Extended Advertising Report, 1 report, but the report's 24 fixed bytes are missing.
        let truncated = HCIPacket(kind: .event, payload: [0x3E, 0x02, 0x0D, 0x01])
        #expect(throws: DecodeError.self) {
            try s.packet(truncated, direction: .received, at: t0 + .milliseconds(10)) { out.append($0) }
        }
        #expect(s.malformedPackets == 1)
        try s.packet(SimulatedAir.extendedReport(beacon, rssi: -50), direction: .received, at: t0 + .milliseconds(20)) { out.append($0) }
        s.advance(to: t0 + .seconds(1)) { out.append($0) }
        #expect(lines(out).last?.contains(#""samples":2"#) == true)
    }

    @Test("time going backwards in a capture is clamped, never a trap")
    func backwardsTime() throws {
        var s = session()
        var out: [MonitorOutput] = []
        let beacon = SimulatedAir.beacon(1, uuid: uuid)
        try s.packet(SimulatedAir.extendedReport(beacon, rssi: -50), direction: .received, at: t0 + .seconds(5)) { out.append($0) }
        try s.packet(SimulatedAir.extendedReport(beacon, rssi: -60), direction: .received, at: t0) { out.append($0) }
        s.advance(to: t0 + .seconds(6)) { out.append($0) }
        let range = try #require(lines(out).last)
        #expect(range.contains(#""time":"2027-01-15T08:00:06.000Z""#))
        #expect(range.contains(#""rssi":-55.0"#))
        #expect(range.contains(#""samples":2"#))
    }

    @Test("the end of a replay reports the last, partial interval; a region that heard nothing in it prints nothing")
    func partialLastInterval() throws {
        var s = session()
        var out: [MonitorOutput] = []
        let beacon = SimulatedAir.beacon(1, uuid: uuid)
        for ms in stride(from: 0, through: 1400, by: 100) {
            try s.packet(SimulatedAir.extendedReport(beacon, rssi: -50), direction: .received,
                         at: t0 + .milliseconds(Int64(ms))) { out.append($0) }
        }
        s.finish(at: t0 + .milliseconds(1400)) { out.append($0) }
        let ranges = lines(out).filter { $0.hasPrefix(#"{"event":"range""#) }
        #expect(ranges.count == 2)
        #expect(ranges.first?.contains(#""samples":10,"#) == true)
        #expect(ranges.last?.hasPrefix(#"{"event":"range","time":"2027-01-15T08:00:01.400Z""#) == true)
        #expect(ranges.last?.contains(#""samples":5,"#) == true)
        #expect(ranges.last?.hasSuffix(#"}],"partial":true}"#) == true)

        var quiet = session()
        var quietOut: [MonitorOutput] = []
        try quiet.packet(SimulatedAir.extendedReport(beacon, rssi: -50), direction: .received, at: t0) { quietOut.append($0) }
        quiet.finish(at: t0 + .milliseconds(1500)) { quietOut.append($0) }
        quiet.finish(at: t0 + .milliseconds(1600)) { quietOut.append($0) }
        #expect(lines(quietOut).filter { $0.contains("partial") }.isEmpty)
        #expect(lines(quietOut).filter { $0.hasPrefix(#"{"event":"range""#) }.count == 1)
    }

    @Test("every sighting is heard until a region is entered; after that only those of the regions' UUIDs, and the lines stay the same")
    func otherBeaconsDroppedOnceInside() throws {
        let other = BeaconUUID("E2C56DB5-DFFB-48D2-B060-D0F5A7100001")!
        var packets: [(HCIPacket, Timestamp)] = []
        for i in 0..<40 {
            let beacon = SimulatedAir.beacon(i % 4, uuid: i % 2 == 0 ? other : uuid)
            packets.append((Self.legacyReport(beacon), t0 + .milliseconds(Int64(100 * i))))
        }
        var s = session()
        var heard: [BeaconUUID] = []
        var out: [MonitorOutput] = []
        for (packet, time) in packets {
            try s.packet(packet, direction: .received, at: time, emit: { out.append($0) }) { sighting in
                if case .iBeacon(let beacon) = sighting.frame { heard.append(beacon.identity.uuid) }
                return true
            }
        }
        // Report 0 is the other UUID's, report 1 enters the region; from then on only the region's are heard.
        #expect(heard.first == other)
        #expect(Array(heard.dropFirst()) == Array(repeating: uuid, count: 20))

        // The monitor, given every sighting, prints the same lines.
        var monitor = RegionMonitor(regions: [BeaconRegion(uuid: uuid)], exitAfter: .seconds(2), interval: .seconds(1),
                                    hashKey: MultilinearHash(seed: 0))
        var direct: [MonitorOutput] = []
        monitor.start(at: t0) { direct.append($0) }
        for (packet, time) in packets {
            try SightingDecoder.forEachSighting(inEvent: packet.payload, at: time) { monitor.sighting($0) { direct.append($0) } }
        }
        #expect(lines(out) == lines(direct))
        #expect(lines(out).contains { $0.hasPrefix(#"{"event":"range""#) })
    }

    @Test("once heard says it wants no more sightings it is not called again, and the lines do not change")
    func heardStopsWhenItHasEnough() throws {
        let packets = (0..<30).map { i in
            (Self.legacyReport(SimulatedAir.beacon(i % 3, uuid: uuid)), t0 + .milliseconds(Int64(100 * i)))
        }
        var told = 0, all = 0
        var s = session(), counting = session()
        var out: [MonitorOutput] = [], countingOut: [MonitorOutput] = []
        for (packet, time) in packets {
            try s.packet(packet, direction: .received, at: time, emit: { out.append($0) }) { _ in
                told += 1
                return told < 5
            }
            try counting.packet(packet, direction: .received, at: time, emit: { countingOut.append($0) }) { _ in
                all += 1
                return true
            }
        }
        #expect(told == 5)
        #expect(all == 30)
        #expect(lines(out) == lines(countingOut))
    }
}
