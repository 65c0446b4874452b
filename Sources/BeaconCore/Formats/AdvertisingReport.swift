/// One advertisement as reported by LE Advertising Report (Core Vol 4 Part E 7.7.65.2) or
/// LE Extended Advertising Report (Core Vol 4 Part E 7.7.65.13). Legacy reports carry no PHY, SID,
/// Tx power, periodic interval or direct address; they hold the values an extended report would
/// give for a legacy PDU (LE 1M, no secondary PHY, no ADI, Tx power not available).
public struct AdvertisingReport: Hashable, Sendable {
    /// Legacy: 0 ADV_IND, 1 ADV_DIRECT_IND, 2 ADV_SCAN_IND, 3 ADV_NONCONN_IND, 4 SCAN_RSP.
    /// Extended: property bits 0-4 and data status in bits 5-6.
    public var eventType: UInt16
    /// True when the report came from (and encodes as) an LE Extended Advertising Report.
    public var isExtended: Bool
    public var addressType: AddressType
    public var address: DeviceAddress
    /// 0x01 LE 1M, 0x03 LE Coded.
    public var primaryPHY: UInt8
    /// 0x00 none, 0x01 LE 1M, 0x02 LE 2M, 0x03 LE Coded.
    public var secondaryPHY: UInt8
    /// Advertising set identifier; 0xFF when no ADI was present.
    public var sid: UInt8
    /// Advertiser's Tx power in dBm; 127 when not available.
    public var txPower: Int8
    /// RSSI in dBm as sent; 127 when not available (see `rssiValue`).
    public var rssi: Int8
    /// Periodic advertising interval in 1.25 ms units; 0 when there is none.
    public var periodicInterval: UInt16
    public var directAddressType: UInt8
    public var directAddress: DeviceAddress
    /// The advertising data: a view into the event's bytes, not a copy.
    public var data: ArraySlice<UInt8>

    /// The value meaning "not available" in `txPower` and `rssi`.
    public static let notAvailable: Int8 = 127

    public init(eventType: UInt16, isExtended: Bool, addressType: AddressType, address: DeviceAddress,
                primaryPHY: UInt8 = 0x01, secondaryPHY: UInt8 = 0x00, sid: UInt8 = 0xFF,
                txPower: Int8 = AdvertisingReport.notAvailable, rssi: Int8, periodicInterval: UInt16 = 0,
                directAddressType: UInt8 = 0x00, directAddress: DeviceAddress = DeviceAddress(value: 0),
                data: ArraySlice<UInt8>) {
        self.eventType = eventType
        self.isExtended = isExtended
        self.addressType = addressType
        self.address = address
        self.primaryPHY = primaryPHY
        self.secondaryPHY = secondaryPHY
        self.sid = sid
        self.txPower = txPower
        self.rssi = rssi
        self.periodicInterval = periodicInterval
        self.directAddressType = directAddressType
        self.directAddress = directAddress
        self.data = data
    }

    /// The RSSI values a controller can report (Core Vol 4 Part E 7.7.65.2: -127 to +20 dBm).
    public static let rssiRange: ClosedRange<Int8> = -127...20

    /// RSSI in dBm, nil when the controller reported 127 ("not available") or any other value outside
    /// -127...+20 dBm, which no controller measures.
    public var rssiValue: Int8? { Self.rssiValue(rssi) }

    /// `rssi` in dBm, nil for 127 (not available) and other values outside `rssiRange`.
    static func rssiValue(_ rssi: Int8) -> Int8? { rssiRange.contains(rssi) ? rssi : nil }

    /// Whether `data` is all of the advertisement (Core Vol 4 Part E 7.7.65.13, Event_Type bits 5-6).
    public enum DataStatus: UInt8, Hashable, Sendable {
        case complete = 0
        /// More fragments follow in later reports.
        case incomplete = 1
        /// The controller dropped the rest.
        case truncated = 2
        case reserved = 3
    }

    /// Always complete for legacy reports.
    public var dataStatus: DataStatus {
        guard isExtended else { return .complete }
        return DataStatus(rawValue: UInt8(truncatingIfNeeded: (eventType >> 5) & 0x03)) ?? .reserved
    }

