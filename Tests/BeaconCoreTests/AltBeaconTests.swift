import Testing
@testable import BeaconCore

@Suite struct AltBeaconTests {
    /// The example advertisement of the AltBeacon Protocol Specification v1.0.
    static let golden = [
        "1B",                               // length 27
        "FF",                               // AD type: Manufacturer Specific Data
        "1801",                             // company 0x0118 (Radius Networks), little-endian
        "BEAC",                             // beacon code 0xBEAC, big-endian
        "2F234454CF6D4A0FADF2F4911BA9FFA6", // ID1 (first 16 bytes of the beacon ID)
        "0001",                             // ID2 1, big-endian
        "0002",                             // ID3 2, big-endian
        "C5",                               // reference RSSI -59 dBm
        "00",                               // MFG RSVD
    ]

    @Test func specificationExample() throws {
        let data = try #require(Hex.decode(Self.golden.joined()))
        let frame = try #require(BeaconFrame.find(inAdvertisingData: data[...]))
        guard case .altBeacon(let beacon) = frame else { Issue.record("not an AltBeacon: \(frame)"); return }
        #expect(beacon.identity.id1.description == "2F234454-CF6D-4A0F-ADF2-F4911BA9FFA6")
        #expect(beacon.identity.id2 == 1)
        #expect(beacon.identity.id3 == 2)
        #expect(beacon.companyID == 0x0118)
        #expect(beacon.referenceRSSI == -59)
        #expect(beacon.reserved == 0)
        #expect(frame.format == .altBeacon)
        #expect(frame.measuredPower == -59)
        #expect(frame.identity == .altBeacon(beacon.identity))
    }

    @Test("any company, the reserved byte kept, bytes after the 26 ignored")
    func anyCompany() throws {
        let hex = ["FFFF", "BEAC", "00112233445566778899AABBCCDDEEFF", "FFFF", "0000", "80", "7A", "0102"]
        let value = try #require(Hex.decode(hex.joined()))
        let beacon = try #require(AltBeacon(manufacturerData: value[...]))
        #expect(beacon.companyID == 0xFFFF)
        #expect(beacon.identity == AltBeaconID(id1: BeaconUUID(high: 0x0011_2233_4455_6677, low: 0x8899_AABB_CCDD_EEFF), id2: 0xFFFF, id3: 0))
        #expect(beacon.referenceRSSI == -128)
        #expect(beacon.reserved == 0x7A)
    }

    @Test("not an AltBeacon: another beacon code, one byte short, an iBeacon")
    func notThisFormat() throws {
        let full = try #require(Hex.decode(Self.golden[2...].joined()))
        #expect(AltBeacon(manufacturerData: full[...]) != nil)
        var otherCode = full
        otherCode[3] = 0xAD
        #expect(AltBeacon(manufacturerData: otherCode[...]) == nil)
        #expect(AltBeacon(manufacturerData: full.dropLast()) == nil)
        for cut in 0..<full.count { #expect(AltBeacon(manufacturerData: full.prefix(cut)) == nil) }
        let iBeacon = IBeacon(identity: IBeaconID(uuid: BeaconUUID(high: 1, low: 2), major: 3, minor: 4), measuredPower: -59)
        #expect(AltBeacon(manufacturerData: iBeacon.manufacturerData[...]) == nil)
        #expect(BeaconFrame.find(inAdvertisingData: iBeacon.advertisingData[...]) == .iBeacon(iBeacon))
    }
}
