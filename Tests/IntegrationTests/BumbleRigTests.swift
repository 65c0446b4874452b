import Foundation
import Testing

/// The rig itself: bumble's advertiser on controller 0 is heard, byte for
/// byte, by bumble's scanner on controller 1, over every kind of link. If
/// these fail, the beacon tests below them cannot be trusted either way.
@Suite("emulated controller rig", .enabled(if: IntegrationGate.isEnabled, IntegrationGate.reason))
struct BumbleRigTests {
    /// AD structures of the test beacon, as bumble must put them on air.
    static let expectedAdvertisingData =
        "020106"                                 // flags: LE General Discoverable, BR/EDR not supported
        + "1AFF" + "4C00"                        // manufacturer specific, 26 bytes; Apple (0x004C, LE)
        + "0215"                                 // iBeacon type 0x02, 21 bytes follow
        + "E2C56DB5DFFB48D2B060D0F5A71096E0"     // proximity UUID, big-endian
        + "0001" + "0002"                        // major 1, minor 2, big-endian
        + "C5"                                   // measured power -59 dBm

    @Test("bumble scanner hears bumble's iBeacon", arguments: [ControllerLink.tcp, .unix, .pty])
    func scannerHearsAdvertiser(link: ControllerLink) async throws {
        try await BumbleRig.with([.tcp, link]) { rig in
            #expect(rig.specs[1].hasPrefix(link == .pty ? "serial:" : "\(link):"))
            let advertiser = try await rig.advertise(
                on: 0, uuid: TestBeacon.uuid, major: TestBeacon.major, minor: TestBeacon.minor)
            // Several in a row, each byte for byte: however long that takes on a busy machine.
            let heard = try await rig.scan(on: 1, count: 3)
            #expect(heard.count >= 3, "the scanner stopped after \(heard.count) advertisements without hearing 3")
            for advertisement in heard {
                #expect(advertisement.address == TestBeacon.advertiserAddress)
                #expect(advertisement.rssi == Int(TestBeacon.emulatedRSSI))
                #expect(advertisement.data == Self.expectedAdvertisingData)
            }
            await advertiser.stop()
            #expect(advertiser.termination == .exited(0))
            #expect(advertiser.stdoutLines.last?.contains(#""event":"stopped""#) == true)
        }
    }
}
