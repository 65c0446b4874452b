import Testing
@testable import BeaconCore

/// Golden event payloads (event code, parameter length, parameters), one comment per field.
@Suite struct HCIEventTests {
    func bytes(_ fields: [String], sourceLocation: SourceLocation = #_sourceLocation) throws -> [UInt8] {
        try #require(Hex.decode(fields.joined()), sourceLocation: sourceLocation)
    }

    /// Decodes, checks the value, and checks encode → decode → encode gives the same bytes.
    func check(_ fields: [String], _ expected: HCIEvent, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let payload = try bytes(fields, sourceLocation: sourceLocation)
        let event = try HCIEvent.decode(payload[...])
        #expect(event == expected, sourceLocation: sourceLocation)
        #expect(event.encode() == payload, sourceLocation: sourceLocation)
        #expect(expected.encode() == payload, sourceLocation: sourceLocation)
        #expect(try HCIEvent.decode(event.encode()[...]) == event, sourceLocation: sourceLocation)
    }

    @Test func commandCompleteWithStatusOnly() throws {
        try check([
            "0E",   // HCI_Command_Complete
            "04",   // 4 parameter bytes
            "01",   // Num_HCI_Command_Packets
            "0C20", // Command_Opcode 0x200C (LE Set Scan Enable)
            "00",   // Status: Success
        ], .commandComplete(numCommandPackets: 1, opcode: .leSetScanEnable, returnParameters: [0x00][...]))
    }

    @Test func commandCompleteWithReturnParameters() throws {
        try check([
            "0E",           // HCI_Command_Complete
            "0A",           // 10 parameter bytes
            "02",           // Num_HCI_Command_Packets
            "0910",         // Command_Opcode 0x1009 (Read BD_ADDR)
            "00",           // Status: Success
            "5544332211C0", // BD_ADDR C0:11:22:33:44:55
        ], .commandComplete(numCommandPackets: 2, opcode: .readBDAddr,
                            returnParameters: [0x00, 0x55, 0x44, 0x33, 0x22, 0x11, 0xC0][...]))
    }

    @Test func nopCommandComplete() throws {
        try check([
            "0E",   // HCI_Command_Complete
            "03",   // 3 parameter bytes
            "01",   // Num_HCI_Command_Packets: the controller is ready
            "0000", // Command_Opcode 0x0000 (NOP), no return parameters
        ], .commandComplete(numCommandPackets: 1, opcode: .nop, returnParameters: [][...]))
    }

    @Test func commandStatus() throws {
        try check([
            "0F",   // HCI_Command_Status
            "04",   // 4 parameter bytes
            "0C",   // Status: Command Disallowed
            "01",   // Num_HCI_Command_Packets
            "0D20", // Command_Opcode 0x200D (not named here)
        ], .commandStatus(status: .commandDisallowed, numCommandPackets: 1, opcode: HCIOpcode(rawValue: 0x200D)))
    }

    @Test func hardwareError() throws {
        try check([
            "10", // HCI_Hardware_Error
            "01", // 1 parameter byte
            "03", // Hardware_Code
        ], .hardwareError(code: 0x03))
    }

    @Test func unknownEventsRoundTrip() throws {
        try check([
            "13",   // HCI_Number_Of_Completed_Packets (kept as unknown)
            "05",   // 5 parameter bytes
            "01",   // Num_Handles
            "4000", // Connection_Handle
            "0100", // Num_Completed_Packets
        ], .unknown(code: 0x13, parameters: [0x01, 0x40, 0x00, 0x01, 0x00][...]))
        try check([
            "FF",     // vendor-specific event
            "03",     // 3 parameter bytes
            "AABBCC", // vendor parameters
        ], .unknown(code: 0xFF, parameters: [0xAA, 0xBB, 0xCC][...]))
        try check(["57", "00"], .unknown(code: 0x57, parameters: [][...])) // unassigned code, no parameters
        #expect(HCIEventCode(rawValue: 0x57).name == "event 0x57")
        #expect(HCIEventCode.commandComplete.name == "HCI_Command_Complete")
    }

