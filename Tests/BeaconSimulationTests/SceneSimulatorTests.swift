import BeaconCore
import BeaconSimulation
import Testing

@Suite("Scene simulator")
struct SceneSimulatorTests {
    @Test("the same scene and seed give the same bytes; another seed gives others", arguments: Scene.allNamed.map(\.name))
    func deterministic(name: String) throws {
        var scene = try #require(Scene.named(name))
        scene.duration = .seconds(30)
        let first = try captureBytes(scene, seed: 42)
        #expect(try captureBytes(scene, seed: 42) == first)
        #expect(try captureBytes(scene, seed: 43) != first)
    }

    /// FNV-1a of `bytes`, a fingerprint that is the same on every run.
    static func fingerprint(_ bytes: [UInt8]) -> UInt64 {
        bytes.reduce(0xCBF2_9CE4_8422_2325) { ($0 ^ UInt64($1)) &* 0x0000_0100_0000_01B3 }
    }

    @Test("scenes without a site or dips keep the captures and ground truth they had before sites and dips came",
          arguments: [("lossy-office", UInt64(1), UInt64(0x6595_C1D6_E688_EFAD), UInt64(0x217F_A8FA_C16C_2121)),
                      ("crowd", 7, 0xFD80_A93E_054A_0C11, 0x166B_32B2_D16D_1DEF)])
    func bytesKept(name: String, seed: UInt64, capture: UInt64, truth: UInt64) throws {
        // Fingerprints of `beacon simulate --scene NAME --duration 30s --seed SEED --out C --truth T` made
        // before: scan responses, mixed reports, interference, body blocking, loss, starts and stops. The
        // crowd's ground truth is as of each row giving its own beacon's regions.
        let scene = try #require(Scene.named(name)).with(duration: .seconds(30))
        #expect(Self.fingerprint(try captureBytes(scene, seed: seed)) == capture)
        var lines: [UInt8] = []
        try SceneSimulator(scene: scene, seed: seed).run(packet: { _ in }, truth: { row in
            lines += Array(row.jsonLine(regions: scene.regions, gatewayNames: []).utf8) + [UInt8(ascii: "\n")]
        })
        #expect(Self.fingerprint(lines) == truth)
    }

    @Test("adding a beacon leaves the others' packets as they were")
    func beaconsAreIndependent() throws {
        let one = oneBeaconScene(radio: RadioModel(loss: 0.2))
        var two = one
        var second = two.beacons[0]
        second.beacon = .iBeacon(IBeacon(identity: IBeaconID(uuid: sceneUUID, major: 1, minor: 2), measuredPower: -59))
        second.address = SceneBeacon.defaultAddress(index: 1)
        two.beacons.append(second)
        let alone = try simulate(one).reports.map { "\($0.time) \($0.report.rssi)" }
        let together = try simulate(two).reports.filter { $0.report.address == one.beacons[0].address }
            .map { "\($0.time) \($0.report.rssi)" }
        #expect(alone == together)
    }

    @Test("the capture reads back with BtsnoopReader, and every report decodes to the beacon's sighting")
    func captureDecodes() throws {
        let scene = try #require(Scene.named("hallway"))
        let bytes = try captureBytes(scene, seed: 1)
        var reader = BtsnoopReader()
        reader.append(bytes)
        var records: [BtsnoopRecord] = []
        while let record = try reader.next() { records.append(record) }
        try reader.finish()
        #expect(reader.header?.datalink == .h4)
        #expect(zip(records, records.dropFirst()).allSatisfy { $0.timestamp <= $1.timestamp })
        #expect(records.first?.timestamp == SceneSimulator.defaultStart)
        #expect(records.last?.timestamp == SceneSimulator.defaultStart + scene.duration)

        let identities = Dictionary(uniqueKeysWithValues: scene.beacons.map { ($0.address, $0.beacon.identity) })
        var sightings = 0
        for record in records where record.direction == .received {
            try SightingDecoder.forEachSighting(inEvent: record.packet.payload, at: record.timestamp) { sighting in
                #expect(identities[sighting.address] == sighting.identity)
                #expect(sighting.measuredPower == -59)
                #expect(sighting.addressType == .randomDevice)
                sightings += 1
            }
        }
        #expect(sightings > 10_000)
    }

