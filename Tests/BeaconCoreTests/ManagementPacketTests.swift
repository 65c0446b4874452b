import Testing
import BeaconCore

/// Management packets byte for byte against BlueZ doc/mgmt-api.txt's layouts.
@Suite struct ManagementPacketTests {
    /// An iBeacon's 30 advertising bytes (UUID E2C56DB5-…, major 1, minor 2, -59 dBm).
    static let iBeaconData = Hex.decode("0201061AFF4C000215E2C56DB5DFFB48D2B060D0F5A71096E000010002C5")!

    static func hex(_ text: String) -> [UInt8] { Hex.decode(text.replacingOccurrences(of: " ", with: ""))! }

    @Test(arguments: [
        // code  index len   parameters
        (ManagementCommand.readSupportedCommands, "0200 FFFF 0000"),
        (.readControllerInformation, "0400 0100 0000"),
        (.readAdvertisingFeatures, "3D00 0100 0000"),
        // Instance 5, Flags 0, Duration 0, Timeout 0, Adv_Data_Len 30, Scan_Rsp_Len 0, Adv_Data
        (.addAdvertising(instance: 5, flags: [], data: iBeaconData),
         "3E00 0100 2900 05 00000000 0000 0000 1E 00 0201061AFF4C000215E2C56DB5DFFB48D2B060D0F5A71096E000010002C5"),
        (.addAdvertising(instance: 1, flags: .connectable, data: []), "3E00 0100 0B00 01 01000000 0000 0000 00 00"),
        // Instance 5
        (.removeAdvertising(instance: 5), "3F00 0100 0100 05"),
        // Instance 5, Flags bit 14 (interval), Duration 0, Timeout 0, MinInterval 160 slots, MaxInterval 160, TxPower 127
        (.addExtendedAdvertisingParameters(instance: 5, flags: .useInterval, interval: 160, txPower: 127),
         "5400 0100 1200 05 00400000 0000 0000 A0000000 A0000000 7F"),
        // Flags bits 0, 14, 15; TxPower -4 dBm
        (.addExtendedAdvertisingParameters(instance: 4, flags: [.connectable, .useInterval, .useTxPower], interval: 0x0640, txPower: -4),
         "5400 0100 1200 04 01C00000 0000 0000 40060000 40060000 FC"),
        // Instance 5, Advertising Data Length 30, Scan Response Length 0, Advertising Data
        (.addExtendedAdvertisingData(instance: 5, data: iBeaconData),
         "5500 0100 2100 05 1E 00 0201061AFF4C000215E2C56DB5DFFB48D2B060D0F5A71096E000010002C5"),
    ])
    func commandsEncodeAsDocumented(command: ManagementCommand, expected: String) throws {
        let packet = command.packet(controller: 1)
        #expect(packet.bytes == Self.hex(expected))
        // encode -> decode -> encode
        let decoded = try ManagementPacket.decode(ArraySlice(packet.bytes))
        #expect(decoded == packet)
        #expect(decoded.bytes == packet.bytes)
    }

    @Test(arguments: [
        // Command Complete: Command_Opcode 0x003F, Status 0, Instance 5
        ("0100 0000 0400 3F00 00 05", ManagementEvent.commandComplete(command: 0x003F, status: .success, returnParameters: [5])),
        // Command Status: Add Advertising, Permission Denied
        ("0200 0000 0300 3E00 14", .commandStatus(command: 0x003E, status: .permissionDenied)),
        // Command Complete carrying a failure, no return parameters
        ("0100 0000 0300 5400 0C", .commandComplete(command: 0x0054, status: .notSupported, returnParameters: [])),
        ("0500 0000 0000", .indexRemoved),
        // Advertising Removed: Instance 5
        ("2400 0000 0100 05", .advertisingRemoved(instance: 5)),
        // New Settings, kept as it came
        ("0600 0000 0400 C1020000", .other(code: 0x0006, parameters: [0xC1, 0x02, 0x00, 0x00])),
    ])
    func eventsDecodeAsDocumented(bytes: String, expected: ManagementEvent) throws {
        let packet = try ManagementPacket.decode(ArraySlice(Self.hex(bytes)))
        #expect(packet.index == 0)
        #expect(try ManagementEvent.decode(packet) == expected)
        #expect(packet.bytes == Self.hex(bytes))
    }

