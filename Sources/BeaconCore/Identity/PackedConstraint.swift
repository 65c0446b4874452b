/// A region's identity constraint as masked words over `PackedIdentity`: the first identifier
/// compared whole, the format and the optional identifiers under a mask that leaves out the absent
/// ones. Matching an advertisement is then three comparisons of integers.
struct PackedConstraint: Sendable {
    private let first: UInt64
    private let second: UInt64
    private let thirdMask: UInt64
    private let thirdValue: UInt64

    init(_ constraint: IdentityConstraint) {
        var mask = PackedIdentity.formatMask, value: UInt64 = 0
        /// The second and third identifiers of iBeacon and AltBeacon, each when given.
        func require(_ second: UInt16?, _ third: UInt16?) {
            if let second { mask |= PackedIdentity.secondIdentifierMask; value |= UInt64(second) << 16 }
            if let third { mask |= PackedIdentity.thirdIdentifierMask; value |= UInt64(third) }
        }
        switch constraint {
        case let .iBeacon(uuid, major, minor):
            (first, second, value) = (uuid.high, uuid.low, PackedIdentity.iBeaconFormat)
            require(major, minor)
        case let .altBeacon(id1, id2, id3):
            (first, second, value) = (id1.high, id1.low, PackedIdentity.altBeaconFormat)
            require(id2, id3)
        case let .eddystoneUID(namespace, instance):
            (first, second, value) = (UInt64(namespace.high), namespace.low, PackedIdentity.eddystoneUIDFormat)
            if let instance { mask |= PackedIdentity.instanceMask; value |= instance.value & PackedIdentity.instanceMask }
        }
        thirdMask = mask
        thirdValue = value
    }

    @inline(__always)
    func matches(_ identity: PackedIdentity) -> Bool {
        identity.first == first && identity.second == second && identity.third & thirdMask == thirdValue
    }
}
