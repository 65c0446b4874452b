import BeaconCore

/// The legacy advertising PDUs a simulated beacon sends (Core Vol 6 Part B 2.3), with the Event_Type
/// each report layout gives them.
public enum AdvertisingPDU: Hashable, Sendable {
    /// ADV_NONCONN_IND: neither connectable nor scannable, as iBeacons usually are.
    case nonConnectable
    /// ADV_SCAN_IND: scannable, so an active scanner's request is answered with a scan response.
    case scannable
    /// SCAN_RSP answering a scan request after an ADV_SCAN_IND.
    case scanResponse

    /// LE Advertising Report Event_Type (Core Vol 4 Part E 7.7.65.2): 0x02 ADV_SCAN_IND,
    /// 0x03 ADV_NONCONN_IND, 0x04 SCAN_RSP.
    public var legacyEventType: UInt16 {
        switch self {
        case .nonConnectable: 0x03
        case .scannable: 0x02
        case .scanResponse: AdvertisingReport.EventType.legacyScanResponse
        }
    }

    /// LE Extended Advertising Report Event_Type bits (Core Vol 4 Part E 7.7.65.13): bit 4 legacy PDU,
    /// bit 3 scan response, bit 1 scannable; data complete.
    public var extendedEventType: UInt16 {
        switch self {
        case .nonConnectable: Bits.legacyPDU
        case .scannable: Bits.legacyPDU | Bits.scannable
        case .scanResponse: Bits.legacyPDU | Bits.scanResponse | Bits.scannable
        }
    }

    private typealias Bits = AdvertisingReport.EventType
}
