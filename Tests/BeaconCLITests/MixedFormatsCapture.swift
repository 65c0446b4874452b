import BeaconCore
import BeaconSimulation
import Foundation

/// A capture of beacons of every format, written from the specifications' byte layouts (not from
/// beacon's encoders), with noise between them: other devices, another company's manufacturer data,
/// a malformed Eddystone frame and an AltBeacon cut short.
enum MixedFormatsCapture {
    static let start = Timestamp(microseconds: 1_800_000_000_000_000)
    static let iBeaconAddress = DeviceAddress(value: 0xC0_00_00_00_00_01)
    static let altBeaconAddress = DeviceAddress(value: 0xC0_00_00_00_00_02)
    static let eddystoneAddress = DeviceAddress(value: 0xC0_00_00_00_00_03)
    static let urlAddress = DeviceAddress(value: 0xC0_00_00_00_00_04)
    static let eidAddress = DeviceAddress(value: 0xC0_00_00_00_00_05)

    static let iBeacon = [
        "0201061AFF4C000215",                   // Flags; Manufacturer Specific Data, Apple, iBeacon, 21 bytes
        "E2C56DB5DFFB48D2B060D0F5A71096E0",     // proximity UUID
        "0001", "0002", "C5",                   // major 1, minor 2, measured power -59
    ].joined()
    static let altBeacon = [
        "020106",                               // Flags
        "1BFF1801BEAC",                         // Manufacturer Specific Data, company 0x0118, beacon code
        "2F234454CF6D4A0FADF2F4911BA9FFA6",     // ID1
        "0001", "0002", "C5", "00",             // ID2 1, ID3 2, reference RSSI -59, reserved
    ].joined()
    static let eddystoneUID = [
        "020106", "0303AAFE",                   // Flags; 16-bit UUIDs: 0xFEAA
        "1716AAFE00EC",                         // Service Data 0xFEAA, UID, Tx power -20 dBm at 0 m
        "00010203040506070809",                 // namespace
        "0A0B0C0D0E0F", "0000",                 // instance, RFU
    ].joined()
    static let eddystoneTLM = [
        "020106", "0303AAFE",
        "1116AAFE2000",                         // Service Data 0xFEAA, TLM version 0
        "0BB8", "1880",                         // 3000 mV, 24.5 °C
        "00000100", "00000E10",                 // 256 advertisements, 360.0 s
    ].joined()
    static let eddystoneURL = [
        "020106", "0303AAFE",
        "0E16AAFE10EB03",                       // Service Data 0xFEAA, URL, Tx power -21 dBm, https://
        "676F6F2E676C2F", "61",                 // "goo.gl/", "a"
    ].joined()
    static let eddystoneEID = [
        "020106", "0303AAFE",
        "0D16AAFE30F6",                         // Service Data 0xFEAA, EID, Tx power -10 dBm
        "0123456789ABCDEF",                     // ephemeral identifier
    ].joined()
    static let noise = [
        "0201060709736E736F72",                 // a device named "snsor"
        "020106", "05FF59000102",               // another company's manufacturer data
    ]
    static let malformedEddystone = "020106" + "0303AAFE" + "0716AAFE10EB020E"   // URL with a reserved byte 0x0E
    static let shortAltBeacon = "020106" + "0AFF1801BEAC2F234454CF"          // AltBeacon cut short

    static func data(_ hex: String) -> [UInt8] { Hex.decode(hex)! }

    /// `seconds` of air: every 100 ms each beacon advertises (the Eddystone beacon sends a TLM in
    /// place of every third UID frame), with noise between them.
    static func capture(seconds: Int) -> [UInt8] {
        var file = BtsnoopWriter().header
        func add(_ hex: String, _ address: DeviceAddress, _ ms: Int64, rssi: Int8, extended: Bool) {
            let packet = SimulatedAir.report(.nonConnectable, data: data(hex), address: address, addressType: .randomDevice,
                                             rssi: rssi, extended: extended)
            BtsnoopWriter().appendRecord(packet, direction: .received, timestamp: start + .milliseconds(ms), to: &file)
        }
        for slot in 0..<(seconds * 10) {
            let ms = Int64(slot) * 100
            add(iBeacon, iBeaconAddress, ms + 5, rssi: -50, extended: false)
            add(noise[0], DeviceAddress(value: 0xD0_00_00_00_00_01), ms + 10, rssi: -80, extended: true)
            add(altBeacon, altBeaconAddress, ms + 20, rssi: -60, extended: true)
            add(slot % 3 == 2 ? eddystoneTLM : eddystoneUID, eddystoneAddress, ms + 30, rssi: -70, extended: slot % 2 == 0)
            add(noise[1] + noise[2], DeviceAddress(value: 0xD0_00_00_00_00_02), ms + 40, rssi: -80, extended: false)
            add(eddystoneURL, urlAddress, ms + 50, rssi: -65, extended: true)
            add(malformedEddystone, DeviceAddress(value: 0xD0_00_00_00_00_03), ms + 60, rssi: -80, extended: true)
            add(eddystoneEID, eidAddress, ms + 70, rssi: -75, extended: false)
            add(shortAltBeacon, DeviceAddress(value: 0xD0_00_00_00_00_04), ms + 80, rssi: -80, extended: true)
        }
        return file
    }
}
