import BeaconSimulation
import Testing
@testable import BeaconCore

/// The order ranged entries with equal distances are listed in, worked out from plain integers.
@Suite("beacon identity order")
struct BeaconIDOrderTests {
    /// The order spelled out: format, then each field in turn as a number.
    static func fields(_ id: BeaconID) -> [UInt64] {
        switch id {
        case .iBeacon(let i): [0, i.uuid.high, i.uuid.low, UInt64(i.major), UInt64(i.minor)]
        case .altBeacon(let a): [1, a.id1.high, a.id1.low, UInt64(a.id2), UInt64(a.id3)]
        case .eddystoneUID(let e): [2, UInt64(e.namespace.high), e.namespace.low, e.instance.value, 0]
        }
    }

    /// Identities whose fields take few values, so most pairs tie on every field but one.
    static func identities(count: Int) -> [BeaconID] {
        var generator = SplitMix64(seed: 21)
        func pick(_ values: [UInt64]) -> UInt64 { values[Int(generator.next() % UInt64(values.count))] }
        let words: [UInt64] = [0, 1, 0x8000_0000_0000_0000, .max]
        return (0..<count).map { _ in
            let uuid = BeaconUUID(high: pick(words), low: pick(words))
            let (a, b) = (UInt16(pick([0, 1, 0xFFFF])), UInt16(pick([0, 1, 0xFFFF])))
            switch generator.next() % 3 {
            case 0: return .iBeacon(IBeaconID(uuid: uuid, major: a, minor: b))
            case 1: return .altBeacon(AltBeaconID(id1: uuid, id2: a, id3: b))
            default:
                return .eddystoneUID(EddystoneUID(namespace: EddystoneNamespace(high: a, low: pick(words)),
                                                  instance: EddystoneInstance(value: pick([0, 1, 0xFFFF_FFFF_FFFF]))))
            }
        }
    }

    @Test("identities order by format, then field by field, exactly as their fields compare")
    func orderMatchesFields() {
        let ids = Self.identities(count: 300)
        for a in ids {
            for b in ids {
                #expect((a < b) == Self.fields(a).lexicographicallyPrecedes(Self.fields(b)), "\(a) < \(b)")
            }
        }
    }
}
