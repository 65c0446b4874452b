@testable import BeaconCore
import Testing

@Suite("HCI_LE_Read_Supported_States: whether a controller may advertise while it scans")
struct LEStatesTests {
    @Test("LE_States is 8 octets, little-endian; bit 8 allows advertising with passive scanning, bit 12 with active")
    func bits() throws {
        // bumble's emulated controller: every state and combination up to bit 41.
        let bumble = try LEStates(ArraySlice(Hex.decode("ffff3fffff030000")!))
        #expect(bumble.bits == 0x0000_03FF_FF3F_FFFF)
        #expect(bumble.allowsAdvertising(whileScanning: false) && bumble.allowsAdvertising(whileScanning: true))
        let passiveOnly = try LEStates(ArraySlice(Hex.decode("ff01000000000000ee")!))  // a ninth byte is ignored
        #expect(passiveOnly.allowsAdvertising(whileScanning: false) && !passiveOnly.allowsAdvertising(whileScanning: true))
        let neither = try LEStates(ArraySlice(Hex.decode("ff00000000000000")!))  // each state alone, no combination
        #expect(!neither.allowsAdvertising(whileScanning: false) && !neither.allowsAdvertising(whileScanning: true))
    }

    @Test("fewer than 8 octets is an error naming the field")
    func short() {
        #expect(throws: DecodeError.self) { try LEStates(ArraySlice([0xFF, 0xFF])) }
    }

    @Test("a gateway's beacon: the range's UUID, major and minor from its name, stable, and different per name")
    func gatewayBeacon() throws {
        let uuid = try #require(BeaconUUID("E2C56DB5-DFFB-48D2-B060-D0F5A71096E0"))
        let one = AdvertisingPlan.gatewayBeacon(uuid: uuid, gateway: "gw1"), two = AdvertisingPlan.gatewayBeacon(uuid: uuid, gateway: "gw2")
        #expect(one == AdvertisingPlan.gatewayBeacon(uuid: uuid, gateway: "gw1"))
        #expect(one.beaconID != two.beaconID)
        #expect(one.beaconID?.hasPrefix("e2c56db5-dffb-48d2-b060-d0f5a71096e0-") == true)
        #expect(!one.connectable && one.intervalSlots == AdvertisingPlan.recommendedIntervalSlots)
    }
}
