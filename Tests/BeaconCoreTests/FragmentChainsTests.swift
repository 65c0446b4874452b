import Testing
@testable import BeaconCore

@Suite("fragmented extended advertisements")
struct FragmentChainsTests {
    static let time = Timestamp(microseconds: 1_700_000_000_000_000)
    static let beaconData = IBeacon(identity: IBeaconID(uuid: BeaconUUID("E2C56DB5-DFFB-48D2-B060-D0F5A71096E0")!, major: 1, minor: 2),
                                    measuredPower: -59).advertisingData

    /// An LE Extended Advertising Report event with one report; `status` is Data_Status (bits 5-6).
    static func event(_ data: [UInt8], status: UInt16, address: UInt64 = 0xC0FFEE, sid: UInt8 = 1) -> [UInt8] {
        let report = AdvertisingReport(eventType: status << 5, isExtended: true, addressType: .randomDevice,
                                       address: DeviceAddress(value: address), sid: sid, rssi: -60, data: data[...])
        return HCIEvent.leMeta(.extendedAdvertisingReport([report])).encode()
    }

    static func sightings(_ events: [[UInt8]]) throws -> [Sighting] {
        var chains = FragmentChains()
        var out: [Sighting] = []
        for event in events {
            try SightingDecoder.forEachSighting(inEvent: event[...], at: time, chains: &chains) { out.append($0) }
        }
        return out
    }

    @Test("a continuation fragment whose bytes look like an iBeacon is not decoded as an advertisement")
    func continuationIsNotAnAdvertisement() throws {
        // The first fragment opens a manufacturer structure that the continuation's bytes sit inside.
        let first = Self.event([0xFE, 0xFF, 0x00, 0x00], status: 1)
        let last = Self.event(Self.beaconData, status: 0)
        #expect(try Self.sightings([first, last]).isEmpty)
        // Decoded on its own (no chain open), the same report is a beacon: the chain is what makes the difference.
        #expect(try Self.sightings([last]).count == 1)
    }

    @Test("fragments and truncated reports are never decoded; the advertiser's next whole advertisement is")
    func chainsCloseAndOthersPass() throws {
        let events = [
            Self.event(Self.beaconData, status: 1),               // first fragment: not whole, even if it parses
            Self.event(Self.beaconData, status: 0, address: 0xBEEF), // another advertiser, whole: heard
            Self.event(Self.beaconData, status: 1),               // a middle fragment
            Self.event(Self.beaconData, status: 0),               // the last fragment closes the chain
            Self.event(Self.beaconData, status: 2),               // truncated on its own
            Self.event(Self.beaconData, status: 0),               // whole: heard
        ]
        let heard = try Self.sightings(events)
        #expect(heard.map(\.address.value) == [0xBEEF, 0xC0FFEE])
    }

    @Test("a chain is per advertising set: another SID of the same advertiser is whole")
    func chainsArePerSet() throws {
        let heard = try Self.sightings([Self.event([0x02, 0x01], status: 1, sid: 1), Self.event(Self.beaconData, status: 0, sid: 2)])
        #expect(heard.count == 1)
    }
}
