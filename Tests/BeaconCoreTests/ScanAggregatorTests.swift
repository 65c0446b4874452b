import Testing
@testable import BeaconCore

@Suite struct ScanAggregatorTests {
    static let uid = EddystoneUID(namespace: EddystoneNamespace(high: 1, low: 2), instance: EddystoneInstance(value: 3))
    static let tlm = EddystoneTLM(batteryMillivolts: 3000, temperatureRaw: 0x1880, advertisementCount: 1, uptimeTenths: 10)

    static func eddystone(_ frame: EddystoneFrame, address: DeviceAddress = Fixture.address2, rssi: Int8? = -70, ms: Int64) -> Sighting {
        Sighting(frame: .eddystone(frame), rssi: rssi, address: address, addressType: .randomDevice, time: Fixture.at(ms: ms))
    }

    struct Harness {
        var aggregator: ScanAggregator
        var outputs: [ScanOutput] = []
        init(each: Bool = false) {
            aggregator = ScanAggregator(interval: .seconds(1), each: each)
            aggregator.start(at: Fixture.t0)
        }
        mutating func add(_ s: Sighting) { aggregator.sighting(s) { outputs.append($0) } }
        mutating func tick(ms: Int64) { aggregator.tick(now: Fixture.at(ms: ms)) { outputs.append($0) } }
        var beacons: [(ScannedBeacon, Timestamp, Bool)] {
            outputs.compactMap { if case let .beacon(b, time, partial) = $0 { (b, time, partial) } else { nil } }
        }
    }

    @Test("one line per beacon per interval; a sighting at the tick belongs to the next interval; silence prints nothing")
    func intervals() {
        var h = Harness()
        h.add(Fixture.sighting(rssi: -50, ms: 0))
        h.add(Fixture.sighting(rssi: -60, ms: 999))
        h.add(Fixture.sighting(rssi: -40, ms: 1_000))
        #expect(h.beacons.count == 1)
        #expect(h.beacons[0].0.samples == 2 && h.beacons[0].0.rssi == -55 && h.beacons[0].1 == Fixture.at(ms: 1_000))
        h.tick(ms: 5_000)
        // 1...2 s heard the sighting at 1 s; 2...5 s were silent.
        #expect(h.beacons.count == 2)
        #expect(h.beacons[1].0.samples == 1 && h.beacons[1].0.firstSeen == Fixture.at(ms: 0) && h.beacons[1].0.lastSeen == Fixture.at(ms: 1_000))
        h.add(Fixture.sighting(rssi: nil, ms: 5_500))
        h.tick(ms: 6_000)
        #expect(h.beacons.count == 3 && h.beacons[2].0.rssi == nil && h.beacons[2].0.samples == 1)
    }

    @Test("an hour of silence at a 10 ms interval: the one interval heard prints, the rest nothing, the beacon is forgotten")
    func longSilence() {
        var aggregator = ScanAggregator(interval: .milliseconds(10))
        aggregator.start(at: Fixture.t0)
        var outputs: [ScanOutput] = []
        aggregator.sighting(Fixture.sighting(ms: 5)) { outputs.append($0) }
        aggregator.tick(now: Fixture.at(ms: 3_600_000)) { outputs.append($0) }
        #expect(outputs.map(\.time) == [Fixture.at(ms: 10)])
        #expect(aggregator.beaconCount == 0 && aggregator.nextDeadline == Fixture.at(ms: 3_600_010))
    }

    @Test("a beacon silent for longer than forgetAfter starts again with a new firstSeen")
    func forgetting() {
        var h = Harness()
        h.add(Fixture.sighting(ms: 100))
        h.tick(ms: 1_000)
        #expect(h.aggregator.beaconCount == 1)
        h.tick(ms: 62_000)
        #expect(h.aggregator.beaconCount == 0)
        h.add(Fixture.sighting(ms: 62_500))
        h.tick(ms: 63_000)
        #expect(h.beacons.last?.0.firstSeen == Fixture.at(ms: 62_500))
        #expect(h.beacons.count == 2)
    }

    @Test("the same identity at two addresses is two beacons; a scan response of the same event is not a second sample")
    func identitiesAndScanResponses() {
        var h = Harness()
        h.add(Fixture.sighting(ms: 100))
        var response = Fixture.sighting(ms: 105)
        response.isScanResponse = true
        h.add(response)
        h.add(Fixture.sighting(address: Fixture.address2, ms: 200))
        h.tick(ms: 1_000)
        #expect(h.beacons.map(\.0.samples) == [1, 1])
        #expect(h.beacons.map(\.0.address) == [Fixture.address1, Fixture.address2])
    }