    @Test func unknownSubeventRoundTrips() throws {
        try check([
            "3E",     // HCI_LE_Meta
            "04",     // 4 parameter bytes
            "14",     // Subevent_Code 0x14 (not decoded here)
            "010203", // subevent parameters
        ], .leMeta(.unknown(subevent: 0x14, parameters: [0x01, 0x02, 0x03][...])))
        #expect(LESubeventCode(rawValue: 0x2A).name == "LE subevent 0x2A")
        #expect(LESubeventCode.extendedAdvertisingReport.name == "HCI_LE_Extended_Advertising_Report")
    }

    static let iBeaconData = "0201061AFF4C000215E2C56DB5DFFB48D2B060D0F5A71096E00001002AC5"

    /// Two legacy reports, each report's fields together, as controllers send them.
    static let legacyTwoReports = [
        "3E",           // HCI_LE_Meta
        "34",           // 52 parameter bytes
        "02",           // Subevent_Code: LE Advertising Report
        "02",           // Num_Reports
        "03",           // report 1 Event_Type: ADV_NONCONN_IND
        "01",           // report 1 Address_Type: random
        "5544332211C0", // report 1 Address C0:11:22:33:44:55
        "1E",           // report 1 Data_Length 30
        iBeaconData,    // report 1 Data: flags + iBeacon
        "C4",           // report 1 RSSI -60
        "04",           // report 2 Event_Type: SCAN_RSP
        "00",           // report 2 Address_Type: public
        "664433221100", // report 2 Address 00:11:22:33:44:66
        "00",           // report 2 Data_Length 0
        "7F",           // report 2 RSSI: not available
    ]

    @Test func legacyMultiReport() throws {
        let payload = try bytes(Self.legacyTwoReports)
        let event = try HCIEvent.decode(payload[...])
        guard case .leMeta(.advertisingReport(let reports)) = event else {
            Issue.record("expected an LE Advertising Report, got \(event)")
            return
        }
        try #require(reports.count == 2)
        #expect(reports[0].eventType == 0x03)
        #expect(!reports[0].isExtended)
        #expect(reports[0].addressType == .randomDevice)
        #expect(reports[0].address == DeviceAddress("C0:11:22:33:44:55"))
        #expect(Hex.encode(reports[0].data) == Self.iBeaconData)
        #expect(reports[0].rssi == -60)
        #expect(reports[0].rssiValue == -60)
        #expect(reports[0].txPower == 127)
        #expect(reports[1].eventType == 0x04)
        #expect(reports[1].addressType == .publicDevice)
        #expect(reports[1].address == DeviceAddress("00:11:22:33:44:66"))
        #expect(reports[1].data.isEmpty)
        #expect(reports[1].rssi == 127)
        #expect(reports[1].rssiValue == nil)
        #expect(event.encode() == payload)
        // Data is a view into the event, not a copy: report 1's data starts at byte 13.
        #expect(reports[0].data.startIndex == 13)
    }

