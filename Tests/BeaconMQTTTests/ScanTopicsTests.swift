import BeaconCore
@testable import BeaconMQTT
import Testing

@Suite("MQTT topics of scan lines")
struct ScanTopicsTests {
    let uuid = BeaconUUID("E2C56DB5-DFFB-48D2-B060-D0F5A71096E0")!
    let time = Timestamp(microseconds: 1_000_000)
    let address = DeviceAddress(value: 0xC0_00_00_00_0A_01)

    func line(_ frame: BeaconFrame) -> ScanOutput {
        .beacon(ScannedBeacon(frame: frame, address: address, addressType: .randomDevice, rssi: -60, samples: 3,
                              firstSeen: time, lastSeen: time), time: time, partial: false)
    }

    @Test("a beacon with an identity goes to PREFIX/devices/ its mqtt_room id, not retained")
    func identityTopics() {
        let topics = ScanTopics(prefix: "site")
        let iBeacon = BeaconFrame.iBeacon(IBeacon(identity: IBeaconID(uuid: uuid, major: 1, minor: 2), measuredPower: -59))
        #expect(topics.message(for: line(iBeacon), line: "L")
                == MQTTMessage(topic: "site/devices/e2c56db5-dffb-48d2-b060-d0f5a71096e0-1-2", payload: "L"))
        let altBeacon = BeaconFrame.altBeacon(AltBeacon(id1: uuid, id2: 3, id3: 4, referenceRSSI: -59))
        #expect(topics.message(for: line(altBeacon), line: "A").topic
                == "site/devices/altbeacon-e2c56db5-dffb-48d2-b060-d0f5a71096e0-3-4")
    }

    @Test("a frame without an identity (Eddystone-URL) goes to the address as 12 lower-case hex digits, and --each lines too")
    func addressTopics() throws {
        let topics = ScanTopics(prefix: "site/gateways/hall")
        let url = BeaconFrame.eddystone(.url(txPower: -20, try EddystoneURL("https://example.com")))
        #expect(topics.message(for: line(url), line: "U").topic == "site/gateways/hall/devices/c00000000a01")
        let sighting = Sighting(frame: url, rssi: -70, address: DeviceAddress(value: 0x0A), addressType: .publicDevice, time: time)
        #expect(topics.message(for: .advertisement(sighting), line: "E")
                == MQTTMessage(topic: "site/gateways/hall/devices/00000000000a", payload: "E"))
    }
}
