/// One report of an LE Advertising Report (Core Vol 4 Part E 7.7.65.2) or LE Extended Advertising
/// Report (7.7.65.13) event, read in place: its fields, and its advertising data as a view of the
/// event's bytes. `walk` is the one reader of the report layouts: scans read every advertisement
/// through it, and `HCIEvent` decodes reports (and names the fault of a malformed event) through it.
struct AdvertisingReportView {
    let eventType: UInt16
    let isExtended: Bool
    let addressType: UInt8
    let address: UInt64
    let primaryPHY: UInt8
    let secondaryPHY: UInt8
    /// 0xFF for legacy reports (no ADI).
    let sid: UInt8
    let txPower: Int8
    let rssi: Int8
    let periodicInterval: UInt16
    let directAddressType: UInt8
    let directAddress: UInt64
    let data: UnsafeRawBufferPointer
    /// Where `data` lies, as offsets from the start of the bytes walked.
    let dataSpan: Range<Int>

    var dataStatus: AdvertisingReport.DataStatus {
        AdvertisingReport.dataStatus(eventType: eventType, isExtended: isExtended)
    }

    /// Event type, address type, address and data length: the fixed part of a legacy report.
    static let legacyFixedLength = 9
    /// Event type to data length: the fixed part of an extended report.
    static let extendedFixedLength = 24

    /// Visits the reports of `payload` (an event from its code on) in order, each as soon as its own
    /// lengths are checked. Returns false, visiting nothing, for an event that carries no advertising
    /// reports. A malformed event throws after the reports before the fault were visited, naming the
    /// field that does not fit and its offset from the event code. Bytes after the declared parameters
    /// are left out; `dataSpan`s count from the event code.
    @inline(__always) @discardableResult
    static func walk(inEvent payload: UnsafeRawBufferPointer, _ body: (AdvertisingReportView) -> Void) throws(DecodeError) -> Bool {
        // Cheap checks first: most packets on a busy link are advertising reports, the rest are skipped.
        guard payload.count >= 3, payload[0] == HCIEventCode.leMeta.rawValue else { return false }
        let extended: Bool
        switch payload[2] {
        case LESubeventCode.advertisingReport.rawValue: extended = false
        case LESubeventCode.extendedAdvertisingReport.rawValue: extended = true
        default: return false
        }
        var header = ByteReader(payload)
        try header.skip(1, "HCI event code")
        let parameters = try header.span(Int(try header.u8("HCI event parameter length")), "HCI event parameters")
        // The reports follow the subevent code, inside the declared parameters.
        var r = ByteReader(UnsafeRawBufferPointer(rebasing: payload[..<parameters.upperBound]))
        if parameters.count > 0 {
            try r.skip(3, "LE Meta subevent code")
        } else {
            r = ByteReader(UnsafeRawBufferPointer(start: nil, count: 0), baseOffset: 3)
        }
        try walk(&r, extended: extended, body)
        return true
    }

    /// Visits the reports `r` holds from Num_Reports on, and checks that they fill it.
    @inline(__always)
    static func walk(_ r: inout ByteReader, extended: Bool, _ body: (AdvertisingReportView) -> Void) throws(DecodeError) {
        // The field named only where it is missing: a name chosen at run time is a string the hot path would release.
        guard !r.isAtEnd else {
            throw r.error(extended ? "LE Extended Advertising Report Num_Reports" : "LE Advertising Report Num_Reports", needed: 1)
        }
        let count = try r.u8("Num_Reports")
        for _ in 0..<count {
            body(extended ? try readExtended(&r) : try readLegacy(&r))
        }
        guard r.isAtEnd else {
            throw r.invalid(extended ? "LE Extended Advertising Report" : "LE Advertising Report",
                            "\(r.remaining.counted("byte")) after the last of \(count.counted("report"))")
        }
    }

