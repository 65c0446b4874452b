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
    /// structures: Manufacturer Specific Data is tried as iBeacon, then AltBeacon, Service Data of UUID
    /// 0xFEAA as Eddystone, each in place. A malformed Eddystone frame is skipped and the walk goes on; a
    /// malformed AD structure ends it (only frames before it count). Runs per advertisement: it does
    /// not throw and does not allocate.
    public static func find(inAdvertisingData data: ArraySlice<UInt8>) -> BeaconFrame? {
        data.withUnsafeBytes { find(inAdvertisingData: $0) }
    }

    /// The same for advertising data read in place; nil also when `admits` turns the first frame away.
    @inline(__always)
    static func find(inAdvertisingData raw: UnsafeRawBufferPointer, admitting admits: (BeaconFrame) -> Bool = { _ in true }) -> BeaconFrame? {
        var offset = 0
        while case .structure(let type, let value) = ADWalker.step(raw, at: offset) {
            offset = value.upperBound
            // Inside `raw`, which is then not empty.
            let bytes = UnsafeRawBufferPointer(start: raw.baseAddress.unsafelyUnwrapped + value.lowerBound, count: value.count)
            let frame: BeaconFrame?
            switch type {
            case .manufacturerSpecificData:
                frame = manufacturerFrame(bytes)
            case .serviceData16BitUUID:
                frame = eddystoneFrame(bytes)
            default:
                frame = nil
            }
            if let frame {
                return admits(frame) ? frame : nil
            }
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

    /// Service data as an Eddystone frame; nil also for a malformed one, which the search skips
    /// (`decode` names its fault). Out of line: inlined, the Eddystone decoder would keep the search
    /// from being inlined into the scan, for advertisements that are mostly not Eddystone.
    @inline(never)
    private static func eddystoneFrame(_ value: UnsafeRawBufferPointer) -> BeaconFrame? {
        var r = ByteReader(value)
        do throws(DecodeError) {
            return try EddystoneFrame.decode(serviceData: &r).map(BeaconFrame.eddystone)
        } catch {
            return nil
        }
    }

    /// Manufacturer Specific Data as iBeacon, then AltBeacon.
    @inline(__always)
    private static func manufacturerFrame(_ value: UnsafeRawBufferPointer) -> BeaconFrame? {
        if let beacon = IBeacon(manufacturerData: value) { return .iBeacon(beacon) }
        if let beacon = AltBeacon(manufacturerData: value) { return .altBeacon(beacon) }
        return nil
    }
}
