import Testing
@testable import BeaconCore

@Suite struct IBeaconTests {
    static let sampleUUID = BeaconUUID("E2C56DB5-DFFB-48D2-B060-D0F5A71096E0")

    func sample() throws -> IBeacon {
        IBeacon(identity: IBeaconID(uuid: try #require(Self.sampleUUID), major: 1, minor: 2), measuredPower: -59)
    }

    static let golden = [
        "02",                               // length 2
        "01",                               // AD type: Flags
        "06",                               // LE General Discoverable, BR/EDR Not Supported
        "1A",                               // length 26
        "FF",                               // AD type: Manufacturer Specific Data
        "4C00",                             // company 0x004C (Apple), little-endian
        "02",                               // iBeacon type
        "15",                               // 21 bytes follow
        "E2C56DB5DFFB48D2B060D0F5A71096E0", // proximity UUID, big-endian
        "0001",                             // major 1, big-endian
        "0002",                             // minor 2, big-endian
        "C5",                               // measured power -59 dBm
    ]

    @Test func advertisingDataGolden() throws {
        let beacon = try sample()
        #expect(Hex.encode(beacon.advertisingData) == Self.golden.joined())
        #expect(Hex.encode(beacon.advertisingData) == "0201061AFF4C000215E2C56DB5DFFB48D2B060D0F5A71096E000010002C5")
        #expect(beacon.advertisingData.count == 30)
        #expect(beacon.manufacturerData.count == 25)
        #expect(Hex.encode(beacon.manufacturerData) == Self.golden[5...].joined())
    }

    @Test func decodesItsOwnEncoding() throws {
        let beacon = try sample()
        #expect(IBeacon(manufacturerData: beacon.manufacturerData[...]) == beacon)
        #expect(findIBeacon(inAdvertisingData: beacon.advertisingData[...]) == beacon)
        let data = try #require(Hex.decode(Self.golden.joined()))
        let found = try #require(findIBeacon(inAdvertisingData: data[...]))
        #expect(found.identity.uuid.description == "E2C56DB5-DFFB-48D2-B060-D0F5A71096E0")
        #expect(found.identity.major == 1)
        #expect(found.identity.minor == 2)
        #expect(found.measuredPower == -59)
        #expect(found.advertisingData == data)
    }

    @Test func bigEndianFieldsAndSignedPower() throws {
        let beacon = IBeacon(identity: IBeaconID(uuid: BeaconUUID(high: 0x0102_0304_0506_0708, low: 0x090A_0B0C_0D0E_0F10),
                                                      major: 0xABCD, minor: 0x1234), measuredPower: 4)
        #expect(Hex.encode(beacon.manufacturerData) == "4C000215" + "0102030405060708090A0B0C0D0E0F10" + "ABCD" + "1234" + "04")
        #expect(IBeacon(manufacturerData: beacon.manufacturerData[...])?.measuredPower == 4)
    }

    @Test func findsTheBeaconAfterOtherStructures() throws {
        let beacon = try sample()
        let data = AdvertisingData.build([
            (.completeLocalName, Array("x".utf8)),
            (.manufacturerSpecificData, [0x59, 0x00, 0x01]), // another company
            (.manufacturerSpecificData, beacon.manufacturerData),
        ])
        #expect(findIBeacon(inAdvertisingData: data[...]) == beacon)
        // Inside a larger buffer (a slice that does not start at 0).
        let padded = [0xEE, 0xEE] + data
        #expect(findIBeacon(inAdvertisingData: padded[2...]) == beacon)
    }

    @Test func rejectsOtherPayloads() throws {
        let beacon = try sample()
        var wrongCompany = beacon.manufacturerData
        wrongCompany[0] = 0x4D
        #expect(IBeacon(manufacturerData: wrongCompany[...]) == nil)
        var wrongType = beacon.manufacturerData
        wrongType[2] = 0x01
        #expect(IBeacon(manufacturerData: wrongType[...]) == nil)
        var wrongLength = beacon.manufacturerData
        wrongLength[3] = 0x14
        #expect(IBeacon(manufacturerData: wrongLength[...]) == nil)
        #expect(IBeacon(manufacturerData: beacon.manufacturerData.dropLast()) == nil)
        // A trailing byte after the 25 is tolerated.
        #expect(IBeacon(manufacturerData: (beacon.manufacturerData + [0x64])[...]) == beacon)
        // The iBeacon layout in another AD type is not an iBeacon.
        let asServiceData = AdvertisingData.build([(.serviceData16BitUUID, beacon.manufacturerData)])
        #expect(findIBeacon(inAdvertisingData: asServiceData[...]) == nil)
    }

    @Test func malformedAdvertisingDataGivesNil() throws {
        let beacon = try sample()
        var data = beacon.advertisingData
        data[0] = 0x30 // flags length runs past the data
        #expect(findIBeacon(inAdvertisingData: data[...]) == nil)
        #expect(findIBeacon(inAdvertisingData: beacon.advertisingData.dropLast()) == nil)
        #expect(findIBeacon(inAdvertisingData: [][...]) == nil)
        #expect(findIBeacon(inAdvertisingData: [0x00, 0x1A, 0xFF][...]) == nil)
        // A zero length byte ends the significant part: a beacon after it is padding.
        #expect(findIBeacon(inAdvertisingData: ([0x00] + beacon.advertisingData)[...]) == nil)
    }
}

/// The iBeacon the search for beacon frames finds first in advertising data, nil when it finds none
/// or a frame of another format.
func findIBeacon(inAdvertisingData data: ArraySlice<UInt8>) -> IBeacon? {
    guard case .iBeacon(let beacon)? = BeaconFrame.find(inAdvertisingData: data) else { return nil }
    return beacon
}
