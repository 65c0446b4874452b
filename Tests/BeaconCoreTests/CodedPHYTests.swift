import Testing
@testable import BeaconCore

/// Long range: the PHYs the scan and advertising parameters carry, what a controller is refused, and
/// the PHY each report carries into the lines.
@Suite struct CodedPHYTests {
    func bytes(_ fields: [String], sourceLocation: SourceLocation = #_sourceLocation) throws -> [UInt8] {
        try #require(Hex.decode(fields.joined()), sourceLocation: sourceLocation)
    }

    /// Encodes to `golden`, and decodes back to the same command.
    func check(_ command: HCICommand, _ golden: [String], sourceLocation: SourceLocation = #_sourceLocation) throws {
        let expected = try bytes(golden, sourceLocation: sourceLocation)
        #expect(Hex.encode(command.payload) == Hex.encode(expected), sourceLocation: sourceLocation)
        #expect(try HCICommand.decode(expected[...]) == command, sourceLocation: sourceLocation)
    }

    // MARK: Core Vol 4 Part E 7.8.64: one block per Scanning_PHYs bit, in bit order

    @Test func extendedScanParametersOn1MAndCoded() throws {
        try check(.leSetExtendedScanParameters(ownAddressType: 0, filterPolicy: 0, phys: [.le1M, .leCoded],
                                               active: false, interval: 0x00A0, window: 0x00A0), [
            "4120", // opcode 0x2041
            "0D",   // 13 parameter bytes: 3 + 5 per PHY
            "00",   // Own_Address_Type: public
            "00",   // Scanning_Filter_Policy: accept all
            "05",   // Scanning_PHYs: bit 0 LE 1M, bit 2 LE Coded
            "00",   // Scan_Type[LE 1M]: passive
            "A000", // Scan_Interval[LE 1M]: 100 ms
            "A000", // Scan_Window[LE 1M]
            "00",   // Scan_Type[LE Coded]: passive
            "A000", // Scan_Interval[LE Coded]
            "A000", // Scan_Window[LE Coded]
        ])
    }

    @Test func extendedScanParametersOnCodedOnly() throws {
        try check(.leSetExtendedScanParameters(ownAddressType: 0, filterPolicy: 0, phys: .leCoded,
                                               active: true, interval: 0x0060, window: 0x0030), [
            "4120", // opcode 0x2041
            "08",   // 8 parameter bytes
            "00",   // Own_Address_Type: public
            "00",   // Scanning_Filter_Policy
            "04",   // Scanning_PHYs: LE Coded only
            "01",   // Scan_Type[LE Coded]: active
            "6000", // Scan_Interval[LE Coded]
            "3000", // Scan_Window[LE Coded]
        ])
    }

    // MARK: Core Vol 4 Part E 7.8.53 for a long-range plan

    @Test func codedPlanAdvertisesExtendedPDUsOnCoded() throws {
        let beacon = AdvertisedBeacon.iBeacon(IBeacon(identity: BeaconIdentity(uuid: Fixture.uuid, major: 1, minor: 2), measuredPower: -59))
        let coded = AdvertisingPlan(beacon: beacon, phy: .leCoded)
        #expect(coded.extendedProperties == 0x0000)
        #expect(AdvertisingPlan(beacon: beacon, connectable: true, phy: .leCoded).extendedProperties == 0x0001)
        #expect(AdvertisingPlan(beacon: beacon).extendedProperties == ExtendedAdvertisingProperties.legacyNonConnectable)
        try check(.leSetExtendedAdvertisingParameters(
            handle: 0, properties: coded.extendedProperties, intervalMin: coded.intervalSlots, intervalMax: coded.intervalSlots,
            ownAddressType: 0, txPower: 127, primaryPHY: coded.phy.raw, secondaryPHY: coded.phy.raw), [
            "3620",         // opcode 0x2036
            "19",           // 25 parameter bytes
            "00",           // Advertising_Handle
            "0000",         // Advertising_Event_Properties: extended, non-connectable, non-scannable
            "A00000",       // Primary_Advertising_Interval_Min: 100 ms
            "A00000",       // Primary_Advertising_Interval_Max
            "07",           // Primary_Advertising_Channel_Map: 37, 38, 39
            "00",           // Own_Address_Type: public
            "00",           // Peer_Address_Type
            "000000000000", // Peer_Address
            "00",           // Advertising_Filter_Policy
            "7F",           // Advertising_TX_Power: no preference
            "03",           // Primary_Advertising_PHY: LE Coded
            "00",           // Secondary_Advertising_Max_Skip
            "03",           // Secondary_Advertising_PHY: LE Coded
            "00",           // Advertising_SID
            "00",           // Scan_Request_Notification_Enable
        ])
    }

