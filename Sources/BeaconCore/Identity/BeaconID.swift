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

    /// The order `<` sorts in, as integers compared left to right: the format, then the identity's
    /// fields, most significant first (an Eddystone namespace and instance packed into two words).
    /// Ranging sorts thousands of entries by it every second.
    var orderKey: (UInt8, UInt64, UInt64, UInt64) {
        switch self {
        case .iBeacon(let identity):
            (0, identity.uuid.high, identity.uuid.low, UInt64(identity.major) << 16 | UInt64(identity.minor))
        case .altBeacon(let id):
            (1, id.id1.high, id.id1.low, UInt64(id.id2) << 16 | UInt64(id.id3))
        case .eddystoneUID(let uid):
            (2, UInt64(uid.namespace.high) << 48 | uid.namespace.low >> 16,
             uid.namespace.low << 48 | uid.instance.value & 0xFFFF_FFFF_FFFF, 0)
        }
    }

    /// iBeacons first, then AltBeacons, then Eddystone-UIDs (the formats' order); within a format by
    /// its fields in order.
    public static func < (a: BeaconID, b: BeaconID) -> Bool {
        a.orderKey < b.orderKey
    }
}
