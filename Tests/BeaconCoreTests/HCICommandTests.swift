import Testing
@testable import BeaconCore

/// Golden command payloads (opcode little-endian, parameter length, parameters), one comment per field.
@Suite struct HCICommandTests {
    /// The command encodes to `golden`, decodes back to itself and re-encodes to the same bytes.
    func check(_ command: HCICommand, _ golden: [String], sourceLocation: SourceLocation = #_sourceLocation) throws {
        let expected = try #require(Hex.decode(golden.joined()), sourceLocation: sourceLocation)
        #expect(Hex.encode(command.payload) == Hex.encode(expected), sourceLocation: sourceLocation)
        let decoded = try HCICommand.decode(expected[...])
        #expect(decoded == command, sourceLocation: sourceLocation)
        #expect(decoded.payload == expected, sourceLocation: sourceLocation)
        #expect(command.packet.kind == .command, sourceLocation: sourceLocation)
        #expect(command.packet.h4Bytes == [0x01] + expected, sourceLocation: sourceLocation)
    }

    @Test func reset() throws {
        try check(.reset, [
            "030C", // opcode 0x0C03: OGF 0x03, OCF 0x0003
            "00",   // no parameters
        ])
    }

    @Test func setEventMask() throws {
        try check(.setEventMask(0x203F_FFFF_FFFF_FFFF), [
            "010C",             // opcode 0x0C01
            "08",               // 8 parameter bytes
            "FFFFFFFFFFFF3F20", // Event_Mask, little-endian (bit 61 = LE Meta)
        ])
    }

    @Test func leSetEventMask() throws {
        try check(.leSetEventMask(0x0000_0000_0000_1002), [
            "0120",             // opcode 0x2001
            "08",               // 8 parameter bytes
            "0210000000000000", // LE_Event_Mask: bit 1 Advertising Report, bit 12 Extended Advertising Report
        ])
    }

    @Test func informationalCommands() throws {
        try check(.readLocalSupportedCommands, ["0210", "00"]) // opcode 0x1002, no parameters
        try check(.readLocalVersionInformation, ["0110", "00"]) // opcode 0x1001, no parameters
        try check(.leReadAdvertisingPhysicalChannelTxPower, ["0720", "00"]) // opcode 0x2007, no parameters
        try check(.leReadSupportedStates, ["1C20", "00"]) // opcode 0x201C, no parameters
    }

    @Test func leSetScanParameters() throws {
        try check(.leSetScanParameters(active: true, interval: 0x0060, window: 0x0030, ownAddressType: 0, filterPolicy: 0), [
            "0B20", // opcode 0x200B
            "07",   // 7 parameter bytes
            "01",   // LE_Scan_Type: active
            "6000", // LE_Scan_Interval 0x0060 (60 ms)
            "3000", // LE_Scan_Window 0x0030 (30 ms)
            "00",   // Own_Address_Type: public
            "00",   // Scanning_Filter_Policy: accept all
        ])
    }

    @Test func leSetScanEnable() throws {
        try check(.leSetScanEnable(true, filterDuplicates: false), [
            "0C20", // opcode 0x200C
            "02",   // 2 parameter bytes
            "01",   // LE_Scan_Enable
            "00",   // Filter_Duplicates: off
        ])
        try check(.leSetScanEnable(false, filterDuplicates: true), ["0C20", "02", "00", "01"])
    }

    @Test func leSetExtendedScanParameters() throws {
        try check(.leSetExtendedScanParameters(ownAddressType: 1, filterPolicy: 0, active: false, interval: 0x0060, window: 0x0030), [
            "4120", // opcode 0x2041
            "08",   // 8 parameter bytes
            "01",   // Own_Address_Type: random
            "00",   // Scanning_Filter_Policy
            "01",   // Scanning_PHYs: LE 1M only
            "00",   // Scan_Type[LE 1M]: passive
            "6000", // Scan_Interval[LE 1M]
            "3000", // Scan_Window[LE 1M]
        ])
    }

    @Test func leSetExtendedScanEnable() throws {
        try check(.leSetExtendedScanEnable(true, filterDuplicates: false, duration: 0x0102, period: 0x0304), [
            "4220", // opcode 0x2042
            "06",   // 6 parameter bytes
            "01",   // Enable
            "00",   // Filter_Duplicates: off
            "0201", // Duration 0x0102 (10 ms units)
            "0403", // Period 0x0304 (1.28 s units)
        ])
    }

    @Test func leSetAdvertisingParameters() throws {
        try check(.leSetAdvertisingParameters(intervalMin: 0x00A0, intervalMax: 0x00B0, type: .nonConnectableUndirected,
                                              ownAddressType: 1, channelMap: 0x07, filterPolicy: 0), [
            "0620",         // opcode 0x2006
            "0F",           // 15 parameter bytes
            "A000",         // Advertising_Interval_Min 0x00A0 (100 ms)
            "B000",         // Advertising_Interval_Max 0x00B0 (110 ms)
            "03",           // Advertising_Type: ADV_NONCONN_IND
            "01",           // Own_Address_Type: random
            "00",           // Peer_Address_Type
            "000000000000", // Peer_Address (unused when undirected)
            "07",           // Advertising_Channel_Map: 37, 38, 39
            "00",           // Advertising_Filter_Policy
        ])
    }

    static let iBeaconAD = "0201061AFF4C000215E2C56DB5DFFB48D2B060D0F5A71096E000010002C5"