    @Test("scanning is turned on at the start and off at the end, with the commands the report format needs",
          arguments: [(ReceiverModel.ReportFormat.extended, [HCIOpcode.leSetExtendedScanParameters, .leSetExtendedScanEnable],
                       HCIOpcode.leSetExtendedScanEnable),
                      (.legacy, [.leSetScanParameters, .leSetScanEnable], .leSetScanEnable)])
    func scanCommands(format: ReceiverModel.ReportFormat, startCommands: [HCIOpcode], stopCommand: HCIOpcode) throws {
        let scene = oneBeaconScene(duration: .seconds(5), receiver: ReceiverModel(reports: format))
        let packets = try simulate(scene).packets
        let start = SceneSimulator.defaultStart
        var expected: [(HCIOpcode, Timestamp)] = startCommands.map { ($0, start) }
        expected.append((stopCommand, start + .seconds(5)))
        let commands = try packets.filter { $0.direction == .sent }.map { (try HCICommand.decode($0.packet.payload), $0.time) }
        #expect(commands.map(\.0.opcode) == expected.map(\.0))
        #expect(commands.map(\.1) == expected.map(\.1))
        #expect(commands.last?.0.parameters.first == 0) // disable
        #expect(commands[1].0.parameters.prefix(2) == [1, 0]) // enable, duplicates not filtered
        // Each command is answered by a Command Complete with status success right after it.
        for (index, packet) in packets.enumerated() where packet.direction == .sent {
            let answer = try HCIEvent.decode(packets[index + 1].packet.payload)
            #expect(answer == .commandComplete(numCommandPackets: 1, opcode: try HCICommand.decode(packet.packet.payload).opcode,
                                               returnParameters: [0][...]))
        }
    }

    @Test("report formats: legacy, extended, or both mixed", arguments: ReceiverModel.ReportFormat.allCases)
    func reportFormats(format: ReceiverModel.ReportFormat) throws {
        let reports = try simulate(oneBeaconScene(duration: .seconds(10), receiver: ReceiverModel(reports: format))).reports
        let extended = reports.filter(\.report.isExtended).count
        switch format {
        case .legacy: #expect(extended == 0)
        case .extended: #expect(extended == reports.count)
        case .mixed: #expect(extended > reports.count / 4 && extended < reports.count * 3 / 4)
        }
        #expect(reports.allSatisfy { $0.report.eventType == ($0.report.isExtended ? 0x0010 : 0x03) })
    }

    @Test("a mixed receiver sends its extended share of the beacons' and the neighbours' reports as extended ones",
          arguments: [0.0, 0.1, 0.5, 1.0])
    func extendedShare(share: Double) throws {
        var scene = oneBeaconScene(duration: .seconds(300), receiver: ReceiverModel(reports: .mixed, extendedShare: share))
        scene.neighbours = Neighbours(count: 3, interval: .milliseconds(100))
        let record = try simulate(scene)
        for reports in [try record.reports, try record.neighbourReports] {
            let extended = Double(reports.filter(\.report.isExtended).count) / Double(reports.count)
            #expect(reports.count > 2500)
            #expect(abs(extended - share) < 0.03, "\(extended) of \(reports.count)")
        }
    }

    @Test("neighbours: each at its own address, every interval, their turns spread evenly from half an interval in")
    func neighbours() throws {
        var scene = oneBeaconScene(duration: .seconds(10))
        scene.neighbours = Neighbours(count: 4, interval: .milliseconds(200))
        let reports = try simulate(scene).neighbourReports
        // Turns at 100 ms + k × 50 ms before the end at 10 s.
        #expect(reports.count == 198)
        let start = SceneSimulator.defaultStart
        for (turn, (time, report)) in reports.enumerated() {
            #expect(time == start + Micros(100_000 + Int64(turn) * 50_000))
            #expect(report.address == Neighbours.address(index: turn % 4))
            #expect(report.rssi == -70 && report.eventType == 0x0010)
            #expect(BeaconFrame.find(inAdvertisingData: report.data) == nil)
        }
    }

    @Test("one neighbour by default, once a second from half a second in, at D0:5E:00:00:00:01")
    func defaultNeighbour() throws {
        let reports = try simulate(oneBeaconScene(duration: .seconds(5))).neighbourReports
        #expect(reports.map(\.time) == (0..<5).map { SceneSimulator.defaultStart + Micros(500_000 + Int64($0) * 1_000_000) })
        #expect(reports.allSatisfy { $0.report.address == DeviceAddress(value: 0xD0_5E_00_00_00_01) })
    }

    @Test("scannable beacons answer an active scanner with scan responses half a millisecond later",
          arguments: SceneBeacon.ScanResponse.allCases)
    func scanResponses(response: SceneBeacon.ScanResponse) throws {
        let scene = oneBeaconScene(duration: .seconds(10), receiver: ReceiverModel(reports: .mixed, activeScanning: true)) {
            $0.scanResponse = response
        }
        let reports = try simulate(scene).reports
        let responses = reports.filter { $0.report.eventType == ($0.report.isExtended ? 0x001A : 0x04) }
        guard response != .none else {
            #expect(responses.isEmpty)
            return
        }
        // Nothing is lost in this scene, so every advertisement has its answer, reported the same way.
        #expect(responses.count == reports.count / 2)
        for (advertisement, answer) in zip(reports.filter { !responses.map(\.time).contains($0.time) }, responses) {
            #expect(advertisement.report.eventType == (advertisement.report.isExtended ? 0x0012 : 0x02))
            #expect(answer.time == advertisement.time + Micros(500))
            #expect(answer.report.isExtended == advertisement.report.isExtended)
            #expect(answer.report.address == advertisement.report.address)
        }
        var sightings: [Sighting] = []
        for (time, report) in responses {
            let event = HCIEvent.leMeta(report.isExtended ? .extendedAdvertisingReport([report]) : .advertisingReport([report]))
            try SightingDecoder.forEachSighting(inEvent: event.encode()[...], at: time) { sightings.append($0) }
        }
        #expect(sightings.count == (response == .beacon ? responses.count : 0))

        let passive = try simulate(oneBeaconScene(duration: .seconds(10)) { $0.scanResponse = response }).reports
        #expect(passive.allSatisfy { $0.report.eventType == 0x0012 })
    }

    @Test("a beacon advertises only between its start and stop")
    func startAndStop() throws {
        let scene = oneBeaconScene(duration: .seconds(30)) {
            $0.start = .seconds(10)
            $0.stop = .seconds(20)
        }
        let times = try simulate(scene).reports.map { $0.time - SceneSimulator.defaultStart }
        #expect(times.count > 80)
        #expect(times.allSatisfy { $0 >= .seconds(10) && $0 < .seconds(20) })
    }

    @Test("advertising events come every interval plus 0...jitter")
    func advertisingInterval() throws {
        let scene = oneBeaconScene(duration: .seconds(60)) {
            $0.interval = .milliseconds(250)
            $0.jitter = .milliseconds(20)
        }
        let times = try simulate(scene).reports.map(\.time)
        let gaps = zip(times, times.dropFirst()).map { $1 - $0 }
        #expect(gaps.allSatisfy { $0 >= .milliseconds(250) && $0 <= .milliseconds(270) })
        #expect(abs(mean(gaps.map(\.seconds)) - 0.26) < 0.002)
    }

    @Test("a start time other than the default moves every timestamp")
    func startTime() throws {
        let start = Timestamp(microseconds: 1_800_000_000_000_000)
        var packets: [SimulatedPacket] = []
        try SceneSimulator(scene: oneBeaconScene(duration: .seconds(2)), seed: 1, start: start)
            .run(packet: { packets.append($0) }, truth: { _ in })
        #expect(packets.first?.time == start)
        #expect(packets.last?.time == start + .seconds(2))
    }

    struct Enough: Error, Equatable {}

    @Test("an error thrown by a callback ends the run and comes out of it")
    func callbackErrorEndsRun() throws {
        let simulator = try SceneSimulator(scene: oneBeaconScene(), seed: 1)
        var sightings = 0
        #expect(throws: Enough()) {
            try simulator.run(
                packet: { simulated in
                    try SightingDecoder.forEachSighting(inEvent: simulated.packet.payload, at: simulated.time) { _ in sightings += 1 }
                    if sightings == 10 { throw Enough() }
                },
                truth: { _ in })
        }
        #expect(sightings == 10)
    }

    @Test("an invalid scene is refused before the run starts")
    func invalidScene() {
        let scene = oneBeaconScene { $0.interval = .milliseconds(5) }
        #expect(throws: SceneError(field: "beacons[0].interval", "must be 20ms...10.24s")) {
            try SceneSimulator(scene: scene, seed: 1)
        }
    }
}

