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
            let scanner = try ChildProcess(
                name: "bumble_beacon scan",
                executable: ProjectPaths.python,
                arguments: [ProjectPaths.tool("bumble_beacon.py"), "scan",
                            "--transport", rig.bumbleSpec(1), "--duration", "1.5"],
                limit: .seconds(30))
            #expect(try await scanner.waitForExit(within: .seconds(20)) == .exited(0))
            let heard = scanner.stdoutLines.filter { $0.contains(#""event":"advertisement""#) }
            #expect(heard.count >= 3, "expected several advertisements in 1.5 s at 100 ms")
            for line in heard {
                #expect(line.contains(#""address":"\#(TestBeacon.advertiserAddress)""#))
                #expect(line.contains(#""rssi":-50"#))
                #expect(line.contains(#""data":"\#(Self.expectedAdvertisingData)""#))
            }
            await advertiser.stop()
            #expect(advertiser.termination == .exited(0))
            #expect(advertiser.stdoutLines.last?.contains(#""event":"stopped""#) == true)
        }
    }
}
