/// The identity of a beacon of any rangeable format: what a region names and what a ranged entry
/// lists. Each case is a fixed-size value, so comparing and hashing never allocate.
public enum BeaconID: Hashable, Sendable, Comparable, CustomStringConvertible {
    case iBeacon(BeaconIdentity)
    case altBeacon(AltBeaconID)
    case eddystoneUID(EddystoneUID)

    public var format: BeaconFormat {
        switch self {
        case .iBeacon: .iBeacon
        case .altBeacon: .altBeacon
        case .eddystoneUID: .eddystoneUID
        }
    }

    /// The 16-byte identifier a person types as a UUID: the iBeacon proximity UUID or AltBeacon's ID1.
    public var uuid: BeaconUUID? {
        switch self {
        case .iBeacon(let identity): identity.uuid
        case .altBeacon(let id): id.id1
        case .eddystoneUID: nil
        }
    }

    /// `UUID:MAJOR:MINOR` for an iBeacon, `altbeacon:ID1:ID2:ID3`, `eddystone:NAMESPACE:INSTANCE`: the
    /// forms `--region` reads.
    public var description: String {
        switch self {
        case .iBeacon(let identity): identity.description
        case .altBeacon(let id): "altbeacon:\(id)"
        case .eddystoneUID(let uid): "eddystone:\(uid)"
        }
    }

    public static func < (a: BeaconID, b: BeaconID) -> Bool {
        switch (a, b) {
        case let (.iBeacon(x), .iBeacon(y)): x < y
        case let (.altBeacon(x), .altBeacon(y)): x < y
        case let (.eddystoneUID(x), .eddystoneUID(y)): x < y
        default: a.format < b.format
        }
    }
}
