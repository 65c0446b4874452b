import Testing
@testable import BeaconCore

@Suite struct SightingDecoderTests {
    func bytes(_ fields: [String], sourceLocation: SourceLocation = #_sourceLocation) throws -> [UInt8] {
        try #require(Hex.decode(fields.joined()), sourceLocation: sourceLocation)
    }

    let time = Timestamp(microseconds: 1_700_000_000_000_000)

    func identity(minor: UInt16) throws -> BeaconIdentity {
        BeaconIdentity(uuid: try #require(BeaconUUID("E2C56DB5-DFFB-48D2-B060-D0F5A71096E0")), major: 1, minor: minor)
    }

    func sightings(_ payload: [UInt8]) throws -> [Sighting] {
        var out: [Sighting] = []
        try SightingDecoder.forEachSighting(inEvent: payload[...], at: time) { out.append($0) }
        return out
    }

    @Test func legacyReports() throws {
        // Report 1 carries an iBeacon (minor 42) at -60 dBm; report 2 is an empty scan response.
        let found = try sightings(try bytes(HCIEventTests.legacyTwoReports))
        #expect(found == [Sighting(identity: try identity(minor: 42), measuredPower: -59, rssi: -60,
                                   address: DeviceAddress(value: 0xC011_2233_4455), addressType: .randomDevice, time: time)])
    }

    @Test func extendedReports() throws {
        let found = try sightings(try bytes(HCIEventTests.extendedTwoReports))
        #expect(found == [Sighting(identity: try identity(minor: 42), measuredPower: -59, rssi: -50,
                                   address: DeviceAddress(value: 0xF0F1_F2F3_F401), addressType: .publicDevice, time: time)])
    }

    @Test func rssiNotAvailableIsNil() throws {
        let legacy = try bytes([
            "3E",           // HCI_LE_Meta
            "2A",           // 42 parameter bytes
            "02",           // LE Advertising Report
            "01",           // Num_Reports
            "03",           // ADV_NONCONN_IND
            "00",           // public address
            "010000000000", // 00:00:00:00:00:01
            "1E",           // Data_Length 30
            HCIEventTests.iBeaconData,
            "7F",           // RSSI: not available
        ])
        #expect(try sightings(legacy).map(\.rssi) == [nil])

        var extended = HCIEventTests.extendedTwoReports
        extended[11] = "7F" // report 1 RSSI: not available
        #expect(try sightings(try bytes(extended)).map(\.rssi) == [nil])
    }

    /// One legacy report, as most events on a busy link are (read in one step).
    func singleLegacyReport(parameterLength: String = "2A", extra: String = "") throws -> [UInt8] {
        try bytes([
            "3E",           // HCI_LE_Meta
            parameterLength,
            "02",           // LE Advertising Report
            "01",           // Num_Reports
            "04",           // SCAN_RSP
            "01",           // random address
            "0F0403020100", // 00:01:02:03:04:0F
            "1E",           // Data_Length 30
            HCIEventTests.iBeaconData,
            "C4",           // RSSI -60
            extra,
        ])
    }

    /// The report `SightingDecoder.singleLegacyReport` reads in place, as a report.
    func singleReport(_ event: [UInt8]) -> AdvertisingReport? {
        event.withUnsafeBytes { raw in
            SightingDecoder.singleLegacyReport(inEvent: raw).map { $0.fixed.report(data: event[$0.data], rssi: $0.rssi) }
        }
    }

    @Test func oneLegacyReportIsTheReportTheWalkReads() throws {
        let event = try singleLegacyReport()
        let report = try #require(singleReport(event))
        guard case .leMeta(.advertisingReport(let walked)) = try HCIEvent.decode(event[...]) else {
            Issue.record("not an advertising report")
            return
        }
        #expect([report] == walked)
        #expect(try sightings(event) == [Sighting(identity: try identity(minor: 42), measuredPower: -59, rssi: -60,
                                                  address: DeviceAddress(value: 0x0001_0203_040F), addressType: .randomDevice,
                                                  time: time, isScanResponse: true)])
        // Bytes after the event's declared parameters are not part of it.
        #expect(singleReport(event + [0xAA]) == report)
    }

    @Test("Eddystone service data in a one-report event is decoded from the event's own bytes, wherever they start in a buffer")
    func eddystoneInOneLegacyReport() throws {
        let event = try bytes([
            "3E", "2B", "02", "01",
            "00",           // ADV_IND
            "00",           // public address
            "0F0403020100",
            "1F",           // Data_Length 31
            "020106", "0303AAFE",
            "1716AAFE00E7", "00112233445566778899", "AABBCCDDEEFF", "0000", // UID frame, Tx power -25
            "C4",
        ])
        // The event behind other bytes, as it lies in a read buffer: its slice does not start at 0.
        let buffered = [0x04, 0x3E, 0x00] + event
        let payload = buffered[3...]
        var found: [Sighting] = []
        try SightingDecoder.forEachSighting(inEvent: payload, at: time) { found.append($0) }
        guard case .leMeta(.advertisingReport(let walked)) = try HCIEvent.decode(payload) else {
            Issue.record("not an advertising report")
            return
        }
        #expect(found == walked.compactMap { SightingDecoder.sighting(from: $0, at: time) })
        #expect(found.map { $0.identity?.description } == ["eddystone:00112233445566778899:AABBCCDDEEFF"])
    }

    @Test func oneLegacyReportWhoseLengthsDisagreeIsLeftToTheWalk() throws {
        // A parameter byte after the RSSI: the walk names it.
        let trailing = try singleLegacyReport(parameterLength: "2B", extra: "00")
        #expect(singleReport(trailing) == nil)
        #expect(throws: DecodeError.self) { try sightings(trailing) }
        // The RSSI missing.
        let short = Array(try singleLegacyReport(parameterLength: "29").dropLast())
        #expect(singleReport(short) == nil)
        #expect(throws: DecodeError(offset: 43, field: "LE Advertising Report RSSI", needed: 1, available: 0)) {
            try sightings(short)
        }
    }

    @Test func otherEventsGiveNothingAndNoError() throws {
        #expect(try sightings(try bytes(["0E", "04", "01", "0C20", "00"])).isEmpty)
        #expect(try sightings(try bytes(["0E", "09", "01"])).isEmpty) // malformed, but not an advertising report
        #expect(try sightings(try bytes(["3E", "02", "14", "00"])).isEmpty)
        #expect(try sightings([]).isEmpty)
    }

    @Test func malformedReportThrowsAfterEarlierSightings() throws {
        var three = HCIEventTests.legacyTwoReports
        three[3] = "03" // Num_Reports 3, only 2 present
        var found: [Sighting] = []
        #expect(throws: DecodeError(offset: 54, field: "LE Advertising Report event type", needed: 1, available: 0)) {
            try SightingDecoder.forEachSighting(inEvent: try bytes(three)[...], at: time) { found.append($0) }
        }
        #expect(found.count == 1)
    }
}