    /// Event type, address type, address, data length, data, RSSI (each report's fields together, as
    /// controllers and the Linux host lay them out).
    @inline(__always)
    private static func readLegacy(_ r: inout ByteReader) throws(DecodeError) -> AdvertisingReportView {
        let (eventType, addressType, address, length) = try r.fixed(legacyFixedLength, "LE Advertising Report") { f throws(DecodeError) in
            (try f.u8("LE Advertising Report event type"), try f.u8("LE Advertising Report address type"),
             try f.u48("LE Advertising Report address"), try f.u8("LE Advertising Report data length"))
        }
        // The data and the RSSI after it, checked at once.
        let (dataSpan, rssi) = try r.fixed(Int(length) + 1, "LE Advertising Report data") { f throws(DecodeError) in
            (try f.span(Int(length), "LE Advertising Report data"), try f.i8("LE Advertising Report RSSI"))
        }
        return AdvertisingReportView(eventType: UInt16(eventType), isExtended: false, addressType: addressType, address: address,
                                     primaryPHY: 0x01, secondaryPHY: 0x00, sid: 0xFF, txPower: AdvertisingReport.notAvailable,
                                     rssi: rssi, periodicInterval: 0, directAddressType: 0x00, directAddress: 0,
                                     data: data(r, dataSpan), dataSpan: dataSpan)
    }

    /// Event type, address type, address, primary and secondary PHY, SID, Tx power, RSSI, periodic
    /// interval, direct address type and address, data length, data.
    @inline(never) // Kept out of the legacy reports' loop, which most advertisements take.
    private static func readExtended(_ r: inout ByteReader) throws(DecodeError) -> AdvertisingReportView {
        // Checked once where the fixed part is all there; read from what there is where it is not, so
        // that the read that runs out names its field. (Through `fixed`, the twelve fields went through
        // a closure the compiler does not inline, at several times the instructions.)
        let f: ExtendedFixedPart
        if var layout = r.prefix(extendedFixedLength) {
            f = try ExtendedFixedPart(&layout)
            try r.skip(extendedFixedLength, "LE Extended Advertising Report")
        } else {
            f = try ExtendedFixedPart(&r)
        }
        let dataSpan = try r.span(Int(f.length), "LE Extended Advertising Report data")
        return AdvertisingReportView(eventType: f.eventType, isExtended: true, addressType: f.addressType, address: f.address,
                                     primaryPHY: f.primaryPHY, secondaryPHY: f.secondaryPHY, sid: f.sid, txPower: f.txPower,
                                     rssi: f.rssi, periodicInterval: f.interval, directAddressType: f.directAddressType,
                                     directAddress: f.directAddress, data: data(r, dataSpan), dataSpan: dataSpan)
    }

    /// The bytes at `span` of a report whose fixed part `r` has read: `r.bytes` is not empty, so its
    /// start is taken once rather than tested again for every view made of it.
    @inline(__always)
    private static func data(_ r: ByteReader, _ span: Range<Int>) -> UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(start: r.bytes.baseAddress.unsafelyUnwrapped + span.lowerBound, count: span.count)
    }

    /// Event type to data length: the fixed part of an extended report.
    private struct ExtendedFixedPart {
        let eventType: UInt16, addressType: UInt8, address: UInt64, primaryPHY: UInt8, secondaryPHY: UInt8, sid: UInt8
        let txPower: Int8, rssi: Int8, interval: UInt16, directAddressType: UInt8, directAddress: UInt64, length: UInt8

        @inline(__always)
        init(_ r: inout ByteReader) throws(DecodeError) {
            eventType = try r.u16("LE Extended Advertising Report event type")
            addressType = try r.u8("LE Extended Advertising Report address type")
            address = try r.u48("LE Extended Advertising Report address")
            primaryPHY = try r.u8("LE Extended Advertising Report primary PHY")
            secondaryPHY = try r.u8("LE Extended Advertising Report secondary PHY")
            sid = try r.u8("LE Extended Advertising Report SID")
            txPower = try r.i8("LE Extended Advertising Report Tx power")
            rssi = try r.i8("LE Extended Advertising Report RSSI")
            interval = try r.u16("LE Extended Advertising Report periodic interval")
            directAddressType = try r.u8("LE Extended Advertising Report direct address type")
            directAddress = try r.u48("LE Extended Advertising Report direct address")
            length = try r.u8("LE Extended Advertising Report data length")
        }
    }

    /// The sighting of `frame` in this report.
    @inline(__always)
    func sighting(_ frame: BeaconFrame, at time: Timestamp) -> Sighting {
        Sighting(frame: frame, rssi: AdvertisingReport.rssiValue(rssi), address: DeviceAddress(value: address),
                 addressType: AddressType(raw: addressType), time: time,
                 isScanResponse: AdvertisingReport.isScanResponse(eventType: eventType, isExtended: isExtended),
                 phy: PHY(raw: primaryPHY))
    }
}
