/// The first identifiers a set of regions names (iBeacon UUIDs, AltBeacon ID1s, Eddystone namespaces),
/// kept as plain words: a frame whose first identifier is none of them can match no region, and is
/// dropped where it is found in an advertisement, before a sighting is made of it. The regions' other
/// identifiers are left to `BeaconRegion.matches`.
public struct RegionFilter: Sendable {
    private var uuids: [BeaconUUID] = []
    private var altBeaconIDs: [BeaconUUID] = []
    private var namespaces: [EddystoneNamespace] = []

    public init(_ regions: [BeaconRegion]) {
        for region in regions {
            switch region.constraint {
            case .iBeacon(let uuid, _, _): uuids.append(uuid)
            case .altBeacon(let id1, _, _): altBeaconIDs.append(id1)
            case .eddystoneUID(let namespace, _): namespaces.append(namespace)
            }
        }
    }

    /// Whether `frame` may match a region. Eddystone-TLM frames pass when a region is an Eddystone one
    /// (their telemetry rides along the UID frames); other frames without an identity never match.
    // By format, not through `PackedConstraint`: packing every frame and walking an array of patterns cost
    // 1 % more instructions per report on the scan path (`make bench`, 1,000 beacons in the region).
    @inline(__always)
    func admits(_ frame: BeaconFrame) -> Bool {
        switch frame {
        case .iBeacon(let beacon): uuids.contains(beacon.identity.uuid)
        case .altBeacon(let beacon): altBeaconIDs.contains(beacon.identity.id1)
        case .eddystone(.uid(_, let uid)): namespaces.contains(uid.namespace)
        case .eddystone(.tlm): !namespaces.isEmpty
        case .eddystone: false
        }
    }
}