    @Test("TLM rides on the UID frame of its address; a TLM alone is a line of its own")
    func telemetry() {
        var h = Harness()
        h.add(Self.eddystone(.uid(txPower: -20, Self.uid), ms: 100))
        h.add(Self.eddystone(.tlm(Self.tlm), ms: 200))
        h.add(Self.eddystone(.tlm(Self.tlm), address: Fixture.address1, ms: 300))
        h.tick(ms: 1_000)
        #expect(h.beacons.map(\.0.frame.format) == [.eddystoneUID, .eddystoneTLM])
        #expect(h.beacons[0].0.telemetry == Self.tlm && h.beacons[0].0.samples == 1)
        #expect(h.beacons[1].0.address == Fixture.address1 && h.beacons[1].0.telemetry == nil)
        // The UID line keeps its own frame: the TLM is not a sample of it.
        #expect(h.beacons[0].0.frame == .eddystone(.uid(txPower: -20, Self.uid)))
    }

    @Test("--each: one output per advertisement, no ticks; finish marks the last interval partial")
    func eachAndPartial() {
        var each = Harness(each: true)
        each.add(Fixture.sighting(ms: 100))
        each.add(Fixture.sighting(ms: 200))
        each.tick(ms: 5_000)
        #expect(each.outputs.count == 2 && each.aggregator.nextDeadline == nil)
        var h = Harness()
        h.add(Fixture.sighting(ms: 100))
        h.add(Fixture.sighting(ms: 1_500))
        h.aggregator.finish(at: Fixture.at(ms: 1_700)) { h.outputs.append($0) }
        #expect(h.beacons.map(\.2) == [false, true])
        #expect(h.beacons.last?.1 == Fixture.at(ms: 1_700))
    }

    @Test("--each: a scan response is its own line, marked scanResponse; an advertisement line has no such member")
    func eachMarksScanResponses() {
        var each = Harness(each: true)
        each.add(Fixture.sighting(ms: 100))
        var response = Fixture.sighting(rssi: -70, ms: 101)
        response.isScanResponse = true
        each.add(response)
        let lines = each.outputs.map(ScanLine.encode)
        #expect(lines.count == 2)
        #expect(!lines[0].contains("scanResponse"), "\(lines[0])")
        #expect(lines[1].hasSuffix(#""rssi":-70,"address":"F0:F1:F2:F3:F4:01","addressType":"public","phy":"1m","scanResponse":true}"#), "\(lines[1])")
    }

    @Test("filters: formats, RSSI floor (no RSSI fails it), UUID and namespace prefixes")
    func filter() throws {
        let iBeacon = Fixture.sighting(rssi: -60, ms: 0)
        let eddystone = Self.eddystone(.uid(txPower: -20, Self.uid), ms: 0)
        let url = Self.eddystone(.tlm(Self.tlm), ms: 0)
        #expect(ScanFilter().admits(iBeacon) && ScanFilter().admits(url))
        #expect(!ScanFilter(formats: [.altBeacon]).admits(iBeacon))
        #expect(ScanFilter(minimumRSSI: -60).admits(iBeacon) && !ScanFilter(minimumRSSI: -59).admits(iBeacon))
        #expect(!ScanFilter(minimumRSSI: -100).admits(Fixture.sighting(rssi: nil, ms: 0)))
        let e2 = try #require(HexPrefix("E2C5-6db5-D", limit: 32))
        #expect(ScanFilter(uuidPrefixes: [e2]).admits(iBeacon))
        #expect(!ScanFilter(uuidPrefixes: [try #require(HexPrefix("E2C56DB6", limit: 32))]).admits(iBeacon))
        #expect(!ScanFilter(uuidPrefixes: [e2]).admits(eddystone) && !ScanFilter(uuidPrefixes: [e2]).admits(url))
        // namespace 0x0001 0x0000000000000002
        #expect(ScanFilter(namespacePrefixes: [try #require(HexPrefix("000100000000000000000002", limit: 24))]).admits(eddystone) == false)
        #expect(ScanFilter(namespacePrefixes: [try #require(HexPrefix("00010000000000000000", limit: 20))]).admits(eddystone) == false)
        #expect(ScanFilter(namespacePrefixes: [try #require(HexPrefix("00010000000000000002", limit: 20))]).admits(eddystone))
        #expect(ScanFilter(namespacePrefixes: [try #require(HexPrefix("0001000", limit: 20))]).admits(eddystone))
        #expect(HexPrefix("", limit: 4) == nil && HexPrefix("12345", limit: 4) == nil && HexPrefix("G", limit: 4) == nil)
    }
}

