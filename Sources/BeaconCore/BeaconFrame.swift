/// What one advertisement says about itself as a beacon, in any supported format: a plain value,
/// decoded in place from the advertising data.
public enum BeaconFrame: Hashable, Sendable {
    case iBeacon(IBeacon)
    case altBeacon(AltBeacon)
    case eddystone(EddystoneFrame)

    public var format: BeaconFormat {
        switch self {
        case .iBeacon: .iBeacon
        case .altBeacon: .altBeacon
        case .eddystone(let frame): frame.format
        }
    }

    /// The identity a region can name; nil for the frames that carry none (Eddystone URL, TLM, EID).
    public var identity: BeaconID? {
        switch self {
        case .iBeacon(let beacon): .iBeacon(beacon.identity)
        case .altBeacon(let beacon): .altBeacon(beacon.identity)
        case .eddystone(.uid(_, let uid)): .eddystoneUID(uid)
        case .eddystone: nil
        }
    }

    /// The calibrated power at 1 m (dBm) ranging uses: iBeacon's measured power, AltBeacon's reference
    /// RSSI, Eddystone's Tx power at 0 m less 41 dB. Nil for frames without a power.
    public var measuredPower: Int8? {
        switch self {
        case .iBeacon(let beacon): beacon.measuredPower
        case .altBeacon(let beacon): beacon.referenceRSSI
        case .eddystone(let frame): frame.txPower.map(EddystoneFrame.measuredPower(txPower:))
        }
    }

    /// The first beacon frame in advertising data, nil when there is none. One walk over the AD
    /// structures: Manufacturer Specific Data is tried as iBeacon, then AltBeacon, in place; Service
    /// Data of UUID 0xFEAA as Eddystone. A malformed Eddystone frame is skipped and the walk goes on; a
    /// malformed AD structure ends it (only frames before it count). Runs per advertisement: it does
    /// not throw and does not allocate.
    public static func find(inAdvertisingData data: ArraySlice<UInt8>) -> BeaconFrame? {
        data.withUnsafeBytes { find(inAdvertisingData: $0, at: data.startIndex, of: data) }
    }

    /// The same for advertising data read in place: `raw` holds the bytes of `bytes` from index `start`
    /// on. The data is looked at through `raw` only, with no view of `bytes` made, unless it holds
    /// Eddystone service data, which is decoded from a view of `bytes`.
    @inline(__always)
    static func find(inAdvertisingData raw: UnsafeRawBufferPointer, at start: Int, of bytes: ArraySlice<UInt8>) -> BeaconFrame? {
        var offset = 0
        while case .structure(let type, let value) = ADWalker.step(raw, at: offset) {
            offset = value.upperBound
            let frame: BeaconFrame?
            switch type {
            case .manufacturerSpecificData:
                frame = manufacturerFrame(UnsafeRawBufferPointer(rebasing: raw[value]))
            case .serviceData16BitUUID:
                frame = eddystoneFrame(bytes[start + value.lowerBound..<start + value.upperBound])
            default:
                frame = nil
            }
            if let frame { return frame }
        }
        // The end of the data, or a malformed structure, which ends the search.
        return nil
    }

    /// The frame one AD structure holds, if any. Throws only for a malformed Eddystone frame.
    public static func decode(_ structure: ADStructure) throws(DecodeError) -> BeaconFrame? {
        switch structure.type {
        case .manufacturerSpecificData:
            return structure.value.withUnsafeBytes(manufacturerFrame)
        case .serviceData16BitUUID:
            return try EddystoneFrame.decode(serviceData: structure.value).map(BeaconFrame.eddystone)
        default:
            return nil
        }
    }

    /// Manufacturer Specific Data as iBeacon, then AltBeacon.
    private static func manufacturerFrame(_ value: UnsafeRawBufferPointer) -> BeaconFrame? {
        if let beacon = IBeacon(manufacturerData: value) { return .iBeacon(beacon) }
        if let beacon = AltBeacon(manufacturerData: value) { return .altBeacon(beacon) }
        return nil
    }

    /// Service Data as Eddystone; nil for a malformed frame, which the search skips.
    private static func eddystoneFrame(_ value: ArraySlice<UInt8>) -> BeaconFrame? {
        do throws(DecodeError) {
            return try EddystoneFrame.decode(serviceData: value).map(BeaconFrame.eddystone)
        } catch {
            return nil
        }
    }
}