    /// A connectable extended advertisement carrying an iBeacon, then a legacy-PDU report in the same event.
    static let extendedTwoReports = [
        "3E",           // HCI_LE_Meta
        "53",           // 83 parameter bytes
        "0D",           // Subevent_Code: LE Extended Advertising Report
        "02",           // Num_Reports
        "0100",         // report 1 Event_Type 0x0001: connectable, data complete
        "00",           // report 1 Address_Type: public
        "01F4F3F2F1F0", // report 1 Address F0:F1:F2:F3:F4:01
        "01",           // report 1 Primary_PHY: LE 1M
        "00",           // report 1 Secondary_PHY: none
        "FF",           // report 1 Advertising_SID: no ADI
        "7F",           // report 1 TX_Power: not available
        "CE",           // report 1 RSSI -50
        "0000",         // report 1 Periodic_Advertising_Interval: none
        "00",           // report 1 Direct_Address_Type
        "000000000000", // report 1 Direct_Address
        "1E",           // report 1 Data_Length 30
        iBeaconData,    // report 1 Data
        "1000",         // report 2 Event_Type 0x0010: legacy ADV_NONCONN_IND
        "01",           // report 2 Address_Type: random
        "5544332211C0", // report 2 Address C0:11:22:33:44:55
        "01",           // report 2 Primary_PHY: LE 1M
        "00",           // report 2 Secondary_PHY: none
        "FF",           // report 2 Advertising_SID: no ADI
        "7F",           // report 2 TX_Power: not available
        "7F",           // report 2 RSSI: not available
        "0000",         // report 2 Periodic_Advertising_Interval
        "00",           // report 2 Direct_Address_Type
        "000000000000", // report 2 Direct_Address
        "03",           // report 2 Data_Length 3
        "020106",       // report 2 Data: flags only
    ]

    @Test func extendedMultiReport() throws {
        let payload = try bytes(Self.extendedTwoReports)
        let event = try HCIEvent.decode(payload[...])
        let data = try bytes([Self.iBeaconData])
        let expected: [AdvertisingReport] = [
            AdvertisingReport(eventType: 0x0001, isExtended: true, addressType: .publicDevice,
                              address: DeviceAddress(value: 0xF0F1_F2F3_F401), primaryPHY: 1, secondaryPHY: 0,
                              sid: 0xFF, txPower: 127, rssi: -50, periodicInterval: 0, directAddressType: 0,
                              directAddress: DeviceAddress(value: 0), data: data[...]),
            AdvertisingReport(eventType: 0x0010, isExtended: true, addressType: .randomDevice,
                              address: DeviceAddress(value: 0xC011_2233_4455), rssi: 127, data: [0x02, 0x01, 0x06][...]),
        ]
        #expect(event == .leMeta(.extendedAdvertisingReport(expected)))
        #expect(event.encode() == payload)
        #expect(HCIEvent.leMeta(.extendedAdvertisingReport(expected)).encode() == payload)
    }

    @Test func emptyReportEventsRoundTrip() throws {
        try check(["3E", "02", "02", "00"], .leMeta(.advertisingReport([]))) // LE Advertising Report, 0 reports
        try check(["3E", "02", "0D", "00"], .leMeta(.extendedAdvertisingReport([]))) // Extended, 0 reports
    }