    // MARK: What a controller is refused

    let extendedCommands = SupportedCommands(supporting: [.leSetExtendedScanParameters, .leSetExtendedScanEnable,
                                                          .leSetExtendedAdvertisingParameters, .leSetExtendedAdvertisingData,
                                                          .leSetExtendedAdvertisingEnable, .leReadLocalSupportedFeatures])
    let legacyCommands = SupportedCommands(supporting: [.leSetScanParameters, .leSetScanEnable, .leSetAdvertisingParameters])
    /// LE 2M (bit 8), LE Coded (bit 11), LE Extended Advertising (bit 12), as read from the controller.
    let codedFeatures = LEFeatures(bits: 1 << 8 | 1 << 11 | 1 << 12)
    let noCodedFeatures = LEFeatures(bits: 1 << 8 | 1 << 12)

    @Test func leFeaturesDecodeLittleEndian() throws {
        let features = try LEFeatures(try bytes(["0019000000000000"])[...])
        #expect(features == codedFeatures)
        #expect(features.hasCodedPHY)
        #expect(!(try LEFeatures(try bytes(["FF07FFFFFFFFFFFF"])[...])).hasCodedPHY)
        #expect(throws: DecodeError.self) { try LEFeatures([0x00, 0x08][...]) }
    }

    @Test func defaultScansEveryPHYTheControllerScans() {
        #expect(PHYSupport(commands: extendedCommands, features: codedFeatures).scanning(asked: nil) == .success([.le1M, .leCoded]))
        #expect(PHYSupport(commands: extendedCommands, features: noCodedFeatures).scanning(asked: nil) == .success(.le1M))
        #expect(PHYSupport(commands: extendedCommands, features: nil).scanning(asked: nil) == .success(.le1M))
        // Legacy scanning is LE 1M only, whatever the link layer has.
        #expect(PHYSupport(commands: legacyCommands, features: codedFeatures).scanning(asked: nil) == .success(.le1M))
    }

    @Test func askedPHYsAreScannedWhereTheControllerHasThem() {
        let coded = PHYSupport(commands: extendedCommands, features: codedFeatures)
        #expect(coded.scanning(asked: .leCoded) == .success(.leCoded))
        #expect(coded.scanning(asked: .le1M) == .success(.le1M))
        #expect(PHYSupport(commands: legacyCommands, features: nil).scanning(asked: .le1M) == .success(.le1M))
    }

