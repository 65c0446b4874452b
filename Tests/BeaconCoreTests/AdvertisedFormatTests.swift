import Testing
@testable import BeaconCore

/// The encoders of the formats beacon advertises besides iBeacon, against vectors written out by hand
/// from the AltBeacon and Eddystone specifications. beacon's core has no decoder of its own for these
/// formats to round-trip through, so the generic AD walker checks the structure boundaries and the
/// golden bytes check everything inside them.
@Suite struct AdvertisedFormatTests {
    func bytes(_ fields: [String], sourceLocation: SourceLocation = #_sourceLocation) throws -> [UInt8] {
        try #require(Hex.decode(fields.joined()), sourceLocation: sourceLocation)
    }

    func uuid(_ text: String) throws -> BeaconUUID { try #require(BeaconUUID(text)) }

    // MARK: AltBeacon

    static let altBeaconGolden = [
        "02", "01", "06",                   // Flags: LE General Discoverable, BR/EDR Not Supported
        "1B",                               // AD length 27 (the specification's fixed length)
        "FF",                               // AD type: Manufacturer Specific Data
        "1801",                             // MFG ID 0x0118 (Radius Networks), little-endian
        "BEAC",                             // beacon code 0xBEAC, sent BE AC
        "2F234454CF6D4A0FADF2F4911BA9FFA6", // beacon ID: ID1, 16 bytes
        "0001",                             //   ID2 1, big-endian
        "0002",                             //   ID3 2, big-endian
        "C5",                               // reference RSSI -59 dBm (signed)
        "00",                               // MFG RSVD
    ]

    @Test func altBeaconGolden() throws {
        let beacon = AltBeacon(id1: try uuid("2F234454-CF6D-4A0F-ADF2-F4911BA9FFA6"), id2: 1, id3: 2, referenceRSSI: -59)
        #expect(beacon.companyID == 0x0118 && beacon.reserved == 0, "the AltBeacon library's defaults")
        #expect(Hex.encode(beacon.advertisingData) == Self.altBeaconGolden.joined())
        #expect(Hex.encode(beacon.manufacturerData) == Self.altBeaconGolden[5...].joined())
        #expect(beacon.manufacturerData.count == AltBeacon.manufacturerDataLength)
        #expect(beacon.advertisingData.count == 31, "fills a legacy advertisement exactly")
    }

    @Test func altBeaconEveryField() throws {
        let beacon = AltBeacon(companyID: 0x004C, id1: try uuid("00112233-4455-6677-8899-AABBCCDDEEFF"),
                                      id2: 0xFFFE, id3: 0, referenceRSSI: -127, reserved: 0xAB)
        #expect(beacon.advertisingData == (try bytes([
            "020106",
            "1BFF",
            "4C00",                             // company 0x004C, little-endian: any manufacturer
            "BEAC",                             // the beacon code is the same for every company
            "00112233445566778899AABBCCDDEEFF", // ID1
            "FFFE",                             // ID2 65534, big-endian
            "0000",                             // ID3 0
            "81",                               // reference RSSI -127 dBm
            "AB",                               // reserved byte as given
        ])))
    }

    // MARK: Eddystone-UID

    static let uid = EddystoneUID(namespace: EddystoneNamespace(high: 0xEDD1, low: 0xEBEA_C04E_5DEF_A017),
                                  instance: EddystoneInstance(value: 0x0BDB_8753_9B67))

    static let eddystoneUIDGolden = [
        "02", "01", "06",                   // Flags
        "03",                               // AD length 3
        "03",                               // AD type: Complete List of 16-bit Service UUIDs
        "AAFE",                             // 0xFEAA (Eddystone), little-endian
        "17",                               // AD length 23: type, UUID and the 20-byte frame
        "16",                               // AD type: Service Data - 16-bit UUID
        "AAFE",                             // 0xFEAA
        "00",                               // frame type UID
        "EE",                               // calibrated Tx power at 0 m: -18 dBm (-59 at 1 m + 41)
        "EDD1EBEAC04E5DEFA017",             // namespace, 10 bytes
        "0BDB87539B67",                     // instance, 6 bytes
        "0000",                             // RFU, must be 0x00
    ]

    @Test func eddystoneUIDGolden() throws {
        let beacon = EddystonePayload(frame: .uid(Self.uid), txPowerAt0m: try #require(EddystonePayload.txPowerAt0m(measuredPower: -59)))
        #expect(Hex.encode(beacon.advertisingData) == Self.eddystoneUIDGolden.joined())
        #expect(Hex.encode(beacon.serviceData) == Self.eddystoneUIDGolden[8...].joined())
        #expect(beacon.frameBytes.count == 20)
        #expect(beacon.advertisingData.count == 31)
    }

    @Test("the power at 0 m is the measured power plus 41 dBm, within -100...20")
    func powerAt0m() {
        #expect(EddystonePayload.txPowerAt0m(measuredPower: -59) == -18)
        #expect(EddystonePayload.txPowerAt0m(measuredPower: -21) == 20)
        #expect(EddystonePayload.txPowerAt0m(measuredPower: -20) == nil)
        #expect(EddystonePayload.txPowerAt0m(measuredPower: -127) == -86)
    }

    // MARK: Eddystone-URL

    @Test func eddystoneURLGolden() throws {
        let url = try EddystoneURL("https://www.example.com/")
        let beacon = EddystonePayload(frame: .url(url), txPowerAt0m: -18)
        #expect(beacon.advertisingData == (try bytes([
            "020106",                       // Flags
            "0303AAFE",                     // Complete List of 16-bit Service UUIDs: 0xFEAA
            "0E",                           // AD length 14: type, UUID, frame type, power, scheme and 8 URL bytes
            "16",                           // Service Data - 16-bit UUID
            "AAFE",                         // 0xFEAA
            "10",                           // frame type URL
            "EE",                           // calibrated Tx power at 0 m: -18 dBm
            "01",                           // scheme https://www.
            "6578616D706C65",               // "example"
            "00",                           // expansion .com/
        ])))
    }

    /// URL, scheme prefix code, encoded URL.
    static let urlCases: [(String, UInt8, String)] = [
        ("http://www.example.org", 0x00, "6578616D706C65" + "08"),       // .org
        ("https://example.edu/x", 0x03, "6578616D706C65" + "02" + "78"), // .edu/ then "x"
        ("http://a.info/b.net", 0x02, "61" + "04" + "62" + "0A"),        // .info/, .net
        ("https://goo.gl/S6zT6P", 0x03, "676F6F2E676C2F53367A543650"),   // no expansion: 13 characters
        ("https://", 0x03, ""),                                           // nothing after the scheme
        ("http://x.biz.gov", 0x02, "78" + "0C" + "0D"),                  // consecutive expansions
        // Shortest, not greedy: without "www." as the scheme, its dot starts ".info/" (4 bytes, not 5).
        ("http://www.info/", 0x02, "777777" + "04"),
        // A tie (4 bytes either way) keeps the longer scheme.
        ("https://www.com/", 0x01, "636F6D2F"),
        // 17 bytes after the scheme: the most a frame carries.
        ("https://abcdefghijklmnopq", 0x03, "6162636465666768696A6B6C6D6E6F7071"),
        ("https://abcdefghijklmnop.com/", 0x03, "6162636465666768696A6B6C6D6E6F70" + "00"),
        // Printable ASCII other than the expansions travels as itself.
        ("http://a?b=%7E&c#[]", 0x02, "613F623D2537452663235B5D"),
        ("https://($*+,;:@!~'", 0x03, "28242A2B2C3B3A40217E27"),
    ]

    @Test("scheme codes and expansion codes, shortest encoding", arguments: urlCases)
    func urlEncoding(_ text: String, scheme: UInt8, encoded: String) throws {
        let url = try EddystoneURL(text)
        #expect(url.scheme == scheme)
        #expect(Hex.encode(url.encoded) == encoded)
        #expect(url.url == text)
        let data = EddystonePayload(frame: .url(url), txPowerAt0m: 0).advertisingData
        #expect(data.count == 14 + url.encoded.count && data.count <= 31)
    }

    @Test("each expansion code stands for its ending", arguments: Array(EddystoneURL.expansions.enumerated()))
    func expansionCodes(_ code: Int, _ ending: String) throws {
        let url = try EddystoneURL("http://a" + ending)
        #expect(url.encoded == [0x61, UInt8(code)])
    }

    @Test func expansionTableIsTheSpecifications() {
        #expect(EddystoneURL.schemes == ["http://www.", "https://www.", "http://", "https://"])
        #expect(EddystoneURL.expansions.count == 14)
        #expect(EddystoneURL.expansions[0x00] == ".com/" && EddystoneURL.expansions[0x06] == ".gov/")
        #expect(EddystoneURL.expansions[0x07] == ".com" && EddystoneURL.expansions[0x0D] == ".gov")
    }

    @Test func refusesWhatAFrameCannotCarry() {
        #expect(throws: EddystoneURL.EncodingError.tooLong(length: 18)) { try EddystoneURL("https://abcdefghijklmnopqr") }
        #expect(throws: EddystoneURL.EncodingError.tooLong(length: 19)) { try EddystoneURL("http://www.abcdefghijklmnopqrs") }
        #expect(throws: EddystoneURL.EncodingError.noScheme) { try EddystoneURL("example.com") }
        #expect(throws: EddystoneURL.EncodingError.noScheme) { try EddystoneURL("HTTPS://example.com") }
        #expect(throws: EddystoneURL.EncodingError.noScheme) { try EddystoneURL("ftp://example.com") }
        #expect(throws: EddystoneURL.EncodingError.noScheme) { try EddystoneURL("") }
        #expect(throws: EddystoneURL.EncodingError.disallowedCharacter(offset: 9, " ")) { try EddystoneURL("http://a/ b") }
        #expect(throws: EddystoneURL.EncodingError.disallowedCharacter(offset: 8, "é")) { try EddystoneURL("https://é.fr") }
        #expect(throws: EddystoneURL.EncodingError.disallowedCharacter(offset: 7, "\u{7F}")) { try EddystoneURL("http://\u{7F}") }
        #expect(throws: EddystoneURL.EncodingError.disallowedCharacter(offset: 7, "\u{0}")) { try EddystoneURL("http://\u{0}.com") }
    }

    // MARK: Every format

    @Test("each encoded format decodes to what was encoded, and encodes again to the same bytes")
    func roundTrip() throws {
        let alt = AltBeacon(companyID: 0x004C, id1: try uuid("00112233-4455-6677-8899-AABBCCDDEEFF"), id2: 0, id3: 65535,
                            referenceRSSI: -127, reserved: 0xAB)
        #expect(BeaconFrame.find(inAdvertisingData: alt.advertisingData[...]) == .altBeacon(alt))

        let payloads = [EddystonePayload(frame: .uid(Self.uid), txPowerAt0m: -18),
                        EddystonePayload(frame: .url(try EddystoneURL("https://www.example.com/")), txPowerAt0m: 20),
                        EddystonePayload(frame: .url(try EddystoneURL("http://abcdefghijklmnopq")), txPowerAt0m: -100)]
        for payload in payloads {
            let decoded = BeaconFrame.find(inAdvertisingData: payload.advertisingData[...])
            let again: EddystonePayload? = switch decoded {
            case .eddystone(.uid(let power, let uid)): EddystonePayload(frame: .uid(uid), txPowerAt0m: power)
            case .eddystone(.url(let power, let url)): EddystonePayload(frame: .url(url), txPowerAt0m: power)
            default: nil
            }
            #expect(again == payload, "\(payload)")
            #expect(again?.advertisingData == payload.advertisingData)
        }
    }

    @Test("the AD walker finds each format's structures, and they rebuild the same bytes")
    func structures() throws {
        let beacons: [(AdvertisedBeacon, [ADType])] = [
            (.iBeacon(IBeacon(identity: IBeaconID(uuid: try uuid("E2C56DB5-DFFB-48D2-B060-D0F5A71096E0"), major: 1, minor: 2),
                              measuredPower: -59)), [.flags, .manufacturerSpecificData]),
            (.altBeacon(AltBeacon(id1: try uuid("2F234454-CF6D-4A0F-ADF2-F4911BA9FFA6"), id2: 1, id3: 2, referenceRSSI: -59)),
             [.flags, .manufacturerSpecificData]),
            (.eddystone(EddystonePayload(frame: .uid(Self.uid),
                                         txPowerAt0m: -18)), [.flags, .completeList16BitUUIDs, .serviceData16BitUUID]),
            (.eddystone(EddystonePayload(frame: .url(try EddystoneURL("https://abcdefghijklmnopq")), txPowerAt0m: 20)),
             [.flags, .completeList16BitUUIDs, .serviceData16BitUUID]),
        ]
        for (beacon, types) in beacons {
            let data = beacon.advertisingData
            #expect(data.count <= 31, "\(beacon.format)")
            let parsed = try adStructures(data[...])
            #expect(parsed.map(\.type) == types, "\(beacon.format)")
            #expect(AdvertisingData.build(parsed.map { ($0.type, Array($0.value)) }) == data)
            #expect(parsed.first?.value.first == ADFlags.generalDiscoverableLEOnly)
        }
        #expect(beacons.map(\.0.format) == BeaconFormat.advertisable)
    }

    @Test("an iBeacon plan round-trips through the core's iBeacon decoder")
    func iBeaconRoundTrip() throws {
        let beacon = IBeacon(identity: IBeaconID(uuid: try uuid("E2C56DB5-DFFB-48D2-B060-D0F5A71096E0"), major: 0, minor: 65535),
                             measuredPower: -70)
        let plan = AdvertisingPlan(beacon: .iBeacon(beacon))
        #expect(findIBeacon(inAdvertisingData: plan.advertisingData[...]) == beacon)
        #expect(plan.advertisingData == beacon.advertisingData)
    }
}
