import Foundation
import SchemaValidation
import Testing
import BeaconCore

/// Checks the printed lines against docs/output.schema.json and the examples in docs/output.md.
@Suite("Output schema")
struct OutputSchemaTests {
    static let docs = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("docs")

    let markdown: String

    init() throws {
        markdown = try String(contentsOf: Self.docs.appendingPathComponent("output.md"), encoding: .utf8)
    }

    /// Expects every line to validate.
    func expectValid(_ lines: [String], sourceLocation: SourceLocation = #_sourceLocation) throws {
        for (line, problem) in zip(lines, try SchemaValidator.problems(lines)) {
            #expect(problem == nil, "\(line)", sourceLocation: sourceLocation)
        }
    }

    /// Lines exercising every event, every region shape and every beacon field variant.
    static var sampleOutputs: [MonitorOutput] {
        let wildcard = BeaconRegion(uuid: Fixture.uuid)
        let major = BeaconRegion(uuid: Fixture.uuid, major: 0)
        let full = BeaconRegion(uuid: Fixture.otherUUID, major: 65535, minor: 0)
        let named = BeaconRegion(name: "kitchen-door", uuid: Fixture.uuid, major: 7)
        func beacon(_ minor: UInt16, rssi: Double?, filtered: Double?, accuracy: Double, _ proximity: Proximity,
                    _ type: AddressType, valid: Bool = true) -> RangedBeacon {
            RangedBeacon(identity: IBeaconID(uuid: Fixture.uuid, major: 0, minor: minor), rssi: rssi,
                         filteredRSSI: filtered, measuredPower: -128, measuredPowerValid: valid,
                         accuracy: accuracy, proximity: proximity,
                         address: DeviceAddress(value: 0xFFFF_FFFF_FFFF), addressType: type, samples: 1,
                         lastSeen: Fixture.at(ms: 1_500))
        }
        return RegionState.allCases.map { .state(wildcard, $0, Fixture.t0) } + [
            .enter(major, Fixture.at(ms: 1)),
            .state(named, .inside, Fixture.at(ms: 1)),
            .range(named, Fixture.at(ms: 1_000), []),
            .exit(full, Fixture.at(ms: 999)),
            .range(full, Fixture.at(ms: 1_000), []),
            .partialRange(full, Fixture.at(ms: 2_500), [beacon(9, rssi: -70, filtered: -70, accuracy: 4, .far, .publicDevice)]),
            .range(wildcard, Fixture.at(ms: 2_000), [
                beacon(1, rssi: -127, filtered: -126.5, accuracy: 0.0, .immediate, .publicIdentity),
                beacon(2, rssi: -60.25, filtered: -61, accuracy: -1, .unknown, .randomIdentity, valid: false),
                beacon(3, rssi: 20, filtered: 0, accuracy: 3.0e20, .far, .anonymous),
                beacon(4, rssi: nil, filtered: nil, accuracy: -1, .unknown, .unknown(0x05)),
                beacon(5, rssi: 0, filtered: -0.04, accuracy: 0.2, .immediate, .publicDevice),
            ]),
        ]
    }

    @Test func encodedLinesValidate() throws {
        let lines = Self.sampleOutputs.map(OutputLine.encode)
        #expect(lines.allSatisfy { !$0.contains("\n") && !$0.contains(" ") })
        try expectValid(lines)
    }

