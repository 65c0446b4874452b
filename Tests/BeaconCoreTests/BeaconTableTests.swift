@testable import BeaconCore
import Testing

@Suite("the beacon table and its keyed hash")
struct BeaconTableTests {
    /// Little-endian words of the bytes `first`, `first + 1`, … `first + 7`.
    static func word(from first: UInt64) -> UInt64 {
        (0..<8).reduce(0) { $0 | (first + UInt64($1)) << (8 * UInt64($1)) }
    }

    @Test("SipHash-2-4 of the reference's 32-byte message 00…1F under key 00…0F is its published value")
    func referenceVector() {
        let key = SipHash(k0: Self.word(from: 0), k1: Self.word(from: 8))
        let hash = key.hash(Self.word(from: 0), Self.word(from: 8), Self.word(from: 16), Self.word(from: 24))
        #expect(hash == 0x7127_512f_72f2_7cce)
    }

    @Test("two tables hash the same key differently: each draws its own key")
    func keysAreDrawnPerTable() {
        let (a, b) = (SipHash.randomKey(), SipHash.randomKey())
        #expect(a.k0 != b.k0 || a.k1 != b.k1)
    }

    static func key(_ minor: Int, address: UInt64 = 0xC0_0000_0000_00) -> BeaconKey {
        BeaconKey(identity: .iBeacon(BeaconIdentity(uuid: Fixture.uuid, major: 0, minor: UInt16(minor))),
                  address: DeviceAddress(value: address))
    }

    @Test("a key found again gets its entry; a new key (another minor or another address) gets a new one")
    func lookupAndInsert() {
        var table = BeaconTable<Int>()
        #expect(table.index(of: Self.key(1)) { 10 } == 0)
        #expect(table.index(of: Self.key(2)) { 20 } == 1)
        #expect(table.index(of: Self.key(1, address: 0xC0_0000_0000_01)) { 30 } == 2)
        #expect(table.index(of: Self.key(1)) { Issue.record("a stored key was added again"); return 0 } == 0)
        #expect(table.values == [10, 20, 30])
        #expect(table.keys.map(\.identity) == [1, 2, 1].map { Self.key($0).identity })
    }

    @Test("thousands of entries, through every growth of the index, are each found at their own index")
    func growth() {
        var table = BeaconTable<Int>()
        for minor in 0..<5000 { _ = table.index(of: Self.key(minor)) { minor } }
        #expect(table.count == 5000)
        for minor in 0..<5000 {
            #expect(table.index(of: Self.key(minor)) { -1 } == minor)
        }
        #expect(table.count == 5000)
    }

    @Test("removal keeps the others in order and findable, shrinks a mostly empty table, and lets keys return")
    func removal() {
        var table = BeaconTable<Int>()
        for minor in 0..<4000 { _ = table.index(of: Self.key(minor)) { minor } }
        #expect(table.slotCount >= 2 * 4000)
        table.removeAll { _, value in value % 100 != 7 }
        #expect(table.values == Array(stride(from: 7, to: 4000, by: 100)))
        #expect((2 * table.count...8 * table.count).contains(table.slotCount))
        for (index, value) in table.values.enumerated() {
            #expect(table.index(of: Self.key(value)) { -1 } == index)
        }
        #expect(table.index(of: Self.key(8)) { 8 } == table.count - 1)
        table.removeAll { _, _ in true }
        #expect(table.count == 0)
        #expect(table.index(of: Self.key(7)) { 70 } == 0)
    }
}
