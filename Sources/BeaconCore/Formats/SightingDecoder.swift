/// Turns LE Advertising Report and LE Extended Advertising Report events into beacon sightings of
/// every supported format, in place: no arrays are built per packet.
public enum SightingDecoder {
    /// Calls `body` once per report carrying a beacon frame, with the RSSI nil when the controller
    /// reported 127. Other events call nothing and do not throw. A malformed report throws after the
    /// reports before it have been delivered. Fragments of an extended advertisement are skipped,
    /// `chains` carrying which advertisers are mid-chain from one event to the next.
    ///
    /// `payload` is the event from its code on, read in place. Only the frames `admits` takes are
    /// made sightings of.
    @inline(__always)
    public static func forEachSighting(inEvent payload: UnsafeRawBufferPointer, at time: Timestamp, chains: inout FragmentChains,
                                       admitting admits: (BeaconFrame) -> Bool = { _ in true }, _ body: (Sighting) -> Void) throws(DecodeError) {
        let walk = AdvertisingReportView.walk(inEvent: payload) { report in
            guard chains.isWhole(report), let frame = BeaconFrame.find(inAdvertisingData: report.data, admitting: admits) else { return }
            body(report.sighting(frame, at: time))
        }
        if case .malformed = walk { try explainMalformed(payload) }
    }

    /// The same for an event held in an array.
    public static func forEachSighting(inEvent payload: ArraySlice<UInt8>, at time: Timestamp, chains: inout FragmentChains,
                                       _ body: (Sighting) -> Void) throws(DecodeError) {
        let result: Result<Void, DecodeError> = payload.withUnsafeBytes { raw in
            Result { () throws(DecodeError) in try forEachSighting(inEvent: raw, at: time, chains: &chains, body) }
        }
        try result.get()
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
                        time: time, isScanResponse: report.isScanResponse, phy: PHY(raw: report.primaryPHY))
    }

    /// Throws the fault of an event whose lengths do not add up, as the checked decoder names it (from a
    /// copy: only malformed events get here). Its reports were delivered up to the fault already.
    @inline(never)
    private static func explainMalformed(_ payload: UnsafeRawBufferPointer) throws(DecodeError) {
        try HCIEvent.forEachAdvertisingReport(inEvent: ArraySlice(payload)) { _ in }
    }
}
