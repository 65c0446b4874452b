import BeaconCore
import Testing

@Suite("Calibration readings")
struct CalibrationReadingsTests {
    static let uuid = BeaconUUID(high: 1, low: 2)
    static let identity = IBeaconID(uuid: uuid, major: 1, minor: 2)
    static let region = BeaconRegion(uuid: uuid)
    static let start = Timestamp(microseconds: 1_800_000_000_000_000)

    static func sighting(_ milliseconds: Int64, rssi: Int8? = -60, address: UInt64 = 0xC0_01, scanResponse: Bool = false,
                         identity: IBeaconID = identity) -> Sighting {
        Sighting(identity: identity, measuredPower: -59, rssi: rssi, address: DeviceAddress(value: address), addressType: .randomDevice,
                 time: start + Micros.milliseconds(milliseconds), isScanResponse: scanResponse)
    }

    @Test("a scan response less than 10 ms after its advertisement is not a second reading; one 10 ms after is")
    func scanResponsesOfTheSameEvent() throws {
        var readings = CalibrationReadings(region: Self.region)
        readings.add(Self.sighting(0, rssi: -60))
        readings.add(Self.sighting(9, rssi: -70, scanResponse: true))
        readings.add(Self.sighting(100, rssi: -61))
        readings.add(Self.sighting(110, rssi: -71, scanResponse: true))
        let beacon = try readings.measured().get()
        #expect(beacon.rssi == [-60, -61, -71])
    }

    @Test("an advertisement without an RSSI is an event: its scan response is not a reading in its place")
    func eventWithoutRSSI() throws {
        var readings = CalibrationReadings(region: Self.region)
        readings.add(Self.sighting(0, rssi: nil))
        readings.add(Self.sighting(1, rssi: -70, scanResponse: true))
        readings.add(Self.sighting(100, rssi: -61))
        #expect(try readings.measured().get().rssi == [-61])
    }

    @Test("one identity that moves to a new random address is one beacon, reported at its latest address")
    func rotatingAddressIsOneBeacon() throws {
        var readings = CalibrationReadings(region: Self.region)
        for n in 0..<10 { readings.add(Self.sighting(Int64(n) * 100, rssi: -60, address: 0xC0_01)) }
        for n in 10..<20 { readings.add(Self.sighting(Int64(n) * 100, rssi: -62, address: 0xC0_02)) }
        let beacon = try readings.measured().get()
        #expect(beacon.rssi.count == 20)
        #expect(beacon.address == DeviceAddress(value: 0xC0_02))
        #expect(beacon.concurrentAddresses == nil)
    }

    @Test("one identity heard from an address again after another took over is two transmitters: refused")
    func interleavedAddressesAreTwoTransmitters() {
        var readings = CalibrationReadings(region: Self.region)
        readings.add(Self.sighting(0, address: 0xC0_01))
        readings.add(Self.sighting(50, address: 0xC0_02))
        readings.add(Self.sighting(100, address: 0xC0_01))
        guard case .failure(let error) = readings.measured() else {
            Issue.record("two transmitters of one identity were measured as one")
            return
        }
        #expect(error.description.contains("is advertised from 00:00:00:00:C0:01 and 00:00:00:00:C0:02 at the same time"), "\(error)")
    }

    @Test("two identities in the region, or none: refused, naming what was heard")
    func severalIdentitiesOrNone() {
        var readings = CalibrationReadings(region: Self.region)
        guard case .failure(let none) = readings.measured() else { Issue.record("nothing heard was measured"); return }
        #expect(none.description.hasPrefix("no beacon matching"), "\(none)")
        readings.add(Self.sighting(0))
        readings.add(Self.sighting(50, address: 0xC0_02, identity: IBeaconID(uuid: Self.uuid, major: 1, minor: 3)))
        guard case .failure(let two) = readings.measured() else { Issue.record("two identities were measured as one"); return }
        #expect(two.description.hasPrefix("2 beacons match"), "\(two)")
    }

    @Test("a sighting outside the region is not a reading")
    func outsideTheRegion() {
        var readings = CalibrationReadings(region: BeaconRegion(uuid: Self.uuid, major: 9))
        readings.add(Self.sighting(0))
        #expect(readings.beacons.isEmpty)
    }
}
