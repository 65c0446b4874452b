/// The first identifiers a set of regions names (iBeacon UUIDs, AltBeacon ID1s, Eddystone namespaces),
/// as packed constraints: a frame whose first identifier is none of them can match no region, and is
/// dropped where it is found in an advertisement, before a sighting is made of it. The regions' other
/// identifiers are left to `BeaconRegion.matches`.
public struct RegionFilter: Sendable {
    private var firstIdentifiers: [PackedConstraint] = []
    private var hasEddystone = false

    public init(_ regions: [BeaconRegion]) {
        for region in regions {
            firstIdentifiers.append(PackedConstraint(firstIdentifierOf: region.constraint))
            if region.format == .eddystoneUID { hasEddystone = true }
        }
    }

    /// Whether `frame` may match a region. Eddystone-TLM frames pass when a region is an Eddystone one
    /// (their telemetry rides along the UID frames); other frames without an identity never match.
    @inline(__always)
    func admits(_ frame: BeaconFrame) -> Bool {
        guard let identity = PackedIdentity(frame) else {
            if case .eddystone(.tlm) = frame { return hasEddystone }
            return false
        }
        return firstIdentifiers.contains { $0.matches(identity) }
    }
}