    /// Scan lines of every format and frame, and range lines of AltBeacon and Eddystone regions.
    static var formatLines: [String] {
        let uid = EddystoneUID(namespace: EddystoneNamespace(high: 0xFFFF, low: 1), instance: EddystoneInstance(value: 0xFFFF_FFFF_FFFF))
        let tlm = EddystoneTLM(batteryMillivolts: 3000, temperatureRaw: -256, advertisementCount: 7, uptimeTenths: 5)
        let unsupported = EddystoneTLM(batteryMillivolts: 0, temperatureRaw: EddystoneTLM.temperatureNotSupported,
                                       advertisementCount: UInt32.max, uptimeTenths: UInt32.max)
        var urlData: [UInt8] = [0x10, 0x80, 0x01]
        urlData += Array("example".utf8) + [0x07]
        let url = try! EddystoneFrame.decode(serviceData: ([0xAA, 0xFE] + urlData)[...])!
        let frames: [BeaconFrame] = [
            .iBeacon(IBeacon(identity: IBeaconID(uuid: Fixture.uuid, major: 0, minor: 65535), measuredPower: -128)),
            .altBeacon(AltBeacon(identity: AltBeaconID(id1: Fixture.otherUUID, id2: 0, id3: 1), companyID: 0xFFFF, referenceRSSI: 127, reserved: 255)),
            .eddystone(.uid(txPower: -128, uid)), .eddystone(url), .eddystone(.tlm(tlm)), .eddystone(.tlm(unsupported)),
            .eddystone(.encryptedTLM(EncryptedTLM(high: 1, low: 2))), .eddystone(.eid(txPower: 127, 0xFFFF_0000_FFFF_0000)),
        ]
        var lines: [String] = []
        for (i, frame) in frames.enumerated() {
            let sighting = Sighting(frame: frame, rssi: i % 2 == 0 ? -127 : nil, address: Fixture.address1,
                                    addressType: AddressType(raw: UInt8(i % 5)), time: Fixture.t0, isScanResponse: i % 3 == 1,
                                    phy: [PHY.le1M, .leCoded, .unknown(0x07)][i % 3])
            lines.append(ScanLine.encode(.advertisement(sighting)))
            var beacon = ScannedBeacon(frame: frame, address: Fixture.address2, addressType: .randomDevice, rssi: i % 2 == 0 ? 20 : nil,
                                       samples: 1 + i, firstSeen: Fixture.t0, lastSeen: Fixture.at(ms: 900))
            if case .eddystone = frame, frame.format != .eddystoneTLM { beacon.telemetry = tlm }
            beacon.phy = i % 2 == 0 ? .leCoded : .le1M
            lines.append(ScanLine.encode(.beacon(beacon, time: Fixture.at(ms: 1_000), partial: i == 3)))
        }
        let alt = BeaconRegion(name: "alt", .altBeacon(id1: Fixture.uuid, id2: 0, id3: 0))
        let eddystone = BeaconRegion(.eddystoneUID(namespace: uid.namespace, instance: uid.instance))
        var ranged = RangedBeacon(identity: .eddystoneUID(uid), rssi: -60, filteredRSSI: -61, measuredPower: -61, accuracy: 1,
                                  proximity: .near, address: Fixture.address1, addressType: .randomDevice, samples: 3, lastSeen: Fixture.t0)
        ranged.txPower = -20
        ranged.phy = .leCoded
        ranged.telemetry = unsupported
        let altRanged = RangedBeacon(identity: .altBeacon(AltBeaconID(id1: Fixture.uuid, id2: 0, id3: 0)), rssi: nil, measuredPower: -59,
                                     accuracy: -1, proximity: .unknown, address: Fixture.address2, addressType: .publicDevice,
                                     samples: 0, lastSeen: Fixture.t0)
        lines += [.state(alt, .unknown, Fixture.t0), .enter(eddystone, Fixture.t0), .range(eddystone, Fixture.at(ms: 1_000), [ranged]),
                  .range(alt, Fixture.at(ms: 1_000), [altRanged])].map(OutputLine.encode)
        return lines
    }

    @Test func formatLinesValidate() throws {
        try expectValid(Self.formatLines)
    }

    @Test func monitorRunValidates() throws {
        var h = MonitorHarness([BeaconRegion(uuid: Fixture.uuid), BeaconRegion(uuid: Fixture.uuid, major: 3, minor: 4)],
                               exitAfter: .seconds(3))
        for i in 0..<40 {
            h.sighting(Fixture.sighting(major: UInt16(i % 4), minor: 4, rssi: i % 7 == 0 ? nil : Int8(-40 - i),
                                        address: DeviceAddress(value: UInt64(i % 3)),
                                        addressType: AddressType(raw: UInt8(i % 5)), ms: Int64(i) * 150))
        }
        h.tick(ms: 60_000)
        #expect(Set(h.outputs.map(\.kind)) == ["state", "enter", "range", "exit"])
        try expectValid(h.outputs.map(OutputLine.encode))
    }

    @Test func deviceLinesValidate() throws {
        let capabilities = [ProcessCapabilities(netAdmin: true, netRaw: true), ProcessCapabilities(netAdmin: false, netRaw: false)]
        var lines: [String] = []
        for bus in [0, 3, 11, 200] as [UInt8] {
            for type in [0, 1, 9] as [UInt8] {
                for held in capabilities {
                    let controller = ControllerListing(index: UInt16(bus), name: "hci\(bus)", address: DeviceAddress(value: 0),
                                                       isUp: type == 0, bus: bus, deviceType: type)
                    lines.append(OutputLine.encode(controller, capabilities: held, time: Fixture.t0))
                }
            }
        }
        try expectValid(lines)
        // a device line missing its channels, and one with a lower-case address
        #expect(try SchemaValidator.problems([#"{"event":"device","time":"2026-11-29T12:00:00.000Z","name":"hci0","index":0,"address":"F0:F1:F2:F3:F4:01","up":true,"bus":"UART","type":"primary"}"#, #"{"event":"device","time":"2026-11-29T12:00:00.000Z","name":"hci0","index":0,"address":"f0:f1:f2:f3:f4:01","up":true,"bus":"UART","type":"primary","channels":{"raw":true,"user":false}}"#]).allSatisfy { $0 != nil })
    }