    @Test func declaredLengthIsCheckedAndBytesAfterItAreNotPartOfThePacket() throws {
        let short = try #require(throws: DecodeError.self) { try ManagementPacket.decode(ArraySlice(Self.hex("0100 0000 0400 3F00"))) }
        #expect(short.field == "parameters")
        #expect(short.needed == 4 && short.available == 2)
        let header = try #require(throws: DecodeError.self) { try ManagementPacket.decode(ArraySlice(Self.hex("0100 00"))) }
        #expect(header.field == "controller index")
        let long = try ManagementPacket.decode(ArraySlice(Self.hex("2400 0000 0100 05 FFFF")))
        #expect(long.parameters == [5])
        let truncated = try #require(throws: DecodeError.self) {
            try ManagementEvent.decode(ManagementPacket(code: 0x0001, index: 0, parameters: [0x3F]))
        }
        #expect(truncated.field == "Command_Opcode")
    }

    @Test func statusesHaveTheirDocumentedCodesAndNames() {
        #expect(ManagementStatus(rawValue: 0x14) == .permissionDenied)
        #expect(ManagementStatus(rawValue: 0x0C).description == "Not Supported (0x0C)")
        #expect(ManagementStatus(rawValue: 0x01) == .unknownCommand)
        for raw in UInt8(0)...0xFF { #expect(ManagementStatus(rawValue: raw).rawValue == raw) }
        #expect(ManagementStatus(rawValue: 0x99).description == "unknown status (0x99)")
    }

    @Test func advertisingFeaturesGiveTheHighestFreeInstance() throws {
        // Supported_Flags 0x0000FFFF, Max_Adv_Data_Len 31, Max_Scan_Rsp_Len 31, Max_Instances 5, Num_Instances 2: 1, 2
        let features = try ManagementAdvertisingFeatures(Self.hex("FFFF0000 1F 1F 05 02 01 02"))
        #expect(features.maxInstances == 5 && features.maxDataLength == 31)
        #expect(features.instances == [1, 2])
        #expect(features.supportedFlags == ManagementAdvertisingFlags(rawValue: 0x0000_FFFF))
        #expect(features.freeInstance == 5)
        #expect(try ManagementAdvertisingFeatures(Self.hex("00000000 1F 1F 05 02 05 01")).freeInstance == 4)
        #expect(try ManagementAdvertisingFeatures(Self.hex("00000000 1F 1F 02 02 01 02")).freeInstance == nil)
        #expect(try ManagementAdvertisingFeatures(Self.hex("00000000 1F 1F 00 00")).freeInstance == nil)
        let short = try #require(throws: DecodeError.self) { try ManagementAdvertisingFeatures(Self.hex("00000000 1F 1F 05 03 01")) }
        #expect(short.field == "Instance")
    }

    @Test func supportedCommandsSayWhetherTheIntervalCanBeSet() throws {
        // Num_Of_Commands 3, Num_Of_Events 1, commands 0x003E 0x0054 0x0055, event 0x0024
        let extended = try ManagementSupportedCommands(Self.hex("0300 0100 3E00 5400 5500 2400"))
        #expect(extended.hasExtendedAdvertising)
        #expect(extended.supports(.addAdvertising(instance: 1, flags: [], data: [])))
        let older = try ManagementSupportedCommands(Self.hex("0100 0000 3E00"))
        #expect(!older.hasExtendedAdvertising)
        #expect(throws: DecodeError.self) { try ManagementSupportedCommands(Self.hex("0200 0000 3E00")) }
    }

    @Test func controllerInformationGivesTheCurrentSettings() throws {
        // Address, Bluetooth_Version 9, Manufacturer, Supported_Settings, Current_Settings 0x00000203, Class, Name...
        let bytes = Self.hex("01F4F3F2F1F0 09 0200 FFFF0000 03020000 000000") + [UInt8](repeating: 0, count: 260)
        let settings = try ManagementControllerSettings(bytes)
        #expect(settings.isPowered && settings.isConnectable && settings.hasLowEnergy)
        let off = try ManagementControllerSettings(Self.hex("01F4F3F2F1F0 09 0200 FFFF0000 00020000"))
        #expect(!off.isPowered && !off.isConnectable && off.hasLowEnergy)
        #expect(throws: DecodeError.self) { try ManagementControllerSettings(Self.hex("01F4F3F2F1F0 09 0200 FFFF0000 0302")) }
    }

    @Test func extendedParametersAnswerCarriesThePowerChosen() throws {
        // Instance 5, TxPower -10 dBm, MaxAdvDataLen 31, MaxScanRspLen 31
        let answer = try ManagementExtendedAdvertisingAnswer(Self.hex("05 F6 1F 1F"))
        #expect(answer == ManagementExtendedAdvertisingAnswer(instance: 5, txPower: -10, maxDataLength: 31))
        #expect(throws: DecodeError.self) { try ManagementExtendedAdvertisingAnswer(Self.hex("05 F6 1F")) }
    }
}
