/// A beacon identity packed into three words, the format in the third word's top byte: what the
/// per-advertisement path compares, hashes and matches regions against, as plain integers.
///
/// - iBeacon: UUID, UUID, 0 << 56 | major << 16 | minor
/// - AltBeacon: ID1, ID1, 1 << 56 | ID2 << 16 | ID3
/// - Eddystone-UID: namespace's first 2 bytes, its last 8, 2 << 56 | instance (48 bits)
struct PackedIdentity: Equatable, Comparable, Sendable {
    let first: UInt64
    let second: UInt64
    let third: UInt64

    static let iBeaconFormat: UInt64 = 0 << 56
    static let altBeaconFormat: UInt64 = 1 << 56
    static let eddystoneUIDFormat: UInt64 = 2 << 56
    /// The bits of `third` that hold the format.
    static let formatMask: UInt64 = 0xFF << 56
    /// The bits of `third` that hold the second and third identifiers (major, minor; ID2, ID3).
    static let secondIdentifierMask: UInt64 = 0xFFFF << 16
    static let thirdIdentifierMask: UInt64 = 0xFFFF
    /// The bits of `third` that hold an Eddystone instance.
    static let instanceMask: UInt64 = 0xFFFF_FFFF_FFFF

    init(_ identity: BeaconID) {
        switch identity {
        case .iBeacon(let id): self.init(iBeacon: id)
        case .altBeacon(let id): self.init(altBeacon: id)
        case .eddystoneUID(let uid): self.init(eddystoneUID: uid)
        }
    }

    /// The identity `frame` carries; nil for Eddystone URL, TLM and EID frames, which have none. Read
    /// straight from the frame, on every advertisement.
    @inline(__always)
    init?(_ frame: BeaconFrame) {
        switch frame {
        case .iBeacon(let beacon): self.init(iBeacon: beacon.identity)
        case .altBeacon(let beacon): self.init(altBeacon: beacon.identity)
        case .eddystone(.uid(_, let uid)): self.init(eddystoneUID: uid)
        case .eddystone: return nil
        }
    }

    @inline(__always)
    private init(iBeacon id: IBeaconID) {
        (first, second) = (id.uuid.high, id.uuid.low)
        third = Self.iBeaconFormat | UInt64(id.major) << 16 | UInt64(id.minor)
    }

    @inline(__always)
    private init(altBeacon id: AltBeaconID) {
        (first, second) = (id.id1.high, id.id1.low)
        third = Self.altBeaconFormat | UInt64(id.id2) << 16 | UInt64(id.id3)
    }

    @inline(__always)
    private init(eddystoneUID uid: EddystoneUID) {
        (first, second) = (UInt64(uid.namespace.high), uid.namespace.low)
        third = Self.eddystoneUIDFormat | uid.instance.value & Self.instanceMask
    }

    /// The format, then the identifiers most significant first: the words compared left to right
    /// (an Eddystone namespace's first two bytes are the whole of `first`, so its bytes compare in order).
    static func < (a: PackedIdentity, b: PackedIdentity) -> Bool {
        (a.third >> 56, a.first, a.second, a.third) < (b.third >> 56, b.first, b.second, b.third)
    }

    var identity: BeaconID {
        let low16 = UInt16(truncatingIfNeeded: third), next16 = UInt16(truncatingIfNeeded: third >> 16)
        switch third & Self.formatMask {
        case Self.iBeaconFormat:
            return .iBeacon(IBeaconID(uuid: BeaconUUID(high: first, low: second), major: next16, minor: low16))
        case Self.altBeaconFormat:
            return .altBeacon(AltBeaconID(id1: BeaconUUID(high: first, low: second), id2: next16, id3: low16))
        default:
            return .eddystoneUID(EddystoneUID(namespace: EddystoneNamespace(high: UInt16(truncatingIfNeeded: first), low: second),
                                              instance: EddystoneInstance(value: third & Self.instanceMask)))
        }
    }
}