    /// Each line is broken in one way the schema must catch.
    static let brokenLines = [
        // an unknown member
        #"{"event":"enter","time":"2026-11-29T12:00:00.000Z","region":{"uuid":"E2C56DB5-DFFB-48D2-B060-D0F5A71096E0"},"extra":1}"#,
        // a missing member
        #"{"event":"state","time":"2026-11-29T12:00:00.000Z","region":{"uuid":"E2C56DB5-DFFB-48D2-B060-D0F5A71096E0"}}"#,
        // an unknown event
        #"{"event":"leave","time":"2026-11-29T12:00:00.000Z","region":{"uuid":"E2C56DB5-DFFB-48D2-B060-D0F5A71096E0"}}"#,
        // a lower-case UUID
        #"{"event":"enter","time":"2026-11-29T12:00:00.000Z","region":{"uuid":"e2c56db5-dffb-48d2-b060-d0f5a71096e0"}}"#,
        // a time without milliseconds
        #"{"event":"exit","time":"2026-11-29T12:00:00Z","region":{"uuid":"E2C56DB5-DFFB-48D2-B060-D0F5A71096E0"}}"#,
        // a minor without a major
        #"{"event":"exit","time":"2026-11-29T12:00:00.000Z","region":{"uuid":"E2C56DB5-DFFB-48D2-B060-D0F5A71096E0","minor":1}}"#,
        // a major out of range
        #"{"event":"exit","time":"2026-11-29T12:00:00.000Z","region":{"uuid":"E2C56DB5-DFFB-48D2-B060-D0F5A71096E0","major":65536}}"#,
        // an unknown state
        #"{"event":"state","time":"2026-11-29T12:00:00.000Z","region":{"uuid":"E2C56DB5-DFFB-48D2-B060-D0F5A71096E0"},"state":"near"}"#,
        // beacons not an array
        #"{"event":"range","time":"2026-11-29T12:00:00.000Z","region":{"uuid":"E2C56DB5-DFFB-48D2-B060-D0F5A71096E0"},"beacons":{}}"#,
        // an accuracy between -1 and 0
        #"{"event":"range","time":"2026-11-29T12:00:01.000Z","region":{"uuid":"E2C56DB5-DFFB-48D2-B060-D0F5A71096E0"},"beacons":[{"uuid":"E2C56DB5-DFFB-48D2-B060-D0F5A71096E0","major":1,"minor":2,"rssi":-50.0,"measuredPower":-59,"accuracy":-0.50,"proximity":"immediate","address":"F0:F1:F2:F3:F4:01","addressType":"public","phy":"1m","samples":6}]}"#,
        // an unknown proximity
        #"{"event":"range","time":"2026-11-29T12:00:01.000Z","region":{"uuid":"E2C56DB5-DFFB-48D2-B060-D0F5A71096E0"},"beacons":[{"uuid":"E2C56DB5-DFFB-48D2-B060-D0F5A71096E0","major":1,"minor":2,"rssi":-50.0,"measuredPower":-59,"accuracy":0.35,"proximity":"close","address":"F0:F1:F2:F3:F4:01","addressType":"public","phy":"1m","samples":6}]}"#,
        // a lower-case address
        #"{"event":"range","time":"2026-11-29T12:00:01.000Z","region":{"uuid":"E2C56DB5-DFFB-48D2-B060-D0F5A71096E0"},"beacons":[{"uuid":"E2C56DB5-DFFB-48D2-B060-D0F5A71096E0","major":1,"minor":2,"rssi":-50.0,"measuredPower":-59,"accuracy":0.35,"proximity":"immediate","address":"f0:f1:f2:f3:f4:01","addressType":"public","phy":"1m","samples":6}]}"#,
        // a fractional measuredPower
        #"{"event":"range","time":"2026-11-29T12:00:01.000Z","region":{"uuid":"E2C56DB5-DFFB-48D2-B060-D0F5A71096E0"},"beacons":[{"uuid":"E2C56DB5-DFFB-48D2-B060-D0F5A71096E0","major":1,"minor":2,"rssi":-50.0,"measuredPower":-59.5,"accuracy":0.35,"proximity":"immediate","address":"F0:F1:F2:F3:F4:01","addressType":"public","phy":"1m","samples":6}]}"#,
        // zero samples
        #"{"event":"range","time":"2026-11-29T12:00:01.000Z","region":{"uuid":"E2C56DB5-DFFB-48D2-B060-D0F5A71096E0"},"beacons":[{"uuid":"E2C56DB5-DFFB-48D2-B060-D0F5A71096E0","major":1,"minor":2,"rssi":-50.0,"measuredPower":-59,"accuracy":0.35,"proximity":"immediate","address":"F0:F1:F2:F3:F4:01","addressType":"public","phy":"1m","samples":0}]}"#,
        // an unknown address type
        #"{"event":"range","time":"2026-11-29T12:00:01.000Z","region":{"uuid":"E2C56DB5-DFFB-48D2-B060-D0F5A71096E0"},"beacons":[{"uuid":"E2C56DB5-DFFB-48D2-B060-D0F5A71096E0","major":1,"minor":2,"rssi":-50.0,"measuredPower":-59,"accuracy":0.35,"proximity":"immediate","address":"F0:F1:F2:F3:F4:01","addressType":"static","phy":"1m","samples":6}]}"#,
        // a null rssi
        #"{"event":"range","time":"2026-11-29T12:00:01.000Z","region":{"uuid":"E2C56DB5-DFFB-48D2-B060-D0F5A71096E0"},"beacons":[{"uuid":"E2C56DB5-DFFB-48D2-B060-D0F5A71096E0","major":1,"minor":2,"rssi":null,"measuredPower":-59,"accuracy":0.35,"proximity":"immediate","address":"F0:F1:F2:F3:F4:01","addressType":"public","phy":"1m","samples":6}]}"#,
        // a scan line of one format with another's identity
        #"{"event":"beacon","time":"2026-11-29T12:00:01.000Z","format":"altbeacon","uuid":"E2C56DB5-DFFB-48D2-B060-D0F5A71096E0","major":1,"minor":2,"measuredPower":-59,"rssi":-50.0,"samples":1,"address":"F0:F1:F2:F3:F4:01","addressType":"public","phy":"1m","firstSeen":"2026-11-29T12:00:00.000Z","lastSeen":"2026-11-29T12:00:00.000Z"}"#,
        // an Eddystone-UID scan line without its tx power
        #"{"event":"beacon","time":"2026-11-29T12:00:01.000Z","format":"eddystone-uid","namespace":"00010203040506070809","instance":"0A0B0C0D0E0F","measuredPower":-61,"rssi":-50.0,"samples":1,"address":"F0:F1:F2:F3:F4:01","addressType":"public","phy":"1m","firstSeen":"2026-11-29T12:00:00.000Z","lastSeen":"2026-11-29T12:00:00.000Z"}"#,
        // a lower-case namespace in a region
        #"{"event":"enter","time":"2026-11-29T12:00:00.000Z","region":{"format":"eddystone-uid","namespace":"0001020304050607080a"}}"#,
        // an AltBeacon region's ID3 without an ID2
        #"{"event":"enter","time":"2026-11-29T12:00:00.000Z","region":{"format":"altbeacon","id1":"E2C56DB5-DFFB-48D2-B060-D0F5A71096E0","id3":1}}"#,
        // a telemetry temperature as text
        #"{"event":"advertisement","time":"2026-11-29T12:00:01.000Z","format":"eddystone-tlm","telemetry":{"batteryMillivolts":3000,"temperature":"24.5","advertisementCount":1,"uptime":1.0},"rssi":-50,"address":"F0:F1:F2:F3:F4:01","addressType":"public","phy":"1m"}"#,
        // a calibration's measured power without the flag that applies it
        #"{"event":"calibration","time":"2026-11-29T12:00:30.000Z","uuid":"E2C56DB5-DFFB-48D2-B060-D0F5A71096E0","major":1,"minor":2,"address":"F0:F1:F2:F3:F4:01","distance":1.00,"samples":297,"rssi":-62.0,"spread":3.00,"advertisedMeasuredPower":-59,"measuredPower":-62}"#,
        // a calibration of fewer readings than calibrate accepts
        #"{"event":"calibration","time":"2026-11-29T12:00:30.000Z","uuid":"E2C56DB5-DFFB-48D2-B060-D0F5A71096E0","major":1,"minor":2,"address":"F0:F1:F2:F3:F4:01","distance":2.00,"samples":19,"rssi":-68.0,"spread":3.00,"advertisedMeasuredPower":-59}"#,
        // a fitted exponent outside 0.5...6
        #"{"event":"fit","time":"2026-11-29T12:05:00.000Z","samples":3,"pathLossExponent":0.40,"exponentDeviation":0.30,"measuredPower":-62,"measuredPowerDeviation":2.10,"residual":0.40,"priorWeight":1.0000,"flags":"--path-loss-exponent 0.40 --measured-power -62"}"#,
        // a prior weight above 1
        #"{"event":"fit","time":"2026-11-29T12:05:00.000Z","samples":3,"pathLossExponent":2.66,"exponentDeviation":0.30,"measuredPower":-62,"measuredPowerDeviation":2.10,"residual":0.40,"priorWeight":1.5000,"flags":"--path-loss-exponent 2.66 --measured-power -62"}"#,
        // a fitted measured power beacon range would refuse
        #"{"event":"fit","time":"2026-11-29T12:05:00.000Z","samples":3,"pathLossExponent":2.66,"exponentDeviation":0.30,"measuredPower":0,"measuredPowerDeviation":2.10,"residual":0.40,"priorWeight":1.0000,"flags":"--path-loss-exponent 2.66 --measured-power 0"}"#,
        // scanResponse anything but true
        #"{"event":"advertisement","time":"2026-11-29T12:00:01.000Z","format":"eddystone-url","url":"https://a.b","txPowerAt0m":-20,"measuredPower":-61,"rssi":-50,"address":"F0:F1:F2:F3:F4:01","addressType":"public","phy":"1m","scanResponse":false}"#,
        // a PHY no controller reports by that name
        #"{"event":"advertisement","time":"2026-11-29T12:00:01.000Z","format":"eddystone-url","url":"https://a.b","txPowerAt0m":-20,"measuredPower":-61,"rssi":-50,"address":"F0:F1:F2:F3:F4:01","addressType":"public","phy":"LE Coded"}"#,
        // an advertising line naming LE 1M (absent means LE 1M)
        #"{"event":"advertising","time":"2026-11-29T12:00:00.000Z","format":"eddystone-url","url":"https://a.b","txPowerAt0m":-20,"intervalMs":100.000,"connectable":false,"data":"020106","commands":"extended","phy":"1m"}"#,
        // partial anything but true
        #"{"event":"range","time":"2026-11-29T12:00:00.000Z","region":{"uuid":"E2C56DB5-DFFB-48D2-B060-D0F5A71096E0"},"beacons":[],"partial":false}"#,
    ]