    /// A scan response (legacy SCAN_RSP, or the extended Scan Response bit 3): the second report of an
    /// advertising event whose advertisement was reported first.
    public var isScanResponse: Bool { Self.isScanResponse(eventType: eventType, isExtended: isExtended) }

    static func isScanResponse(eventType: UInt16, isExtended: Bool) -> Bool {
        isExtended ? eventType & 0x0008 != 0 : eventType == 0x04
    }

    /// Event type, address type, address and data length: the fixed part of a legacy report.
    static let legacyFixedLength = 9
    /// Event type to data length: the fixed part of an extended report.
    static let extendedFixedLength = 24

    /// Reads one legacy report. When its fixed part is all there it is read in place by offset (this
    /// runs per advertisement); when it is not, field by field, so that the error names the field that
    /// ran out.
    static func readLegacy(_ r: inout ByteReader) throws(DecodeError) -> AdvertisingReport {
        guard let fixed = r.fixed(legacyFixedLength, LegacyFixedPart.init) else {
            return try readLegacyFields(&r)
        }
        let data = try r.bytes(Int(fixed.dataLength), "LE Advertising Report data")
        return fixed.report(data: data, rssi: try r.i8("LE Advertising Report RSSI"))
    }

    /// The fixed part of a legacy report, read in place: the checked decoder and the in-place walk
    /// (`AdvertisingReportView`) both read it through this.
    struct LegacyFixedPart {
        let eventType: UInt8
        let addressType: UInt8
        let address: UInt64
        let dataLength: UInt8

        /// The `legacyFixedLength` bytes of `f`.
        @inline(__always)
        init(_ f: FixedLayout) {
            eventType = f.u8(0)
            addressType = f.u8(1)
            address = f.u48(2)
            dataLength = f.u8(8)
        }

        func report(data: ArraySlice<UInt8>, rssi: Int8) -> AdvertisingReport {
            AdvertisingReport(eventType: UInt16(eventType), isExtended: false, addressType: AddressType(raw: addressType),
                              address: DeviceAddress(value: address), rssi: rssi, data: data)
        }
    }

    /// The fixed part of an extended report, read in place, as `LegacyFixedPart`.
    struct ExtendedFixedPart {
        let eventType: UInt16
        let addressType: UInt8
        let address: UInt64
        let primaryPHY: UInt8
        let secondaryPHY: UInt8
        let sid: UInt8
        let txPower: UInt8
        let rssi: UInt8
        let periodicInterval: UInt16
        let directAddressType: UInt8
        let directAddress: UInt64
        let length: UInt8

        /// The `extendedFixedLength` bytes of `f`.
        @inline(__always)
        init(_ f: FixedLayout) {
            (eventType, addressType, address) = (f.u16(0), f.u8(2), f.u48(3))
            (primaryPHY, secondaryPHY, sid, txPower, rssi) = (f.u8(9), f.u8(10), f.u8(11), f.u8(12), f.u8(13))
            (periodicInterval, directAddressType, directAddress, length) = (f.u16(14), f.u8(16), f.u48(17), f.u8(23))
        }
    }

    /// The same for an extended report.
    static func readExtended(_ r: inout ByteReader) throws(DecodeError) -> AdvertisingReport {
        guard let f = r.fixed(extendedFixedLength, ExtendedFixedPart.init) else {
            return try readExtendedFields(&r)
        }
        let data = try r.bytes(Int(f.length), "LE Extended Advertising Report data")
        return AdvertisingReport(eventType: f.eventType, isExtended: true, addressType: AddressType(raw: f.addressType),
                                 address: DeviceAddress(value: f.address), primaryPHY: f.primaryPHY,
                                 secondaryPHY: f.secondaryPHY, sid: f.sid, txPower: Int8(bitPattern: f.txPower),
                                 rssi: Int8(bitPattern: f.rssi), periodicInterval: f.periodicInterval,
                                 directAddressType: f.directAddressType, directAddress: DeviceAddress(value: f.directAddress),
                                 data: data)
    }

