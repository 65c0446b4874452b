import Testing
import BeaconCore

/// Listening through the management interface: the monitor commands and their answers, Device Found
/// and Advertisement Monitor Device Found byte for byte against mgmt-api.txt's layouts, and the
/// reports they become taking the raw channel's decoder.
@Suite struct ManagementScanningTests {
    static func hex(_ text: String) -> [UInt8] { ManagementPacketTests.hex(text) }
    static let iBeaconData = ManagementPacketTests.iBeaconData

    @Test func monitorAndDiscoveryCommandsEncodeAsDocumented() throws {
        let patterns = ManagementAdvertisementPattern.patterns(for: [.iBeacon])
        // Pattern_Count 1; AD_Type 0xFF, Offset 0, Length 4, Value 4C 00 02 15 and 27 zero bytes
        let add = ManagementCommand.addAdvertisementPatternsMonitor(patterns).packet(controller: 1)
        #expect(add.bytes == Self.hex("5200 0100 2300 01 FF 00 04 4C000215") + [UInt8](repeating: 0, count: 27))
        #expect(ManagementCommand.removeAdvertisementMonitor(handle: 0x0102).packet(controller: 1).bytes == Self.hex("5300 0100 0200 0201"))
        #expect(ManagementCommand.readAdvertisementMonitorFeatures.packet(controller: 0).bytes == Self.hex("5100 0000 0000"))
        // Address_Type 0x06: LE Public and LE Random
        #expect(ManagementCommand.startDiscovery.packet(controller: 2).bytes == Self.hex("2300 0200 0100 06"))
        #expect(ManagementCommand.stopDiscovery.packet(controller: 2).bytes == Self.hex("2400 0200 0100 06"))
        #expect(ManagementCommand.name(of: 0x0052) == "Add Advertisement Patterns Monitor")
        // Every pattern is 34 bytes after the count, whatever its value's length.
        let all = ManagementCommand.addAdvertisementPatternsMonitor(ManagementAdvertisementPattern.patterns(for: [])).parameters
        #expect(all.count == 1 + 3 * 34 && all[0] == 3)
    }

    @Test func patternsFollowTheFormatsAsked() {
        #expect(ManagementAdvertisementPattern.patterns(for: [.iBeacon]) == [.iBeacon])
        #expect(ManagementAdvertisementPattern.patterns(for: [.altBeacon, .eddystoneUID]) == [.altBeacon, .eddystone])
        #expect(ManagementAdvertisementPattern.patterns(for: [.eddystoneTLM]) == [.eddystone])
        #expect(ManagementAdvertisementPattern.patterns(for: []) == [.iBeacon, .altBeacon, .eddystone])
        #expect(ManagementAdvertisementPattern.altBeacon.offset == 2 && ManagementAdvertisementPattern.altBeacon.value == [0xBE, 0xAC])
        // A value is cut to what fits after its offset in the 31-byte field.
        #expect(ManagementAdvertisementPattern(adType: 0xFF, offset: 30, value: [1, 2, 3]).value == [1])
        #expect(ManagementAdvertisementPattern(adType: 0xFF, offset: 40, value: [1]).value.isEmpty)
    }

    /// Each pattern matches the advertisements of its format as the decoders read them.
    @Test func patternsMatchTheAdvertisingDataOfTheirFormats() {
        let altBeacon = Self.hex("1BFF1801BEAC") + [UInt8](repeating: 0x11, count: 20) + Self.hex("00C500")
        let eddystone = Self.hex("0303AAFE 1516AAFE00E8") + [UInt8](repeating: 0x22, count: 16) + [0, 0]
        for (pattern, data) in [(ManagementAdvertisementPattern.iBeacon, Self.iBeaconData), (.altBeacon, altBeacon), (.eddystone, eddystone)] {
            var matched = false
            var at = 0
            while at < data.count, data[at] > 0, at + 1 + Int(data[at]) <= data.count {
                let structure = Array(data[(at + 1)..<(at + 1 + Int(data[at]))])
                let value = structure.dropFirst().dropFirst(Int(pattern.offset))
                if structure[0] == pattern.adType, value.starts(with: pattern.value) { matched = true }
                at += 1 + Int(data[at])
            }
            #expect(matched, "\(pattern)")
        }
    }

