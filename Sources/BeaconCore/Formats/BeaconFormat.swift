/// The beacon formats beacon decodes, as their names appear in output lines and in `--format`.
public enum BeaconFormat: String, CaseIterable, Hashable, Sendable, Comparable {
    /// Apple's iBeacon: manufacturer data of company 0x004C, type 0x02.
    case iBeacon = "ibeacon"
    /// AltBeacon: manufacturer data of any company with the beacon code 0xBEAC.
    case altBeacon = "altbeacon"
    /// Eddystone-UID: service data 0xFEAA, frame type 0x00.
    case eddystoneUID = "eddystone-uid"
    /// Eddystone-URL: service data 0xFEAA, frame type 0x10.
    case eddystoneURL = "eddystone-url"
    /// Eddystone-TLM (plain or encrypted): service data 0xFEAA, frame type 0x20.
    case eddystoneTLM = "eddystone-tlm"
    /// Eddystone-EID: service data 0xFEAA, frame type 0x30.
    case eddystoneEID = "eddystone-eid"

    /// The formats `beacon advertise` sends.
    public static let advertisable: [BeaconFormat] = [.iBeacon, .altBeacon, .eddystoneUID, .eddystoneURL]

    /// Output order: the order of the cases.
    private var order: Int {
        switch self {
        case .iBeacon: 0
        case .altBeacon: 1
        case .eddystoneUID: 2
        case .eddystoneURL: 3
        case .eddystoneTLM: 4
        case .eddystoneEID: 5
        }
    }

    public static func < (a: BeaconFormat, b: BeaconFormat) -> Bool { a.order < b.order }
}