    /// Reads one legacy report field by field: event type, address type, address, data length, data,
    /// RSSI (each report's fields together, as controllers and the Linux host lay them out).
    private static func readLegacyFields(_ r: inout ByteReader) throws(DecodeError) -> AdvertisingReport {
        let eventType = try r.u8("LE Advertising Report event type")
        let addressType = AddressType(raw: try r.u8("LE Advertising Report address type"))
        let address = try DeviceAddress(reading: &r, "LE Advertising Report address")
        let length = Int(try r.u8("LE Advertising Report data length"))
        let data = try r.bytes(length, "LE Advertising Report data")
        let rssi = try r.i8("LE Advertising Report RSSI")
        return AdvertisingReport(eventType: UInt16(eventType), isExtended: false, addressType: addressType,
                                 address: address, rssi: rssi, data: data)
    }

    /// Reads one extended report field by field (Core Vol 4 Part E 7.7.65.13).
    private static func readExtendedFields(_ r: inout ByteReader) throws(DecodeError) -> AdvertisingReport {
        let eventType = try r.u16("LE Extended Advertising Report event type")
        let addressType = AddressType(raw: try r.u8("LE Extended Advertising Report address type"))
        let address = try DeviceAddress(reading: &r, "LE Extended Advertising Report address")
        let primaryPHY = try r.u8("LE Extended Advertising Report primary PHY")
        let secondaryPHY = try r.u8("LE Extended Advertising Report secondary PHY")
        let sid = try r.u8("LE Extended Advertising Report SID")
        let txPower = try r.i8("LE Extended Advertising Report Tx power")
        let rssi = try r.i8("LE Extended Advertising Report RSSI")
        let interval = try r.u16("LE Extended Advertising Report periodic interval")
        let directAddressType = try r.u8("LE Extended Advertising Report direct address type")
        let directAddress = try DeviceAddress(reading: &r, "LE Extended Advertising Report direct address")
        let length = Int(try r.u8("LE Extended Advertising Report data length"))
        let data = try r.bytes(length, "LE Extended Advertising Report data")
        return AdvertisingReport(eventType: eventType, isExtended: true, addressType: addressType, address: address,
                                 primaryPHY: primaryPHY, secondaryPHY: secondaryPHY, sid: sid, txPower: txPower,
                                 rssi: rssi, periodicInterval: interval, directAddressType: directAddressType,
                                 directAddress: directAddress, data: data)
    }

    /// Writes the report in the legacy or the extended layout. In the legacy layout only the low byte of
    /// `eventType` is written; the extended-only fields are not written.
    func write(to w: inout ByteWriter, extended: Bool) {
        if extended {
            w.u16(eventType)
            w.u8(addressType.raw)
            address.write(to: &w)
            w.u8(primaryPHY)
            w.u8(secondaryPHY)
            w.u8(sid)
            w.i8(txPower)
            w.i8(rssi)
            w.u16(periodicInterval)
            w.u8(directAddressType)
            directAddress.write(to: &w)
            w.u8(UInt8(truncatingIfNeeded: data.count))
            w.append(data)
        } else {
            w.u8(UInt8(truncatingIfNeeded: eventType))
            w.u8(addressType.raw)
            address.write(to: &w)
            w.u8(UInt8(truncatingIfNeeded: data.count))
            w.append(data)
            w.i8(rssi)
        }
    }

    /// Walks the reports of an LE Advertising Report (`extended` false) or LE Extended Advertising
    /// Report parameters that follow the subevent code. Reports before a malformed one are visited.
    static func walk(_ parameters: ArraySlice<UInt8>, baseOffset: Int, extended: Bool,
                     _ body: (AdvertisingReport) -> Void) throws(DecodeError) {
        var r = ByteReader(parameters, baseOffset: baseOffset)
        let count = try r.u8(extended ? "LE Extended Advertising Report Num_Reports" : "LE Advertising Report Num_Reports")
        for _ in 0..<count {
            body(extended ? try readExtended(&r) : try readLegacy(&r))
        }
        guard r.isAtEnd else {
            throw r.invalid(extended ? "LE Extended Advertising Report" : "LE Advertising Report",
                            "\(r.remaining.counted("byte")) after the last of \(count.counted("report"))")
        }
    }
}
