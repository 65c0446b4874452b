import BeaconCore
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Long range on emulated controllers. bumble's controllers list the LE Coded PHY (bit 11) among their LE
/// features, take the PHY parameters and put extended advertising on its one virtual radio, but report
/// every advertisement as received on LE 1M: what goes on air is checked in the `--record` captures
/// (the parameters beacon sent), what is heard in the lines ("phy":"1m", as the controller reported).
@Suite("Long range (LE Coded PHY) on emulated controllers",
       .enabled(if: IntegrationGate.isEnabled, IntegrationGate.reason),
       .timeLimit(.minutes(5)))
struct CodedPHYIntegrationTests {
    /// The parameters of every command with `opcode` beacon sent in the capture at `path`, in order.
    static func sent(_ opcode: HCIOpcode, in path: String) throws -> [String] {
        var reader = BtsnoopReader()
        reader.append(try Data(contentsOf: URL(fileURLWithPath: path)))
        var found: [String] = []
        while let record = try reader.next() {
            guard record.packet.kind == .command else { continue }
            let command = try HCICommand.decode(record.packet.payload)
            if command.opcode == opcode { found.append(Hex.encode(command.parameters)) }
        }
        try reader.finish()
        return found
    }

    static func objects(_ lines: [String]) throws -> [[String: Any]] {
        try lines.map { line in try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]) }
    }

    @Test("a controller with LE Coded scans 1M and Coded by default, advertises on Coded, and every line says the PHY")
    func codedController() async throws {
        try await BumbleRig.with(extended: true) { rig in
            let advertised = rig.scratch.appendingPathComponent("advertise.btsnoop").path
            let scanned = rig.scratch.appendingPathComponent("scan.btsnoop").path
            let ranged = rig.scratch.appendingPathComponent("range.btsnoop").path
            let advertiser = try BeaconProcess.start(
                ["advertise", "--hci", rig.specs[0], "--uuid", TestBeacon.uuid, "--major", "1", "--minor", "2",
                 "--phy", "coded", "--record", advertised])
            let on = try await advertiser.waitForLine(within: HangGuard.startUp, "advertising line") {
                $0.contains(#""event":"advertising""#)
            }
            #expect(on.line.contains(#""commands":"extended","phy":"coded""#), "\(on.line)")

            let scan = try await BeaconProcess.run(["scan", "--hci", rig.specs[1], "--each", "--duration", "2", "--record", scanned])
            #expect(scan.termination == .exited(0), "\(scan.failure("exit status"))")
            let range = try await BeaconProcess.run(["range", "--hci", rig.specs[1], "--uuid", TestBeacon.uuid, "--phy", "coded,1m",
                                                     "--duration", "2.5", "--record", ranged])
            #expect(range.termination == .exited(0), "\(range.failure("exit status"))")
            advertiser.send(SIGINT)
            #expect(try await advertiser.waitForExit(within: HangGuard.step) == .exited(0), "\(advertiser.failure("exit status"))")

            // Handle 0, extended non-connectable non-scannable PDUs, 100 ms, channels 37-39, public, no peer, no
            // filter, no Tx power preference, LE Coded primary, skip 0, LE Coded secondary, SID 0, no notifications.
            #expect(try Self.sent(.leSetExtendedAdvertisingParameters, in: advertised)
                    == ["00" + "0000" + "A00000" + "A00000" + "07" + "00" + "00" + "000000000000" + "00" + "7F" + "03" + "00" + "03" + "00" + "00"])
            // Default and asked alike: Scanning_PHYs 0x05, passive 100 ms / 100 ms on LE 1M, then on LE Coded.
            let bothPHYs = "000005" + "00A000A000" + "00A000A000"
            #expect(try Self.sent(.leSetExtendedScanParameters, in: scanned) == [bothPHYs])
            #expect(try Self.sent(.leSetExtendedScanParameters, in: ranged) == [bothPHYs])

            let heard = try Self.objects(scan.stdoutLines).filter { $0["address"] as? String == TestBeacon.advertiserAddress }
            #expect(!heard.isEmpty, "the scan heard nothing from the advertiser")
            #expect(heard.allSatisfy { $0["phy"] as? String == "1m" }, "\(heard)")
            let entries = try Self.objects(range.stdoutLines).compactMap { $0["beacons"] as? [[String: Any]] }.joined()
            #expect(!entries.isEmpty, "no range line listed the advertiser")
            #expect(entries.allSatisfy { $0["phy"] as? String == "1m" })
            try await expectValidOutput(scan.stdoutLines + range.stdoutLines + advertiser.stdoutLines)
        }
    }

    @Test("a controller without LE Coded in its LE features is refused coded, with the remedy, and scans LE 1M by default")
    func controllerWithoutCoded() async throws {
        try await BumbleRig.with(extended: true, codedPHY: false) { rig in
            let scan = try await BeaconProcess.run(["scan", "--hci", rig.specs[1], "--phy", "1m,coded", "--duration", "2"])
            #expect(scan.termination == .exited(69), "\(scan.failure("exit status"))")
            #expect(scan.stdoutLines.isEmpty)
            #expect(scan.stderrLines == ["Error: --phy coded: this controller does not have the LE Coded PHY (bit 11 of its LE features "
                                         + "is clear); scan with --phy 1m, or use a Bluetooth 5 controller with the LE Coded PHY"])
            let advertise = try await BeaconProcess.run(["advertise", "--hci", rig.specs[0], "--uuid", TestBeacon.uuid,
                                                         "--major", "1", "--minor", "2", "--phy", "coded"])
            #expect(advertise.termination == .exited(69), "\(advertise.failure("exit status"))")
            #expect(advertise.stderrLines.first?.hasSuffix("advertise without --phy coded, or use a Bluetooth 5 controller with the LE Coded PHY") == true,
                    "\(advertise.stderrLines)")

            let capture = rig.scratch.appendingPathComponent("range.btsnoop").path
            let range = try await BeaconProcess.run(["range", "--hci", rig.specs[1], "--uuid", TestBeacon.uuid, "--duration", "1",
                                                     "--record", capture])
            #expect(range.termination == .exited(0), "\(range.failure("exit status"))")
            #expect(try Self.sent(.leSetExtendedScanParameters, in: capture) == ["000001" + "00A000A000"])
        }
    }

    @Test("a legacy-only controller is refused coded scanning and advertising, with the remedy; --phy 1m scans")
    func legacyController() async throws {
        try await BumbleRig.with(extended: false) { rig in
            let scan = try await BeaconProcess.run(["range", "--hci", rig.specs[1], "--uuid", TestBeacon.uuid, "--phy", "coded"])
            #expect(scan.termination == .exited(69), "\(scan.failure("exit status"))")
            #expect(scan.stderrLines == ["Error: --phy coded: this controller has no extended scanning commands "
                                         + "(HCI_LE_Set_Extended_Scan_Parameters), and legacy scanning is LE 1M only; "
                                         + "scan with --phy 1m, or use a Bluetooth 5 controller with the LE Coded PHY"])
            let advertise = try await BeaconProcess.run(["advertise", "--hci", rig.specs[0], "--uuid", TestBeacon.uuid,
                                                         "--major", "1", "--minor", "2", "--phy", "coded"])
            #expect(advertise.termination == .exited(69), "\(advertise.failure("exit status"))")
            #expect(advertise.stderrLines.first?.contains("has no extended advertising commands") == true, "\(advertise.stderrLines)")
            let legacy = try await BeaconProcess.run(["scan", "--hci", rig.specs[1], "--phy", "1m", "--duration", "1"])
            #expect(legacy.termination == .exited(0), "\(legacy.failure("exit status"))")
        }
    }
}
