/// One beacon: an identity heard at one address, packed into four words (the format in the third
/// word's top byte), so that the lookup on every sighting hashes and compares plain integers.
struct BeaconKey: Equatable, Sendable {
    private let first: UInt64
    private let second: UInt64
    private let third: UInt64
    private let addressValue: UInt64

    init(identity: BeaconID, address: DeviceAddress) {
        switch identity {
        case .iBeacon(let id):
            (first, second) = (id.uuid.high, id.uuid.low)
            third = UInt64(id.major) << 16 | UInt64(id.minor)
        case .altBeacon(let id):
            (first, second) = (id.id1.high, id.id1.low)
            third = 1 << 56 | UInt64(id.id2) << 16 | UInt64(id.id3)
        case .eddystoneUID(let uid):
            (first, second) = (UInt64(uid.namespace.high), uid.namespace.low)
            third = 2 << 56 | uid.instance.value
        }
        addressValue = address.value
    }

    var identity: BeaconID {
        let low16 = UInt16(truncatingIfNeeded: third), next16 = UInt16(truncatingIfNeeded: third >> 16)
        switch third >> 56 {
        case 0:
            return .iBeacon(BeaconIdentity(uuid: BeaconUUID(high: first, low: second), major: next16, minor: low16))
        case 1:
            return .altBeacon(AltBeaconID(id1: BeaconUUID(high: first, low: second), id2: next16, id3: low16))
        default:
            return .eddystoneUID(EddystoneUID(namespace: EddystoneNamespace(high: UInt16(truncatingIfNeeded: first), low: second),
                                              instance: EddystoneInstance(value: third & 0xFFFF_FFFF_FFFF)))
        }
    }

    var address: DeviceAddress { DeviceAddress(value: addressValue) }

    /// The key's slot among 2^`bits` under `hash` (see `BeaconTable`).
    @inline(__always)
    func slot(_ hash: MultilinearHash, bits: Int) -> Int {
        hash.slot(first, second, third, addressValue, bits: bits)
    }
}
