import Testing
@testable import BeaconCore

@Suite struct SightingDecoderTests {
    func bytes(_ fields: [String], sourceLocation: SourceLocation = #_sourceLocation) throws -> [UInt8] {
        try #require(Hex.decode(fields.joined()), sourceLocation: sourceLocation)
    }

    let time = Timestamp(microseconds: 1_700_000_000_000_000)

    func identity(minor: UInt16) throws -> IBeaconID {
        IBeaconID(uuid: try #require(BeaconUUID("E2C56DB5-DFFB-48D2-B060-D0F5A71096E0")), major: 1, minor: minor)
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

    /// One legacy report, as most events on a busy link are.
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

    /// What a report read in place carries, and the same fields of a decoded report.
    struct ReportFields: Equatable {
        var eventType: UInt16, isExtended: Bool, addressType: UInt8, address: UInt64, sid: UInt8, rssi: Int8, data: [UInt8]

        init(_ r: AdvertisingReportView) {
            (eventType, isExtended, addressType, address) = (r.eventType, r.isExtended, r.addressType, r.address)
            (sid, rssi, data) = (r.sid, r.rssi, Array(r.data))
        }

        init(_ r: AdvertisingReport) {
            (eventType, isExtended, addressType, address) = (r.eventType, r.isExtended, r.addressType.raw, r.address.value)
            (sid, rssi, data) = (r.isExtended ? r.sid : 0xFF, r.rssi, Array(r.data))
        }
    }

    /// How a walk over an event's reports ended.
    enum WalkEnd {
        case notReports, whole, malformed
    }

    /// The reports `AdvertisingReportView.walk` reads in place, and how the walk ended.
    func walkInPlace(_ event: [UInt8]) -> (reports: [ReportFields], walk: WalkEnd) {
        var reports: [ReportFields] = []
        let walk = event.withUnsafeBytes { raw -> WalkEnd in
            do throws(DecodeError) {
                return try AdvertisingReportView.walk(inEvent: raw) { reports.append(ReportFields($0)) } ? .whole : .notReports
            } catch {
                return .malformed
            }
        }
        return (reports, walk)
    }

    /// The reports the checked decoder reads.
    func decodedReports(_ event: [UInt8]) throws -> [ReportFields] {
        var reports: [ReportFields] = []
        try HCIEvent.forEachAdvertisingReport(inEvent: event[...]) { reports.append(ReportFields($0)) }
        return reports
    }

    @Test("reports read in place are the reports the checked decoder reads, legacy and extended, one or several")
    func reportsInPlaceAreTheDecodedReports() throws {
        let events = [try singleLegacyReport(), try bytes(HCIEventTests.legacyTwoReports), try bytes(HCIEventTests.extendedTwoReports)]
        for event in events {
            let (reports, walk) = walkInPlace(event)
            guard case .whole = walk else {
                Issue.record("walk ended \(walk) on \(Hex.encode(event))")
                continue
            }
            #expect(!reports.isEmpty)
            #expect(reports == (try decodedReports(event)))
            // Bytes after the event's declared parameters are not part of it.
            #expect(walkInPlace(event + [0xAA]).reports == reports)
        }
        #expect(try sightings(try singleLegacyReport()) == [
            Sighting(identity: try identity(minor: 42), measuredPower: -59, rssi: -60, address: DeviceAddress(value: 0x0001_0203_040F),
                     addressType: .randomDevice, time: time, isScanResponse: true),
        ])
    }

    @Test("an event whose lengths do not add up gives the reports before the fault, and the checked decoder's error")
    func lengthsThatDisagreeAreTheCheckedDecodersFault() throws {
        // A parameter byte after the RSSI: the report is read, then the trailing byte is the fault.
        let trailing = try singleLegacyReport(parameterLength: "2B", extra: "00")
        let read = walkInPlace(trailing)
        #expect(read.reports.count == 1)
        guard case .malformed = read.walk else {
            Issue.record("trailing byte not found: \(read.walk)")
            return
        }
        #expect(throws: DecodeError.self) { try sightings(trailing) }
        // The RSSI missing: no report.
        let short = Array(try singleLegacyReport(parameterLength: "29").dropLast())
        #expect(walkInPlace(short).reports.isEmpty)
        #expect(throws: DecodeError(offset: 43, field: "LE Advertising Report RSSI", needed: 1, available: 0)) {
            try sightings(short)
        }
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
        #expect(found == walked.compactMap { report in
            BeaconFrame.find(inAdvertisingData: report.data).map {
                Sighting(frame: $0, rssi: report.rssiValue, address: report.address, addressType: report.addressType,
                         time: time, isScanResponse: report.isScanResponse)
            }
        })
        #expect(found.map { $0.identity?.description } == ["eddystone:00112233445566778899:AABBCCDDEEFF"])
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
