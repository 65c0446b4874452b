/// One beacon: an identity heard at one address, as four words, so that the lookup on every sighting
/// hashes and compares plain integers.
struct IdentityAtAddress: Equatable, Sendable {
    let packedIdentity: PackedIdentity
    private let addressValue: UInt64

    @inline(__always)
    init(_ identity: PackedIdentity, address: DeviceAddress) {
        packedIdentity = identity
        addressValue = address.value
    }

    init(identity: BeaconID, address: DeviceAddress) {
        self.init(PackedIdentity(identity), address: address)
    }

    var identity: BeaconID { packedIdentity.identity }

    var address: DeviceAddress { DeviceAddress(value: addressValue) }

    /// The key's slot among 2^`bits` under `hash` (see `BeaconTable`).
    @inline(__always)
    func slot(_ hash: MultilinearHash, bits: Int) -> Int {
        hash.slot(packedIdentity.first, packedIdentity.second, packedIdentity.third, addressValue, bits: bits)
    }
}