    @Test func codedIsRefusedWithTheRemedy() throws {
        for support in [PHYSupport(commands: extendedCommands, features: noCodedFeatures),
                        PHYSupport(commands: extendedCommands, features: nil)] {
            guard case .failure(let refusal) = support.scanning(asked: [.le1M, .leCoded]) else {
                Issue.record("coded scanning allowed without the LE Coded PHY")
                continue
            }
            #expect(refusal.description.hasPrefix("--phy coded: this controller does not "))
            #expect(refusal.description.contains("LE Coded PHY"))
            #expect(refusal.description.hasSuffix("; scan with --phy 1m, or use a Bluetooth 5 controller with the LE Coded PHY"))
            #expect(!refusal.description.contains("\n"))
        }
        guard case .failure(let legacy) = PHYSupport(commands: legacyCommands, features: codedFeatures).scanning(asked: .leCoded) else {
            Issue.record("coded scanning allowed with legacy commands")
            return
        }
        #expect(legacy.description == "--phy coded: this controller has no extended scanning commands (HCI_LE_Set_Extended_Scan_Parameters), "
                + "and legacy scanning is LE 1M only; scan with --phy 1m, or use a Bluetooth 5 controller with the LE Coded PHY")
    }

    @Test func codedAdvertisingNeedsExtendedCommandsAndTheFeature() {
        #expect(PHYSupport(commands: extendedCommands, features: codedFeatures).advertisingRefusal(.leCoded) == nil)
        #expect(PHYSupport(commands: legacyCommands, features: nil).advertisingRefusal(.le1M) == nil)
        #expect(PHYSupport(commands: extendedCommands, features: noCodedFeatures).advertisingRefusal(.leCoded)?.description
                == "--phy coded: this controller does not have the LE Coded PHY (bit 11 of its LE features is clear); "
                + "advertise without --phy coded, or use a Bluetooth 5 controller with the LE Coded PHY")
        #expect(PHYSupport(commands: legacyCommands, features: codedFeatures).advertisingRefusal(.leCoded)?.description
                == "--phy coded: this controller has no extended advertising commands (HCI_LE_Set_Extended_Advertising_Parameters), "
                + "and legacy advertising is LE 1M only; advertise without --phy coded, or use a Bluetooth 5 controller with the LE Coded PHY")
    }

    @Test func phyListsParse() {
        #expect(ScanningPHYs(names: "1m") == .le1M)
        #expect(ScanningPHYs(names: "coded") == .leCoded)
        #expect(ScanningPHYs(names: "Coded,1M") == [.le1M, .leCoded])
        #expect(ScanningPHYs([.le1M, .leCoded]).names == "1m,coded")
        for bad in ["", "2m", "1m,", ",coded", "1m,1m", "coded;1m", "1m coded"] {
            #expect(ScanningPHYs(names: bad) == nil, "\(bad)")
        }
    }

    // MARK: Reports carry their PHY into the lines

    /// One LE Extended Advertising Report of an iBeacon (minor 2) from F0:F1:F2:F3:F4:01 on `primary`.
    func extendedReport(primary: String) throws -> [UInt8] {
        try bytes([
            "3E",           // HCI_LE_Meta
            "38",           // 56 parameter bytes
            "0D",           // LE Extended Advertising Report
            "01",           // Num_Reports
            "0000",         // Event_Type: extended, non-connectable, data complete
            "00",           // Address_Type: public
            "01F4F3F2F1F0", // Address F0:F1:F2:F3:F4:01
            primary,        // Primary_PHY
            "03",           // Secondary_PHY: LE Coded
            "00",           // Advertising_SID 0
            "7F",           // TX_Power: not available
            "C4",           // RSSI -60
            "0000",         // Periodic_Advertising_Interval: none
            "00",           // Direct_Address_Type
            "000000000000", // Direct_Address
            "1E",           // Data_Length 30
            "0201061AFF4C000215E2C56DB5DFFB48D2B060D0F5A71096E000010002C5", // flags, iBeacon 1/2 at -59
        ])
    }

    func sightings(_ payload: [UInt8]) throws -> [Sighting] {
        var found: [Sighting] = []
        try SightingDecoder.forEachSighting(inEvent: payload[...], at: Fixture.t0) { found.append($0) }
        return found
    }

    @Test func reportsCarryTheirPrimaryPHY() throws {
        #expect(try sightings(try extendedReport(primary: "03")).map(\.phy) == [.leCoded])
        #expect(try sightings(try extendedReport(primary: "01")).map(\.phy) == [.le1M])
        #expect(try sightings(try extendedReport(primary: "07")).map(\.phy.name) == ["unknown(0x07)"])
        // The checked decoder gives the same sighting as the in-place walk.
        guard case .leMeta(.extendedAdvertisingReport(let reports)) = try HCIEvent.decode(try extendedReport(primary: "03")) else {
            Issue.record("not an extended advertising report")
            return
        }
        #expect(reports.compactMap { SightingDecoder.sighting(from: $0, at: Fixture.t0) } == (try sightings(try extendedReport(primary: "03"))))
        // Legacy reports are LE 1M.
        #expect(try sightings(try bytes(HCIEventTests.legacyTwoReports)).map(\.phy) == [.le1M])
    }

    @Test func scanLinesSayThePHY() throws {
        let coded = try #require(try sightings(try extendedReport(primary: "03")).first)
        #expect(ScanLine.encode(.advertisement(coded)).hasSuffix(#""rssi":-60,"address":"F0:F1:F2:F3:F4:01","addressType":"public","phy":"coded"}"#))
        var aggregator = ScanAggregator(interval: .seconds(1))
        var lines: [String] = []
        var early = coded
        early.phy = .le1M
        aggregator.sighting(early) { lines.append(ScanLine.encode($0)) }
        var late = coded
        late.time = Fixture.at(ms: 500)
        aggregator.sighting(late) { lines.append(ScanLine.encode($0)) }
        aggregator.tick(now: Fixture.at(ms: 1_000)) { lines.append(ScanLine.encode($0)) }
        // The interval's latest advertisement's PHY.
        #expect(lines.count == 1)
        #expect(lines.first?.contains(#""addressType":"public","phy":"coded","firstSeen":"#) == true)
    }

    @Test func rangedEntriesSayTheLatestPHY() throws {
        var h = MonitorHarness([BeaconRegion(uuid: Fixture.uuid)])
        var heard = Fixture.sighting(ms: 100)
        heard.phy = .leCoded
        h.sighting(Fixture.sighting(ms: 50))
        h.sighting(heard)
        let ranged = h.tick(ms: 1_000).compactMap { output -> [RangedBeacon]? in
            if case .range(_, _, let beacons) = output { beacons } else { nil }
        }
        #expect(ranged.flatMap { $0.map(\.phy) } == [.leCoded])
        let line = try #require(h.outputs.last.map(OutputLine.encode))
        #expect(line.contains(#""addressType":"public","phy":"coded","samples":2,"#))
    }
}
