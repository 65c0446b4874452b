import BeaconCore
import BeaconTransport
import Testing

/// The commands bring-up sends for long range, as a scripted controller receives them.
@Suite("Coded PHY set-up commands")
struct CodedPHYSetupTests {
    /// A controller that answers every command with success (and `features` for LE Read Local Supported
    /// Features), keeping what it was sent.
    final class Recording {
        var commands: [HCICommand] = []
        let transport: ScriptedTransport
        let host: HCIHost

        init(features: [UInt8] = [0x00, 0x08, 0, 0, 0, 0, 0, 0]) throws {
            var sent: (HCICommand) -> Void = { _ in }
            transport = try ScriptedTransport { command in
                sent(command)
                let returns: [UInt8] = command.opcode == .leReadLocalSupportedFeatures ? [0x00] + features : [0x00, 0x00]
                return [.commandComplete(numCommandPackets: 1, opcode: command.opcode, returnParameters: returns[...])]
            }
            host = HCIHost(transport: transport, recorder: nil, signals: nil)
            sent = { [unowned self] in commands.append($0) }
        }

        func parameters(of opcode: HCIOpcode) -> String? {
            commands.last { $0.opcode == opcode }.map { Hex.encode($0.parameters) }
        }
    }

    @Test func extendedScanningCarriesABlockPerPHY() throws {
        let controller = try Recording()
        try ControllerSetup.startScanning(controller.host, ScanParameters(phys: [.le1M, .leCoded]), using: .extended)
        // Own address public, accept all, Scanning_PHYs 0x05, then passive 100 ms / 100 ms for LE 1M and for LE Coded.
        #expect(controller.parameters(of: .leSetExtendedScanParameters) == "000005" + "00A000A000" + "00A000A000")
        try ControllerSetup.startScanning(controller.host, ScanParameters(active: true, phys: .leCoded), using: .extended)
        #expect(controller.parameters(of: .leSetExtendedScanParameters) == "000004" + "01A000A000")
    }

    @Test func leFeaturesAreReadOnlyFromAControllerThatTakesTheCommand() throws {
        let controller = try Recording()
        let features = try ControllerSetup.leFeatures(controller.host, SupportedCommands(supporting: [.leReadLocalSupportedFeatures]))
        #expect(features?.hasCodedPHY == true)
        #expect(try ControllerSetup.leFeatures(controller.host, SupportedCommands(supporting: [])) == nil)
        #expect(controller.commands.map(\.opcode) == [.leReadLocalSupportedFeatures])
    }

    @Test func shortLEFeaturesAreAControllerError() throws {
        let controller = try Recording(features: [0x00, 0x08])
        #expect(throws: HostError.self) {
            try ControllerSetup.leFeatures(controller.host, SupportedCommands(supporting: [.leReadLocalSupportedFeatures]))
        }
    }

    @Test func codedAdvertisingSetsBothPHYsToCoded() throws {
        let controller = try Recording()
        let beacon = AdvertisedBeacon.iBeacon(IBeacon(identity: BeaconIdentity(uuid: BeaconUUID("E2C56DB5-DFFB-48D2-B060-D0F5A71096E0")!,
                                                                               major: 1, minor: 2), measuredPower: -59))
        _ = try AdvertiserSetup.start(controller.host, AdvertisingPlan(beacon: beacon, phy: .leCoded), using: .extended)
        // Handle 0, properties 0x0000 (extended, non-connectable, non-scannable), 100 ms, channels 37-39, public,
        // no peer, no filter, Tx power no preference, primary LE Coded, skip 0, secondary LE Coded, SID 0, no notifications.
        #expect(controller.parameters(of: .leSetExtendedAdvertisingParameters)
                == "00" + "0000" + "A00000" + "A00000" + "07" + "00" + "00" + "000000000000" + "00" + "7F" + "03" + "00" + "03" + "00" + "00")
        _ = try AdvertiserSetup.start(controller.host, AdvertisingPlan(beacon: beacon), using: .extended)
        // LE 1M as before: legacy ADV_NONCONN_IND properties, both PHYs LE 1M.
        #expect(controller.parameters(of: .leSetExtendedAdvertisingParameters)
                == "00" + "1000" + "A00000" + "A00000" + "07" + "00" + "00" + "000000000000" + "00" + "7F" + "01" + "00" + "01" + "00" + "00")
    }
}