@Suite("Ground truth")
struct GroundTruthTests {
    @Test("one row per beacon and tick, in time order, ticks from the start up to the end")
    func rowsPerTick() throws {
        var scene = try #require(Scene.named("hallway"))
        scene.duration = .milliseconds(10_500)
        let truth = try simulate(scene).truth
        #expect(truth.count == 11 * scene.beacons.count)
        for (tick, rows) in stride(from: 0, to: truth.count, by: scene.beacons.count).map({ truth[$0..<$0 + scene.beacons.count] })
            .enumerated() {
            #expect(rows.map(\.beaconIndex) == Array(0..<scene.beacons.count))
            #expect(rows.allSatisfy { $0.elapsed == .seconds(Int64(tick)) && $0.time == SceneSimulator.defaultStart + .seconds(Int64(tick)) })
        }
    }

    @Test("rows come before the packets of their instant, and every packet of a beacon falls while it advertises")
    func rowsAndPacketsAgree() throws {
        let scene = try #require(Scene.named("hallway"))
        var events: [(time: Timestamp, row: TruthRow?)] = []
        try SceneSimulator(scene: scene, seed: 2).run(packet: { events.append(($0.time, nil)) }, truth: { events.append(($0.time, $0)) })
        #expect(zip(events, events.dropFirst()).allSatisfy { $0.time <= $1.time })
        let record = try simulate(scene, seed: 2)
        for (index, beacon) in scene.beacons.enumerated() {
            let times = try record.reports.filter { $0.report.address == beacon.address }.map { $0.time - SceneSimulator.defaultStart }
            #expect(!times.isEmpty)
            #expect(times.allSatisfy { beacon.isAdvertising(at: $0, sceneDuration: scene.duration) }, "beacon \(index)")
        }
        let passer = record.truth.filter { $0.beaconIndex == 2 }
        #expect(passer.filter(\.isAdvertising).map(\.elapsed) == (60..<180).map { Micros.seconds(Int64($0)) })
    }

