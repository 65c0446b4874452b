/// Turns LE Advertising Report and LE Extended Advertising Report events into beacon sightings of
/// every supported format, in place: no arrays are built per packet.
public enum SightingDecoder {
    /// Calls `body` once per report carrying a beacon frame, with the RSSI nil when the controller
    /// reported 127. Other events call nothing and do not throw. A malformed report throws after the
    /// reports before it have been delivered. Fragments of an extended advertisement are skipped,
    /// `chains` carrying which advertisers are mid-chain from one event to the next.
    public static func forEachSighting(inEvent payload: ArraySlice<UInt8>, at time: Timestamp, chains: inout FragmentChains,
                                       _ body: (Sighting) -> Void) throws(DecodeError) {
        let handled = payload.withUnsafeBytes { raw in
            guard let single = singleLegacyReport(inEvent: raw) else { return false }
            let data = UnsafeRawBufferPointer(rebasing: raw[single.data])
            if let frame = BeaconFrame.find(inAdvertisingData: data, at: payload.startIndex + single.data.lowerBound, of: payload) {
                body(single.fixed.sighting(frame, rssi: single.rssi, at: time))
            }
            return true
        }
        if handled { return }
        try HCIEvent.forEachAdvertisingReport(inEvent: payload) { report in
            guard chains.isWhole(report) else { return }
            if let sighting = sighting(from: report, at: time) { body(sighting) }
        }
    }

    /// The same for one event on its own: fragment chains are followed within it only.
    public static func forEachSighting(inEvent payload: ArraySlice<UInt8>, at time: Timestamp,
                                       _ body: (Sighting) -> Void) throws(DecodeError) {
        var chains = FragmentChains()
        try forEachSighting(inEvent: payload, at: time, chains: &chains, body)
    }

    /// The sighting one report carries, nil when it holds no beacon frame.
    public static func sighting(from report: AdvertisingReport, at time: Timestamp) -> Sighting? {
        guard let frame = BeaconFrame.find(inAdvertisingData: report.data) else { return nil }
        return Sighting(frame: frame, rssi: report.rssiValue, address: report.address, addressType: report.addressType,
                        time: time, isScanResponse: report.isScanResponse)
    }

    /// Event code, parameter length, subevent and Num_Reports, then the report's fixed part.
    private static let singleLegacyHeaderLength = 4 + AdvertisingReport.legacyFixedLength

    /// The report of an LE Advertising Report event that holds exactly one, when every length in it
    /// agrees: what most packets on a busy link are, read in place in one step (`data` is where its
    /// advertising data lies in `payload`). Nil for any other event, and for one whose lengths do not add
    /// up, which the walk over reports then decodes or names the fault of. (A legacy report is never a
    /// fragment, so it needs no fragment chains.)
    @inline(__always)
    static func singleLegacyReport(inEvent payload: UnsafeRawBufferPointer)
        -> (fixed: AdvertisingReport.LegacyFixedPart, data: Range<Int>, rssi: Int8)? {
        guard let layout = FixedLayout(payload, length: singleLegacyHeaderLength) else { return nil }
        let f = (code: layout.u8(0), parameterLength: layout.u8(1), subevent: layout.u8(2), count: layout.u8(3),
                 report: AdvertisingReport.LegacyFixedPart(layout, at: 4))
        guard f.code == HCIEventCode.leMeta.rawValue, f.subevent == LESubeventCode.advertisingReport.rawValue, f.count == 1
        else { return nil }
        // Subevent and Num_Reports, the fixed part after them, the data, the RSSI: nothing more, nothing less.
        let dataLength = Int(f.report.dataLength)
        guard Int(f.parameterLength) == singleLegacyHeaderLength - 2 + dataLength + 1,
              payload.count >= singleLegacyHeaderLength + dataLength + 1 else { return nil }
        let data = singleLegacyHeaderLength..<singleLegacyHeaderLength + dataLength
        return (f.report, data, Int8(bitPattern: payload[data.upperBound]))
    }
}