    @Test func leSetAdvertisingData() throws {
        let data = try #require(Hex.decode(Self.iBeaconAD))
        try check(.leSetAdvertisingData(data), [
            "0820",       // opcode 0x2008
            "20",         // 32 parameter bytes
            "1E",         // Advertising_Data_Length: 30 significant bytes
            Self.iBeaconAD, // Advertising_Data
            "00",         // padding to 31 bytes
        ])
        try check(.leSetAdvertisingData([]), ["0820", "20", "00", String(repeating: "00", count: 31)])
    }

    @Test func leSetAdvertisingEnable() throws {
        try check(.leSetAdvertisingEnable(true), ["0A20", "01", "01"]) // opcode 0x200A, length 1, enable
        try check(.leSetAdvertisingEnable(false), ["0A20", "01", "00"]) // opcode 0x200A, length 1, disable
    }

    @Test func leSetExtendedAdvertisingParameters() throws {
        try check(.leSetExtendedAdvertisingParameters(
            handle: 1, properties: ExtendedAdvertisingProperties.legacyNonConnectable,
            intervalMin: 0x0000A0, intervalMax: 0x0100B0, channelMap: 0x07, ownAddressType: 1, filterPolicy: 0,
            txPower: -7, primaryPHY: 1, secondaryMaxSkip: 0, secondaryPHY: 1, sid: 2, scanRequestNotification: false), [
            "3620",         // opcode 0x2036
            "19",           // 25 parameter bytes
            "01",           // Advertising_Handle
            "1000",         // Advertising_Event_Properties: legacy ADV_NONCONN_IND
            "A00000",       // Primary_Advertising_Interval_Min, 3 bytes
            "B00001",       // Primary_Advertising_Interval_Max 0x0100B0, 3 bytes
            "07",           // Primary_Advertising_Channel_Map
            "01",           // Own_Address_Type: random
            "00",           // Peer_Address_Type
            "000000000000", // Peer_Address
            "00",           // Advertising_Filter_Policy
            "F9",           // Advertising_TX_Power: -7 dBm
            "01",           // Primary_Advertising_PHY: LE 1M
            "00",           // Secondary_Advertising_Max_Skip
            "01",           // Secondary_Advertising_PHY: LE 1M
            "02",           // Advertising_SID
            "00",           // Scan_Request_Notification_Enable
        ])
    }

    @Test func extendedAdvertisingPropertyConstants() {
        #expect(ExtendedAdvertisingProperties.legacyNonConnectable == 0x0010)
        #expect(ExtendedAdvertisingProperties.legacyConnectable == 0x0013)
    }

    @Test func leSetExtendedAdvertisingData() throws {
        let data = try #require(Hex.decode(Self.iBeaconAD))
        try check(.leSetExtendedAdvertisingData(handle: 1, operation: 0x03, fragmentPreference: 0x01, data: data), [
            "3720",         // opcode 0x2037
            "22",           // 34 parameter bytes
            "01",           // Advertising_Handle
            "03",           // Operation: complete data
            "01",           // Fragment_Preference: do not fragment
            "1E",           // Advertising_Data_Length: 30
            Self.iBeaconAD, // Advertising_Data
        ])
    }

    @Test func leSetExtendedAdvertisingEnable() throws {
        try check(.leSetExtendedAdvertisingEnable(true, sets: [(handle: 1, duration: 0, maxEvents: 0),
                                                               (handle: 2, duration: 0x0102, maxEvents: 5)]), [
            "3920", // opcode 0x2039
            "0A",   // 10 parameter bytes
            "01",   // Enable
            "02",   // Num_Sets
            "01",   // set 1: Advertising_Handle
            "0000", // set 1: Duration: until disabled
            "00",   // set 1: Max_Extended_Advertising_Events: no limit
            "02",   // set 2: Advertising_Handle
            "0201", // set 2: Duration 0x0102
            "05",   // set 2: Max_Extended_Advertising_Events
        ])
        try check(.leSetExtendedAdvertisingEnable(false, sets: []), [
            "3920", // opcode 0x2039
            "02",   // 2 parameter bytes
            "00",   // Enable: off
            "00",   // Num_Sets 0: all sets
        ])
    }

    @Test func leRemoveAdvertisingSet() throws {
        try check(.leRemoveAdvertisingSet(handle: 1), [
            "3C20", // opcode 0x203C
            "01",   // 1 parameter byte
            "01",   // Advertising_Handle
        ])
    }

    @Test func unknownCommandRoundTrips() throws {
        let bytes: [UInt8] = [0x01, 0xFC, 0x03, 0xAA, 0xBB, 0xCC] // vendor opcode 0xFC01, 3 parameter bytes
        let command = try HCICommand.decode(bytes[...])
        #expect(command.opcode.name == "opcode 0xFC01 (OGF 0x3F, OCF 0x0001)")
        #expect(command.parameters == [0xAA, 0xBB, 0xCC])
        #expect(command.payload == bytes)
    }

    @Test func shortCommandThrowsWithOffset() {
        // opcode 0x200C declares 2 parameter bytes, one is there.
        #expect(throws: DecodeError(offset: 3, field: "HCI_LE_Set_Scan_Enable parameters", needed: 2, available: 1)) {
            try HCICommand.decode([0x0C, 0x20, 0x02, 0x01][...])
        }
        #expect(throws: DecodeError(offset: 2, field: "HCI command parameter length", needed: 1, available: 0)) {
            try HCICommand.decode([0x0C, 0x20][...])
        }
    }

    @Test func longCommandKeepsTheDeclaredPart() throws {
        let command = try HCICommand.decode([0x0C, 0x20, 0x02, 0x01, 0x00, 0xEE, 0xEE][...])
        #expect(command == .leSetScanEnable(true, filterDuplicates: false))
    }
}