    @Test("distances and mean powers are those of the path and the model")
    func distances() throws {
        let scene = try #require(Scene.named("walk-away"))
        for row in try simulate(scene).truth {
            #expect(row.distance == scene.beacons[0].path.distance(at: row.elapsed))
            #expect(row.meanRSSI == scene.radio.meanRSSI(measuredPower: -59, distance: row.distance))
            #expect(row.isAudible == (row.meanRSSI >= scene.receiver.sensitivity))
            #expect(row.regionsInside == [row.isAudible])
        }
    }

    @Test("walk-away: inside, then outside while out of range, then inside again")
    func walkAway() throws {
        let truth = try simulate(try #require(Scene.named("walk-away"))).truth
        let inside = truth.map { $0.regionsInside[0] }
        let changes = zip(inside, inside.dropFirst()).enumerated().filter { $1.0 != $1.1 }.map { ($0 + 1, $1.1) }
        #expect(changes.count == 2)
        #expect(inside.first == true && inside.last == true)
        #expect(changes.first.map { $0.0 > 30 && !$0.1 } == true)
    }

    @Test("a beacon's row says it is in a region only while the region matches it and it is audible")
    func regionsInside() throws {
        let scene = try #require(Scene.named("crowd"))
        let truth = try simulate(scene).truth
        for row in truth {
            for (r, region) in scene.regions.enumerated() {
                #expect(row.regionsInside[r] == (row.isAudible && row.identity.map(region.region.matches) == true))
            }
        }
        // At a tick where the other company's beacons are in their region, an audible beacon of the
        // scene's UUID beside them is not.
        let other = try #require(scene.regions.firstIndex { $0.name == "other" })
        let ticks = Dictionary(grouping: truth, by: \.elapsed).values
        #expect(ticks.contains { rows in
            rows.contains { $0.regionsInside[other] } && rows.contains { $0.isAudible && !$0.regionsInside[other] }
        })
    }

    @Test("the JSON line has every member, in the documented order")
    func jsonLine() throws {
        let row = GroundTruth(time: SceneSimulator.defaultStart + .seconds(3), elapsed: .seconds(3), beaconIndex: 1,
                              beacon: .iBeacon(IBeacon(identity: IBeaconID(uuid: sceneUUID, major: 1, minor: 2), measuredPower: -59)),
                              address: DeviceAddress(value: 0xC000_0000_0002), distance: 2.5, isAdvertising: true,
                              meanRSSI: -66.958, isAudible: true, regionsInside: [true, false])
        let regions = [NamedRegion(name: "a", region: BeaconRegion(uuid: sceneUUID)),
                       NamedRegion(name: "b\"c", region: BeaconRegion(uuid: sceneUUID, major: 9))]
        #expect(row.jsonLine(regions: regions) == #"{"time":"2026-01-01T00:00:03.000Z","elapsed":3.000,"beacon":1,"#
            + #""uuid":"E2C56DB5-DFFB-48D2-B060-D0F5A71096E0","major":1,"minor":2,"address":"C0:00:00:00:00:02","#
            + #""distance":2.500,"advertising":true,"meanRSSI":-67.0,"audible":true,"regions":{"a":true,"b\"c":false}}"#)
    }

    @Test("an AltBeacon's, an Eddystone-UID's and an Eddystone-URL's rows name the format and its identity")
    func jsonLineOtherFormats() throws {
        func line(_ beacon: AdvertisedBeacon) -> String {
            GroundTruth(time: SceneSimulator.defaultStart, elapsed: Micros(0), beaconIndex: 0, beacon: beacon,
                        address: DeviceAddress(value: 0xC000_0000_0001), distance: 1, isAdvertising: true, meanRSSI: -59,
                        isAudible: true, regionsInside: []).jsonLine(regions: [])
        }
        let tail = #""address":"C0:00:00:00:00:01","distance":1.000,"advertising":true,"meanRSSI":-59.0,"audible":true,"regions":{}}"#
        let head = #"{"time":"2026-01-01T00:00:00.000Z","elapsed":0.000,"beacon":0,"#
        #expect(line(.altBeacon(AltBeacon(id1: sceneUUID, id2: 3, id3: 4, referenceRSSI: -59)))
            == head + #""format":"altbeacon","id1":"E2C56DB5-DFFB-48D2-B060-D0F5A71096E0","id2":3,"id3":4,"# + tail)
        let uid = EddystoneUID(namespace: try #require(EddystoneNamespace("00010203040506070809")), instance: EddystoneInstance(value: 0x0A0B))
        #expect(line(.eddystone(EddystonePayload(frame: .uid(uid), txPowerAt0m: -18)))
            == head + #""format":"eddystone-uid","namespace":"00010203040506070809","instance":"000000000A0B","# + tail)
        #expect(line(.eddystone(EddystonePayload(frame: .url(try EddystoneURL("https://example.com/")), txPowerAt0m: -18)))
            == head + #""format":"eddystone-url","url":"https://example.com/","# + tail)
    }

    @Test("beacons of every format: the capture carries each one's own advertisement, and its rows their regions")
    func otherFormats() throws {
        let uid = EddystoneUID(namespace: try #require(EddystoneNamespace("00010203040506070809")), instance: EddystoneInstance(value: 1))
        let advertised: [AdvertisedBeacon] = [
            .altBeacon(AltBeacon(id1: sceneUUID, id2: 1, id3: 2, referenceRSSI: -59)),
            .eddystone(EddystonePayload(frame: .uid(uid), txPowerAt0m: -20)),
            .eddystone(EddystonePayload(frame: .url(try EddystoneURL("https://example.com/")), txPowerAt0m: -20)),
            .iBeacon(IBeacon(identity: IBeaconID(uuid: sceneUUID, major: 1, minor: 2), measuredPower: -59)),
        ]
        var scene = oneBeaconScene(duration: .seconds(3))
        scene.beacons = advertised.enumerated().map { index, beacon in
            SceneBeacon(beacon: beacon, address: SceneBeacon.defaultAddress(index: index), path: .standing(distance: 1))
        }
        scene.regions = Scene.defaultRegions(for: scene.beacons)
        #expect(scene.regions.map(\.name) == ["altbeacon:\(sceneUUID)", "eddystone:00010203040506070809", "\(sceneUUID)"])
        let record = try simulate(scene)
        for (index, beacon) in scene.beacons.enumerated() {
            let data = try record.reports.filter { $0.report.address == beacon.address }.map { Array($0.report.data) }
            #expect(!data.isEmpty && data.allSatisfy { $0 == beacon.beacon.advertisingData }, "beacon \(index)")
        }
        for row in record.truth {
            #expect(row.regionsInside == [row.beaconIndex == 0, row.beaconIndex == 1, row.beaconIndex == 3], "beacon \(row.beaconIndex)")
        }
    }
}
