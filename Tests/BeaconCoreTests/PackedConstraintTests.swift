@testable import BeaconCore
import Testing

@Suite("regions matched on packed identities")
struct PackedConstraintTests {
    static let values: [UInt16?] = [nil, 0, 1, 0xFFFF]
    static let namespace = EddystoneNamespace(high: 0xE2C5, low: 0x6DB5_DFFB_48D2_B060)

    /// Every constraint shape of every format: the first identifier alone, with 0, 1 or the largest value
    /// for each optional one (a minor or ID3 only within a major or ID2), and the other UUID.
    static var constraints: [IdentityConstraint] {
        var constraints: [IdentityConstraint] = []
        for uuid in [Fixture.uuid, Fixture.otherUUID] {
            for second in values {
                for third in values where second != nil || third == nil {
                    constraints.append(.iBeacon(uuid: uuid, major: second, minor: third))
                    constraints.append(.altBeacon(id1: uuid, id2: second, id3: third))
                }
            }
        }
        for instance in [nil, 0, 1, 0xFFFF_FFFF_FFFF] as [UInt64?] {
            constraints.append(.eddystoneUID(namespace: namespace, instance: instance.map(EddystoneInstance.init(value:))))
            constraints.append(.eddystoneUID(namespace: EddystoneNamespace(high: 0, low: namespace.low),
                                             instance: instance.map(EddystoneInstance.init(value:))))
        }
        return constraints
    }

    /// Identities of every format that agree with the constraints in some identifiers and not others,
    /// including ones whose identifiers as words equal another format's.
    static var identities: [BeaconID] {
        var identities: [BeaconID] = []
        for uuid in [Fixture.uuid, Fixture.otherUUID] {
            for second in values.compactMap({ $0 }) {
                for third in values.compactMap({ $0 }) {
                    identities.append(.iBeacon(IBeaconID(uuid: uuid, major: second, minor: third)))
                    identities.append(.altBeacon(AltBeaconID(id1: uuid, id2: second, id3: third)))
                }
            }
        }
        for instance in [0, 1, 0x1_0000, 0xFFFF_FFFF_FFFF] as [UInt64] {
            identities.append(.eddystoneUID(EddystoneUID(namespace: namespace, instance: EddystoneInstance(value: instance))))
        }
        return identities
    }

    /// Whether `constraint` admits `identity`, spelled out field by field: same format, the first
    /// identifier equal, each optional one absent or equal.
    static func matchesFieldByField(_ constraint: IdentityConstraint, _ identity: BeaconID) -> Bool {
        switch (constraint, identity) {
        case let (.iBeacon(uuid, major, minor), .iBeacon(id)):
            id.uuid == uuid && (major.map { $0 == id.major } ?? true) && (minor.map { $0 == id.minor } ?? true)
        case let (.altBeacon(id1, id2, id3), .altBeacon(id)):
            id.id1 == id1 && (id2.map { $0 == id.id2 } ?? true) && (id3.map { $0 == id.id3 } ?? true)
        case let (.eddystoneUID(namespace, instance), .eddystoneUID(uid)):
            uid.namespace == namespace && (instance.map { $0 == uid.instance } ?? true)
        default:
            false
        }
    }

    @Test("a pattern and its region match exactly the identities the constraint admits field by field, for every format and constraint shape")
    func patternAgreesWithRegion() {
        for constraint in Self.constraints {
            let region = BeaconRegion(constraint), pattern = PackedConstraint(constraint)
            for identity in Self.identities {
                let expected = Self.matchesFieldByField(constraint, identity)
                #expect(pattern.matches(PackedIdentity(identity)) == expected, "\(region) against \(identity)")
                #expect(region.matches(identity) == expected, "\(region) against \(identity)")
            }
        }
    }

    @Test("0 is a real value: a region of major 0 matches major 0 only, and one without a major matches any")
    func zeroIsNotAWildcard() {
        let zero = PackedConstraint(.iBeacon(uuid: Fixture.uuid, major: 0, minor: nil))
        let any = PackedConstraint(.iBeacon(uuid: Fixture.uuid, major: nil, minor: nil))
        let majorZero = PackedIdentity(.iBeacon(IBeaconID(uuid: Fixture.uuid, major: 0, minor: 7)))
        let majorOne = PackedIdentity(.iBeacon(IBeaconID(uuid: Fixture.uuid, major: 1, minor: 7)))
        #expect(zero.matches(majorZero) && !zero.matches(majorOne))
        #expect(any.matches(majorZero) && any.matches(majorOne))
    }

    @Test("an identity packed and unpacked is the same identity")
    func packingRoundTrips() {
        for identity in Self.identities {
            #expect(PackedIdentity(identity).identity == identity)
        }
    }

    @Test("a frame packs as its identity does; Eddystone URL, TLM and EID frames have none")
    func framesPackAsTheirIdentities() throws {
        let uid = EddystoneUID(namespace: Self.namespace, instance: EddystoneInstance(value: 42))
        let frames: [BeaconFrame] = [
            .iBeacon(IBeacon(identity: IBeaconID(uuid: Fixture.uuid, major: 3, minor: 4), measuredPower: -59)),
            .altBeacon(AltBeacon(identity: AltBeaconID(id1: Fixture.uuid, id2: 3, id3: 4), companyID: 0x0118,
                                 referenceRSSI: -60, reserved: 0)),
            .eddystone(.uid(txPower: -20, uid)),
        ]
        for frame in frames {
            #expect(PackedIdentity(frame) == frame.identity.map(PackedIdentity.init))
        }
        let withoutIdentity: [EddystoneFrame] = [
            .url(txPower: -20, try EddystoneURL("https://www.example.com/")),
            .eid(txPower: -20, 0x0102_0304_0506_0708),
            .encryptedTLM(EncryptedTLM(high: 1, low: 2)),
            .tlm(EddystoneTLM(batteryMillivolts: 3000, temperatureRaw: 0x1800, advertisementCount: 1, uptimeTenths: 1)),
        ]
        for frame in withoutIdentity {
            #expect(PackedIdentity(.eddystone(frame)) == nil)
        }
    }
}
