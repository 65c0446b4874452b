import Testing
@testable import BeaconCore

@Suite struct SupportedCommandsTests {
    /// Octet and bit of each command in the Supported_Commands table (Core Vol 4 Part E 6.27).
    static let positions: [(HCIOpcode, Int, Int)] = [
        (.setEventMask, 5, 6),
        (.reset, 5, 7),
        (.readLocalVersionInformation, 14, 3),
        (.readLocalSupportedFeatures, 14, 5),
        (.readBDAddr, 15, 1),
        (.leSetEventMask, 25, 0),
        (.leReadBufferSize, 25, 1),
        (.leReadLocalSupportedFeatures, 25, 2),
        (.leSetRandomAddress, 25, 4),
        (.leSetAdvertisingParameters, 25, 5),
        (.leReadAdvertisingPhysicalChannelTxPower, 25, 6),
        (.leSetAdvertisingData, 25, 7),
        (.leSetScanResponseData, 26, 0),
        (.leSetAdvertisingEnable, 26, 1),
        (.leSetScanParameters, 26, 2),
        (.leSetScanEnable, 26, 3),
        (.leReadSupportedStates, 28, 3),
        (.leSetAdvertisingSetRandomAddress, 36, 1),
        (.leSetExtendedAdvertisingParameters, 36, 2),
        (.leSetExtendedAdvertisingData, 36, 3),
        (.leSetExtendedScanResponseData, 36, 4),
        (.leSetExtendedAdvertisingEnable, 36, 5),
        (.leReadMaximumAdvertisingDataLength, 36, 6),
        (.leRemoveAdvertisingSet, 37, 0),
        (.leClearAdvertisingSets, 37, 1),
        (.leSetExtendedScanParameters, 37, 5),
        (.leSetExtendedScanEnable, 37, 6),
    ]

    func bitmap(_ set: [(Int, UInt8)]) -> [UInt8] {
        var octets = [UInt8](repeating: 0, count: 64)
        for (octet, bits) in set { octets[octet] |= bits }
        return octets
    }

    @Test func eachCommandHasExactlyItsOwnBit() throws {
        for (opcode, octet, bit) in Self.positions {
            let commands = try SupportedCommands(bitmap([(octet, 1 << bit)])[...])
            for (other, _, _) in Self.positions {
                #expect(commands.supports(other) == (other == opcode), "\(opcode.name) bit tested for \(other.name)")
            }
        }
    }

    @Test func unknownOpcodesAndNopAreNotSupported() throws {
        let all = try SupportedCommands([UInt8](repeating: 0xFF, count: 64)[...])
        #expect(!all.supports(.nop))
        #expect(!all.supports(HCIOpcode(rawValue: 0xFC01)))
        #expect(all.supports(.readLocalSupportedCommands))
        for (opcode, _, _) in Self.positions { #expect(all.supports(opcode)) }
    }

    @Test func legacyOnlyController() throws {
        // A Bluetooth 4.x controller: octet 5 0xC0 (Set_Event_Mask, Reset), octet 25 0xF7, octet 26 0x0F.
        let commands = try SupportedCommands(bitmap([(5, 0xC0), (25, 0xF7), (26, 0x0F)])[...])
        #expect(commands.supports(.leSetScanEnable) && commands.supports(.leSetAdvertisingEnable))
        #expect(!commands.hasExtendedScanning)
        #expect(!commands.hasExtendedAdvertising)
        #expect(commands.supports(.reset))
    }

    @Test func extendedController() throws {
        // Octet 36 0x2C: ext adv params, data, enable. Octet 37 0x60: ext scan params and enable.
        let commands = try SupportedCommands(bitmap([(36, 0x2C), (37, 0x60)])[...])
        #expect(commands.hasExtendedScanning)
        #expect(commands.hasExtendedAdvertising)
        #expect(!commands.supports(.leSetScanEnable) && !commands.supports(.leSetAdvertisingEnable))
        // Only one of the two extended scanning commands is not enough.
        #expect(!(try SupportedCommands(bitmap([(37, 0x20)])[...])).hasExtendedScanning)
        #expect(!(try SupportedCommands(bitmap([(36, 0x0C)])[...])).hasExtendedAdvertising)
    }

    @Test func fromCommandCompleteReturnParameters() throws {
        var payload: [UInt8] = [0x0E, 0x44, 0x01, 0x02, 0x10, 0x00] // Command Complete, 68 bytes, 1 credit, 0x1002, Success
        payload += bitmap([(26, 0x0C)])
        guard case .commandComplete(_, .readLocalSupportedCommands, let returned) = try HCIEvent.decode(payload[...]) else {
            Issue.record("not a Command Complete for Read_Local_Supported_Commands")
            return
        }
        let commands = try SupportedCommands(returned.dropFirst())
        #expect(commands.supports(.leSetScanParameters) && commands.supports(.leSetScanEnable))
        #expect(commands.octets.count == 64)
    }

    @Test func builtBitmapMatchesTheTable() throws {
        let built = SupportedCommands(supporting: [.leSetScanParameters, .leSetExtendedScanEnable, .nop])
        #expect(built.octets == bitmap([(26, 0x04), (37, 0x40)]))
    }

    @Test func shortBitmapThrowsLongIsCut() throws {
        #expect(throws: DecodeError(offset: 0, field: "Supported_Commands", needed: 64, available: 63)) {
            try SupportedCommands([UInt8](repeating: 0, count: 63)[...])
        }
        let long = try SupportedCommands(([UInt8](repeating: 0, count: 64) + [0xFF])[...])
        #expect(long.octets == [UInt8](repeating: 0, count: 64))
    }
}
