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

    /// Event_Type values and bits the decoders and the simulation read and write (Core Vol 4 Part E
    /// 7.7.65.2 for legacy reports, 7.7.65.13 for extended ones).
    public enum EventType {
        /// Legacy Event_Type of a scan response (SCAN_RSP).
        public static let legacyScanResponse: UInt16 = 0x04
        /// Extended Event_Type bits: the advertisement is scannable, a scan response, a legacy PDU.
        public static let scannable: UInt16 = 0x0002
        public static let scanResponse: UInt16 = 0x0008
        public static let legacyPDU: UInt16 = 0x0010
        /// Extended Event_Type bits 5-6: the data status.
        static let dataStatusShift: UInt16 = 5
    }

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
    public var dataStatus: DataStatus { Self.dataStatus(eventType: eventType, isExtended: isExtended) }

    @inline(__always)
    static func dataStatus(eventType: UInt16, isExtended: Bool) -> DataStatus {
        guard isExtended else { return .complete }
        return DataStatus(rawValue: UInt8(truncatingIfNeeded: (eventType >> EventType.dataStatusShift) & 0x03)) ?? .reserved
    }

    /// A scan response (legacy SCAN_RSP, or the extended Scan Response bit 3): the second report of an
    /// advertising event whose advertisement was reported first.
    public var isScanResponse: Bool { Self.isScanResponse(eventType: eventType, isExtended: isExtended) }

    @inline(__always)
    static func isScanResponse(eventType: UInt16, isExtended: Bool) -> Bool {
        isExtended ? eventType & EventType.scanResponse != 0 : eventType == EventType.legacyScanResponse
    }

    /// The report `view` reads, its data the bytes of `data`.
    init(_ view: AdvertisingReportView, data: ArraySlice<UInt8>) {
        self.init(eventType: view.eventType, isExtended: view.isExtended, addressType: AddressType(raw: view.addressType),
                  address: DeviceAddress(value: view.address), primaryPHY: view.primaryPHY, secondaryPHY: view.secondaryPHY,
                  sid: view.sid, txPower: view.txPower, rssi: view.rssi, periodicInterval: view.periodicInterval,
                  directAddressType: view.directAddressType, directAddress: DeviceAddress(value: view.directAddress),
                  data: data)
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
}
