/// One report of an LE Advertising Report or LE Extended Advertising Report event, read in place: the
/// fields a sighting needs, and its advertising data as a view of the event's bytes. Every
/// advertisement a scan hears is read this way; `AdvertisingReport` is the whole report, decoded with
/// every check named.
struct AdvertisingReportView {
    let eventType: UInt16
    let isExtended: Bool
    let addressType: UInt8
    let address: UInt64
    /// 0xFF for legacy reports (no ADI).
    let sid: UInt8
    /// Primary_PHY; 0x01 (LE 1M) for legacy reports.
    let primaryPHY: UInt8
    let rssi: Int8
    let data: UnsafeRawBufferPointer

    var dataStatus: AdvertisingReport.DataStatus {
        guard isExtended else { return .complete }
        return AdvertisingReport.DataStatus(rawValue: UInt8(truncatingIfNeeded: (eventType >> 5) & 0x03)) ?? .reserved
    }

    /// How a walk over an event's reports ended.
    enum Walk {
        /// The event is no advertising report: nothing was visited.
        case notReports
        /// Every report was visited and the event's lengths add up.
        case whole
        /// A length does not add up: the reports before the fault were visited. `HCIEvent`'s checked
        /// decoder names the fault.
        case malformed
    }

    /// Event code and parameter length, then the subevent code and Num_Reports.
    private static let eventHeaderLength = 4
    private static let legacyFixedLength = AdvertisingReport.legacyFixedLength
    private static let extendedFixedLength = AdvertisingReport.extendedFixedLength

    /// Visits the reports of `payload` (an event from its code on) in order, each as soon as its own
    /// lengths are checked: the same reports, and the same faults, as
    /// `HCIEvent.forEachAdvertisingReport` finds. Bytes after the declared parameters are left out.
    @inline(__always)
    static func walk(inEvent payload: UnsafeRawBufferPointer, _ body: (AdvertisingReportView) -> Void) -> Walk {
        guard let header = FixedLayout(payload, length: 3), header.u8(0) == HCIEventCode.leMeta.rawValue else {
            return .notReports
        }
        let extended: Bool
        switch header.u8(2) {
        case LESubeventCode.advertisingReport.rawValue: extended = false
        case LESubeventCode.extendedAdvertisingReport.rawValue: extended = true
        default: return .notReports
        }
        // The declared parameters: the subevent code, Num_Reports and the reports.
        let end = 2 + Int(header.u8(1))
        guard end >= eventHeaderLength, payload.count >= end else { return .malformed }
        let count = Int(payload[3])
        var at = eventHeaderLength
        for _ in 0..<count {
            let rest = UnsafeRawBufferPointer(rebasing: payload[at..<end])
            if extended {
                guard let layout = FixedLayout(rest, length: extendedFixedLength) else { return .malformed }
                let f = AdvertisingReport.ExtendedFixedPart(layout)
                let length = Int(f.length)
                guard rest.count - extendedFixedLength >= length else { return .malformed }
                body(AdvertisingReportView(eventType: f.eventType, isExtended: true, addressType: f.addressType, address: f.address,
                                           sid: f.sid, primaryPHY: f.primaryPHY, rssi: Int8(bitPattern: f.rssi),
                                           data: UnsafeRawBufferPointer(rebasing: rest[extendedFixedLength..<extendedFixedLength + length])))
                at += extendedFixedLength + length
            } else {
                guard let layout = FixedLayout(rest, length: legacyFixedLength) else { return .malformed }
                let f = AdvertisingReport.LegacyFixedPart(layout)
                let length = Int(f.dataLength)
                // The data, then the RSSI.
                guard rest.count - legacyFixedLength > length else { return .malformed }
                body(AdvertisingReportView(eventType: UInt16(f.eventType), isExtended: false, addressType: f.addressType, address: f.address,
                                           sid: 0xFF, primaryPHY: PHY.le1M.raw, rssi: Int8(bitPattern: rest[legacyFixedLength + length]),
                                           data: UnsafeRawBufferPointer(rebasing: rest[legacyFixedLength..<legacyFixedLength + length])))
                at += legacyFixedLength + length + 1
            }
        }
        return at == end ? .whole : .malformed
    }

    /// The sighting of `frame` in this report, as `SightingDecoder.sighting(from:at:)` makes it from the
    /// decoded report.
    @inline(__always)
    func sighting(_ frame: BeaconFrame, at time: Timestamp) -> Sighting {
        Sighting(frame: frame, rssi: AdvertisingReport.rssiValue(rssi), address: DeviceAddress(value: address),
                 addressType: AddressType(raw: addressType), time: time,
                 isScanResponse: AdvertisingReport.isScanResponse(eventType: eventType, isExtended: isExtended),
                 phy: PHY(raw: primaryPHY))
    }
}