    @Test func brokenLinesAreRejected() throws {
        for (line, problem) in zip(Self.brokenLines, try SchemaValidator.problems(Self.brokenLines)) {
            #expect(problem != nil, "\(line)")
        }
    }

    /// The JSON lines quoted in docs/output.md.
    var documentedLines: [String] {
        markdown.split(separator: "\n").map(String.init).filter { $0.hasPrefix("{\"event\"") }
    }

    @Test func documentedExamplesValidate() throws {
        #expect(documentedLines.count >= 6)
        try expectValid(documentedLines)
    }

    /// The example session in docs/output.md is what the monitor prints for the scenario it describes.
    @Test func documentedSessionIsWhatTheMonitorPrints() {
        let region = BeaconRegion(uuid: Fixture.uuid, major: 1)
        var h = MonitorHarness([region], exitAfter: .seconds(2), interval: .seconds(1))
        for (ms, rssi) in [(100, -48), (300, -50), (500, -52), (700, nil)] as [(Int64, Int8?)] {
            h.sighting(Fixture.sighting(rssi: rssi, ms: ms))
        }
        h.tick(ms: 5_000)
        let printed = h.outputs.map(OutputLine.encode)
        #expect(printed.count == 7)
        #expect(Array(documentedLines.prefix(printed.count)) == printed)
    }

    @Test func documentedUnknownRSSIExampleIsWhatTheMonitorPrints() throws {
        let region = BeaconRegion(uuid: Fixture.uuid)
        var h = MonitorHarness([region])
        for ms in [100, 200, 300] as [Int64] {
            h.sighting(Fixture.sighting(major: 0, minor: 7, rssi: nil, address: DeviceAddress(value: 0xC011_2233_4455),
                                        addressType: .randomDevice, ms: ms))
        }
        let range = try #require(h.tick(ms: 1_000).first)
        #expect(documentedLines.contains(OutputLine.encode(range)))
    }
}