@Suite struct NoMatchHintTests {
    @Test("said once, 3 s after the first beacon heard, with the byte-swapped UUID named first")
    func hint() {
        let reversed = BeaconUUID(bytes: Fixture.uuid.bytes.reversed())!
        var hint = NoMatchHint(regions: [BeaconRegion(uuid: reversed)])
        #expect(hint.note(Fixture.sighting(ms: 1_000)) == nil)
        #expect(hint.note(Fixture.sighting(uuid: Fixture.otherUUID, ms: 2_000)) == nil)
        #expect(hint.check(at: Fixture.at(ms: 3_999)) == nil)
        let text = hint.check(at: Fixture.at(ms: 4_000))
        #expect(text == "Warning: heard 2 beacons for 3s, none in the regions; closest: E2C56DB5-DFFB-48D2-B060-D0F5A71096E0 (the region's \(reversed) is it byte-reversed, as btmon shows it); `beacon scan` lists every beacon heard")
        #expect(hint.check(at: Fixture.at(ms: 9_000)) == nil)
    }

    @Test("a match silences it; so does hearing nothing; fields swapped and a near miss are named")
    func silenceAndDistances() {
        var matched = NoMatchHint(regions: [BeaconRegion(uuid: Fixture.uuid)])
        #expect(matched.note(Fixture.sighting(ms: 0)) == nil)
        #expect(matched.note(Fixture.sighting(uuid: Fixture.otherUUID, ms: 10_000)) == nil)
        var silent = NoMatchHint(regions: [BeaconRegion(uuid: Fixture.uuid)])
        #expect(silent.check(at: Fixture.at(ms: 60_000)) == nil)
        // E2C56DB5-DFFB-48D2 with its first three fields swapped, and one digit off.
        let swapped = BeaconUUID("B56DC5E2-FBDF-D248-B060-D0F5A71096E0")!
        let near = BeaconUUID("E2C56DB5-DFFB-48D2-B060-D0F5A71096E1")!
        var hint = NoMatchHint(regions: [BeaconRegion(uuid: Fixture.uuid)])
        _ = hint.note(Fixture.sighting(uuid: near, ms: 0))
        _ = hint.note(Fixture.sighting(uuid: swapped, ms: 0))
        _ = hint.note(Fixture.sighting(uuid: Fixture.otherUUID, ms: 0))
        #expect(hint.closestIdentifiers() == [
            "B56DC5E2-FBDF-D248-B060-D0F5A71096E0 (the region's E2C56DB5-DFFB-48D2-B060-D0F5A71096E0 is it with its first three fields byte-swapped)",
            "E2C56DB5-DFFB-48D2-B060-D0F5A71096E1",
        ])
    }
}

@Suite struct FormatRegionTests {
    static let id1 = "2F234454-CF6D-4A0F-ADF2-F4911BA9FFA6"

    @Test("--region reads AltBeacon and Eddystone-UID forms and writes them back")
    func parseAndDescribe() throws {
        for text in ["altbeacon:\(Self.id1)", "alt=altbeacon:\(Self.id1):0", "altbeacon:\(Self.id1):1:65535",
                     "eddystone:00010203040506070809", "e=eddystone:00010203040506070809:0A0B0C0D0E0F",
                     "E2C56DB5-DFFB-48D2-B060-D0F5A71096E0:1"] {
            let region = try BeaconRegion.parse(text).get()
            #expect(region.description == text)
        }
        #expect(try BeaconRegion.parse("ibeacon:E2C56DB5-DFFB-48D2-B060-D0F5A71096E0").get().format == .iBeacon)
        #expect(try BeaconRegion.parse("AltBeacon:\(Self.id1)").get().format == .altBeacon)
        for (text, error) in [
            ("altbeacon:\(Self.id1):1:2:3", "has more than altbeacon:ID1:ID2:ID3"),
            ("altbeacon:1234", "'1234' is not an ID1"),
            ("altbeacon:\(Self.id1):x", "ID2 'x' is not an integer in 0...65535"),
            ("eddystone:0001", "'0001' is not an Eddystone namespace (expected 20 hex digits)"),
            ("eddystone:00010203040506070809:0A", "'0A' is not an Eddystone instance (expected 12 hex digits)"),
            ("eddystone:00010203040506070809:0A0B0C0D0E0F:1", "has more than eddystone:NAMESPACE:INSTANCE"),
        ] {
            guard case .failure(let problem) = BeaconRegion.parse(text) else { Issue.record("\(text) parsed"); continue }
            #expect(problem.description.contains(error), "\(problem)")
        }
    }