    @Test func shortEventThrowsWithOffset() throws {
        // Command Complete declares 4 parameter bytes, 3 are there.
        #expect(throws: DecodeError(offset: 2, field: "HCI event parameters", needed: 4, available: 3)) {
            try HCIEvent.decode(try bytes(["0E", "04", "01", "0C20"])[...])
        }
        #expect(throws: DecodeError(offset: 1, field: "HCI event parameter length", needed: 1, available: 0)) {
            try HCIEvent.decode([0x0E][...])
        }
        // Command Complete too short for its own fields.
        #expect(throws: DecodeError(offset: 3, field: "Command Complete opcode", needed: 2, available: 1)) {
            try HCIEvent.decode(try bytes(["0E", "02", "01", "0C"])[...])
        }
        // LE Meta without a subevent code.
        #expect(throws: DecodeError(offset: 2, field: "LE Meta subevent code", needed: 1, available: 0)) {
            try HCIEvent.decode(try bytes(["3E", "00"])[...])
        }
    }

    @Test func longEventKeepsTheDeclaredPart() throws {
        let event = try HCIEvent.decode(try bytes(["0E", "04", "01", "0C20", "00", "EEEE"])[...])
        #expect(event == .commandComplete(numCommandPackets: 1, opcode: .leSetScanEnable, returnParameters: [0x00][...]))
        #expect(event.encode() == (try bytes(["0E", "04", "01", "0C20", "00"])))
    }

    @Test func fixedSizeEventWithExtraParametersThrows() throws {
        #expect(throws: DecodeError.self) {
            try HCIEvent.decode(try bytes(["0F", "05", "00", "01", "0D20", "99"])[...])
        }
    }

    @Test func reportRunningPastTheEventThrowsWithOffset() throws {
        // One legacy report whose Data_Length says 32 bytes where only 31 (30 data + RSSI) remain.
        var fields = Self.legacyTwoReports
        fields[1] = "2A" // 42 parameter bytes: just the first report
        fields[3] = "01" // Num_Reports 1
        fields[7] = "20" // Data_Length 32
        let payload = try bytes(Array(fields[0...9]))
        #expect(throws: DecodeError(offset: 13, field: "LE Advertising Report data", needed: 32, available: 31)) {
            try HCIEvent.decode(payload[...])
        }
        // Num_Reports says 3 but two are there: the third report's event type is missing at the end.
        var three = Self.legacyTwoReports
        three[3] = "03"
        #expect(throws: DecodeError(offset: 54, field: "LE Advertising Report event type", needed: 1, available: 0)) {
            try HCIEvent.decode(try bytes(three)[...])
        }
        // An extended report cut inside its direct address.
        let cut = try bytes(["3E", "15", "0D", "01", "0100", "00", "01F4F3F2F1F0", "01", "00", "FF", "7F", "CE", "0000", "00", "0000"])
        #expect(throws: DecodeError(offset: 21, field: "LE Extended Advertising Report direct address", needed: 6, available: 2)) {
            try HCIEvent.decode(cut[...])
        }
    }

    @Test func bytesAfterTheLastReportThrow() throws {
        var fields = Self.legacyTwoReports
        fields[1] = "35" // one more parameter byte
        fields.append("EE")
        #expect(throws: DecodeError.self) { try HCIEvent.decode(try bytes(fields)[...]) }
    }

    @Test func visitorWalksEveryReportWithoutDecodingTheEvent() throws {
        let legacy = try bytes(Self.legacyTwoReports)
        var seen: [AdvertisingReport] = []
        #expect(try HCIEvent.forEachAdvertisingReport(inEvent: legacy[...]) { seen.append($0) })
        #expect(HCIEvent.leMeta(.advertisingReport(seen)).encode() == legacy)

        let extended = try bytes(Self.extendedTwoReports)
        var addresses: [DeviceAddress] = []
        #expect(try HCIEvent.forEachAdvertisingReport(inEvent: extended[...]) { addresses.append($0.address) })
        #expect(addresses == [DeviceAddress(value: 0xF0F1_F2F3_F401), DeviceAddress(value: 0xC011_2233_4455)])
    }

    @Test func visitorSkipsOtherEvents() throws {
        var calls = 0
        let complete = try bytes(["0E", "04", "01", "0C20", "00"])
        #expect(try !HCIEvent.forEachAdvertisingReport(inEvent: complete[...]) { _ in calls += 1 })
        let otherSubevent = try bytes(["3E", "04", "14", "010203"])
        #expect(try !HCIEvent.forEachAdvertisingReport(inEvent: otherSubevent[...]) { _ in calls += 1 })
        #expect(try !HCIEvent.forEachAdvertisingReport(inEvent: [][...]) { _ in calls += 1 })
        #expect(calls == 0)
    }

    @Test func visitorDeliversReportsBeforeAMalformedOne() throws {
        var three = Self.legacyTwoReports
        three[3] = "03" // Num_Reports 3, only 2 present
        let payload = try bytes(three)
        var calls = 0
        #expect(throws: DecodeError(offset: 54, field: "LE Advertising Report event type", needed: 1, available: 0)) {
            try HCIEvent.forEachAdvertisingReport(inEvent: payload[...]) { _ in calls += 1 }
        }
        #expect(calls == 2)
    }

    @Test func packetHasTheEventKind() throws {
        let event = HCIEvent.hardwareError(code: 1)
        #expect(event.packet.h4Bytes == [0x04, 0x10, 0x01, 0x01])
    }
}
