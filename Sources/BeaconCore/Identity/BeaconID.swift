/// The identity of a beacon of any rangeable format: what a region names and what a ranged entry
/// lists. Each case is a fixed-size value, so comparing and hashing never allocate.
public enum BeaconID: Hashable, Sendable, Comparable, CustomStringConvertible {
    case iBeacon(IBeaconID)
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
    /// Home Assistant mqtt_room's id of the beacon, in lower case: `uuid-major-minor` for an iBeacon,
    /// `altbeacon-id1-id2-id3`, `eddystone-namespace-instance`.
    public var deviceID: String {
        switch self {
        case .iBeacon(let id): "\(id.uuid.description.lowercased())-\(id.major)-\(id.minor)"
        case .altBeacon(let id): "altbeacon-\(id.id1.description.lowercased())-\(id.id2)-\(id.id3)"
        case .eddystoneUID(let uid): "eddystone-\(uid.namespace.description.lowercased())-\(uid.instance.description.lowercased())"
        }
    }

    public var description: String {
        switch self {
        case .iBeacon(let identity): identity.description
        case .altBeacon(let id): "altbeacon:\(id)"
        case .eddystoneUID(let uid): "eddystone:\(uid)"
        }
    }

    /// iBeacons first, then AltBeacons, then Eddystone-UIDs (the formats' order); within a format by
    /// its fields in order: the order of the packed words (ranging sorts thousands of entries by it
    /// every second).
    public static func < (a: BeaconID, b: BeaconID) -> Bool {
        PackedIdentity(a) < PackedIdentity(b)
    }
}