    @Test("wildcards and 0 is a value, per format; a region matches only its own format")
    func matching() throws {
        let id1 = try #require(BeaconUUID(Self.id1))
        let alt = BeaconID.altBeacon(AltBeaconID(id1: id1, id2: 0, id3: 7))
        #expect(BeaconRegion(.altBeacon(id1: id1, id2: nil, id3: nil)).matches(alt))
        #expect(BeaconRegion(.altBeacon(id1: id1, id2: 0, id3: nil)).matches(alt))
        #expect(BeaconRegion(.altBeacon(id1: id1, id2: 0, id3: 7)).matches(alt))
        #expect(!BeaconRegion(.altBeacon(id1: id1, id2: 0, id3: 0)).matches(alt))
        #expect(!BeaconRegion(.altBeacon(id1: id1, id2: 1, id3: nil)).matches(alt))
        #expect(!BeaconRegion(uuid: id1).matches(alt))
        #expect(!BeaconRegion(.altBeacon(id1: id1, id2: nil, id3: nil)).matches(.iBeacon(BeaconIdentity(uuid: id1, major: 0, minor: 7))))
        let uid = ScanAggregatorTests.uid
        #expect(BeaconRegion(.eddystoneUID(namespace: uid.namespace, instance: nil)).matches(.eddystoneUID(uid)))
        #expect(BeaconRegion(.eddystoneUID(namespace: uid.namespace, instance: uid.instance)).matches(.eddystoneUID(uid)))
        #expect(!BeaconRegion(.eddystoneUID(namespace: uid.namespace, instance: EddystoneInstance(value: 0))).matches(.eddystoneUID(uid)))
    }

    @Test("an Eddystone region ranges its beacon with the latest TLM of its address, within the tracking age")
    func telemetryOnRangedEntry() throws {
        let uid = ScanAggregatorTests.uid
        var h = MonitorHarness([BeaconRegion(.eddystoneUID(namespace: uid.namespace, instance: nil))])
        h.sighting(ScanAggregatorTests.eddystone(.uid(txPower: -20, uid), ms: 100))
        h.sighting(ScanAggregatorTests.eddystone(.tlm(ScanAggregatorTests.tlm), ms: 200))
        // Another address's TLM is not this beacon's.
        h.sighting(ScanAggregatorTests.eddystone(.tlm(EddystoneTLM(batteryMillivolts: 1, temperatureRaw: 0, advertisementCount: 0,
                                                                   uptimeTenths: 0)), address: Fixture.address1, ms: 300))
        let entry = try #require(h.tick(ms: 1_000).first?.beacons?.first)
        #expect(entry.telemetry == ScanAggregatorTests.tlm)
        #expect(entry.txPower == -20 && entry.measuredPower == -61 && entry.samples == 1)
        let line = OutputLine.encode(.range(BeaconRegion(.eddystoneUID(namespace: uid.namespace, instance: nil)), Fixture.at(ms: 1_000), [entry]))
        #expect(line.contains(#""region":{"format":"eddystone-uid","namespace":"00010000000000000002"},"beacons":[{"format":"eddystone-uid","namespace":"00010000000000000002","instance":"000000000003","#))
        #expect(line.hasSuffix(#""telemetry":{"batteryMillivolts":3000,"temperature":24.50,"advertisementCount":1,"uptime":1.0}}]}"#))
        // After the tracking age (5 s) the telemetry is no longer attached.
        h.sighting(ScanAggregatorTests.eddystone(.uid(txPower: -20, uid), ms: 7_100))
        let later = try #require(h.tick(ms: 8_000).last?.beacons?.first)
        #expect(later.telemetry == nil)
    }

    @Test("a flood of new identities: at most maximumBeacons remembered, the least recently heard evicted and counted, a beacon heard all along kept")
    func floodOfIdentitiesIsBounded() {
        var aggregator = ScanAggregator(interval: .seconds(1), maximumBeacons: 64)
        aggregator.start(at: Fixture.t0)
        var outputs: [ScanOutput] = []
        for sighting in Fixture.flood(1_000) {
            aggregator.sighting(sighting) { outputs.append($0) }
            #expect(aggregator.beaconCount <= 64)
        }
        #expect(aggregator.evictedBeacons == 1_001 - aggregator.beaconCount)
        aggregator.tick(now: Fixture.at(ms: 1_000)) { outputs.append($0) }
        #expect(outputs.contains { if case .beacon(let b, _, _) = $0 { b.frame.identity == Fixture.steadyIdentity } else { false } })
    }
}