    @Test func monitorFeaturesAndHandlesDecode() throws {
        // Supported 1, Enabled 0, Max_Num_Handles 32, Max_Num_Patterns 16, Num_Handles 2: 1, 3
        let features = try ManagementAdvertisementMonitorFeatures(Self.hex("01000000 00000000 2000 10 0200 0100 0300"))
        #expect(features == ManagementAdvertisementMonitorFeatures(maxHandles: 32, maxPatterns: 16, handles: [1, 3]))
        let short = try #require(throws: DecodeError.self) {
            try ManagementAdvertisementMonitorFeatures(Self.hex("01000000 00000000 2000 10 0300 0100 0300"))
        }
        #expect(short.field == "Handle" && short.needed == 6 && short.available == 4)
        #expect(throws: DecodeError.self) { try ManagementAdvertisementMonitorFeatures(Self.hex("01000000 00000000 2000")) }
        #expect(try ManagementMonitorHandle(Self.hex("0700")).handle == 7)
        let noHandle = try #require(throws: DecodeError.self) { try ManagementMonitorHandle([7]) }
        #expect(noHandle.field == "Monitor_Handle")
    }

    @Test func deviceFoundEventsDecodeAsDocumented() throws {
        // Device Found: Address F0:F1:F2:F3:F4:01, LE Public, RSSI -60, Flags Not Connectable, EIR_Data_Length 30, EIR_Data
        let deviceFound = "1200 0100 2C00 01F4F3F2F1F0 01 C4 04000000 1E00" + Hex.encode(Self.iBeaconData)
        let found = ManagementDeviceFound(monitorHandle: nil, address: 0xF0F1F2F3F401, addressType: 1, rssi: -60,
                                          flags: ManagementDeviceFound.notConnectable, data: Self.iBeaconData)
        #expect(try ManagementEvent.decode(try ManagementPacket.decode(ArraySlice(Self.hex(deviceFound)))) == .deviceFound(found))
        // Advertisement Monitor Device Found: Monitor_Handle 0 (no offloading), then the same, LE Random
        let monitorFound = "2F00 0100 2E00 0000 01F4F3F2F1F0 02 C4 00000000 1E00" + Hex.encode(Self.iBeaconData)
        let matched = ManagementDeviceFound(monitorHandle: 0, address: 0xF0F1F2F3F401, addressType: 2, rssi: -60, flags: 0, data: Self.iBeaconData)
        #expect(try ManagementEvent.decode(try ManagementPacket.decode(ArraySlice(Self.hex(monitorFound)))) == .deviceFound(matched))
        // Discovering: LE (0x06), stopped
        #expect(try ManagementEvent.decode(ManagementPacket(code: 0x0013, index: 0, parameters: [0x06, 0x00])) == .discovering(false))
    }

    @Test func theKernelsSecondCopyOfAnAdvertisementIsARepeatAndNothingElseIs() {
        let found = ManagementDeviceFound(monitorHandle: nil, address: 0xF0F1F2F3F401, addressType: 1, rssi: -60,
                                          flags: ManagementDeviceFound.notConnectable, data: Self.iBeaconData)
        var copy = found
        copy.monitorHandle = 3
        #expect(copy.repeats(found) && found.repeats(copy))
        // The same kind twice is the next advertisement, not a copy.
        #expect(!found.repeats(found) && !copy.repeats(copy))
        var louder = copy
        louder.rssi = -59
        #expect(!louder.repeats(found))
        var other = copy
        other.address = 0xF0F1F2F3F402
        #expect(!other.repeats(found))
        var otherData = copy
        otherData.data[otherData.data.count - 1] ^= 1
        #expect(!otherData.repeats(found))
    }

    @Test(arguments: [
        // (parameters, field, reason fragment): cut anywhere, or a length that is not what follows
        ("01F4F3F2F1F0 01 C4 0400", "Device Found Flags", nil),
        ("01F4F3F2F1F0 01 C4 04000000 1E00 0201", "Device Found data", nil),
        ("01F4F3F2F1F0 01 C4 04000000 0200 0201 06", "Device Found", "1 byte after the 2 bytes of data it declares"),
        ("", "Device Found Address", nil),
    ] as [(String, String, String?)])
    func malformedDeviceFoundThrowsNamingTheField(parameters: String, field: String, reason: String?) {
        let error = #expect(throws: DecodeError.self) {
            try ManagementDeviceFound(code: ManagementDeviceFound.deviceFoundCode, parameters: Self.hex(parameters))
        }
        #expect(error?.field == field)
        if let reason { #expect(error?.reason == reason) }
    }

    @Test func everyTruncationOfAnAdvertisementMonitorDeviceFoundThrows() {
        let whole = Self.hex("0000 01F4F3F2F1F0 02 C4 00000000 1E00") + Self.iBeaconData
        for count in 0..<whole.count {
            #expect(throws: DecodeError.self) {
                try ManagementDeviceFound(code: ManagementDeviceFound.monitorDeviceFoundCode, parameters: Array(whole[..<count]))
            }
        }
        let error = #expect(throws: DecodeError.self) {
            try ManagementDeviceFound(code: ManagementDeviceFound.monitorDeviceFoundCode, parameters: [0])
        }
        #expect(error?.field == "Advertisement Monitor Device Found Monitor_Handle")
    }

    @Test func aDeviceFoundBecomesTheReportTheRawChannelCarriesAndItsSighting() throws {
        let found = ManagementDeviceFound(monitorHandle: 0, address: 0xF0F1F2F3F401, addressType: 1, rssi: -60,
                                          flags: ManagementDeviceFound.notConnectable, data: Self.iBeaconData)
        let event = try #require(found.advertisingReportEvent)
        // LE Meta, 42 parameter bytes, Advertising Report, 1 report, ADV_NONCONN_IND, public, address, 30 bytes, data, RSSI
        #expect(event == Self.hex("3E 2A 02 01 03 00 01F4F3F2F1F0 1E") + Self.iBeaconData + [0xC4])
        #expect(throws: Never.self) { _ = try HCIEvent.decode(ArraySlice(event)) }
        var sightings: [Sighting] = []
        try SightingDecoder.forEachSighting(inEvent: ArraySlice(event), at: Timestamp(microseconds: 5)) { sightings.append($0) }
        #expect(sightings.count == 1)
        let sighting = try #require(sightings.first)
        #expect(sighting.rssi == -60 && sighting.address == DeviceAddress("F0:F1:F2:F3:F4:01") && sighting.addressType == .publicDevice)
        #expect(sighting.identity?.description.contains("E2C56DB5") ?? false)
        #expect(!sighting.isScanResponse)

        // Random address, connectable; a scan response; BR/EDR has no LE report.
        var random = found
        random.addressType = 2
        random.flags = 0
        #expect(random.advertisingReportEvent?[4...5] == [0x00, 0x01])
        random.flags = ManagementDeviceFound.scanResponse
        #expect(random.advertisingReportEvent?[4] == 0x04)
        random.addressType = 0
        #expect(random.advertisingReportEvent == nil)
    }

    @Test func dataLongerThanOneReportIsCutAfterTheLastWholeStructure() throws {
        // Ten 30-byte structures (300 bytes): eight fit in 243.
        let structure = [UInt8(29), 0xFF] + [UInt8](repeating: 0xAB, count: 28)
        let long = (0..<10).flatMap { _ in structure }
        let found = ManagementDeviceFound(monitorHandle: nil, address: 1, addressType: 2, rssi: -70, flags: 0, data: long)
        let event = try #require(found.advertisingReportEvent)
        #expect(event[1] == UInt8(12 + 240) && event[12] == 240 && event.count == 2 + 12 + 240)
        #expect(throws: Never.self) { _ = try HCIEvent.decode(ArraySlice(event)) }
        // A structure that claims more than there is ends the data before it.
        let broken = ManagementDeviceFound(monitorHandle: nil, address: 1, addressType: 2, rssi: -70, flags: 0,
                                           data: structure + [0xF0] + [UInt8](repeating: 0, count: 250))
        #expect(try #require(broken.advertisingReportEvent)[12] == 30)
    }

    /// The report with no advertisements marks where listening began: a session's --duration runs from it.
    @Test func theListeningStartedEventAnchorsTheFeedAndCarriesNoSighting() throws {
        var feed = SightingFeed(duration: .seconds(3))
        var anchored: Timestamp?
        var sightings = 0
        let result: Result<Void, DecodeError> = ManagementDeviceFound.listeningStartedEvent.withUnsafeBytes { bytes in
            Result { () throws(DecodeError) in
                try feed.packet(HCIPacketView(kind: .event, payload: bytes), direction: .received, at: Timestamp(microseconds: 1_000),
                                start: { anchored = $0 }, advance: { _ in }, sighting: { _ in sightings += 1 })
            }
        }
        try result.get()
        #expect(anchored == Timestamp(microseconds: 1_000))
        #expect(feed.endTime == Timestamp(microseconds: 3_001_000))
        #expect(sightings == 0)
    }
}
