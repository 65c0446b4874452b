@testable import BeaconCore
import BeaconSimulation
import Testing

@Suite("the beacon table and its keyed hash")
struct BeaconTableTests {
    /// m₀…m₈ = 0x0123456789ABCDEF × 1…9 (mod 2⁶⁴).
    static let fixedKey = MultilinearHash(key: (0x0123_4567_89AB_CDEF, 0x0246_8ACF_1357_9BDE, 0x0369_D036_9D03_69CD,
                                                0x048D_159E_26AF_37BC, 0x05B0_5B05_B05B_05AB, 0x06D3_A06D_3A06_D39A,
                                                0x07F6_E5D4_C3B2_A189, 0x091A_2B3C_4D5E_6F78, 0x0A3D_70A3_D70A_3D67))

    @Test("the sum is m₀ + Σ mᵢ·sᵢ mod 2⁶⁴ over the words' low and high halves, and the slot the top bits of its mix (values worked out with big integers)")
    func knownAnswer() {
        let words: (UInt64, UInt64, UInt64, UInt64) = (0x0001_0203_0405_0607, 0x0809_0A0B_0C0D_0E0F,
                                                       0x1011_1213_1415_1617, 0x1819_1A1B_1C1D_1E1F)
        #expect(Self.fixedKey.sum(words.0, words.1, words.2, words.3) == 0xB2A1_907C_3456_F22B)
        // Mixed: 0xE534B3C66AF0E06D.
        #expect(Self.fixedKey.slot(words.0, words.1, words.2, words.3, bits: 10) == 916)
    }

    @Test("a seed gives the key its generator's first nine draws, the same every time")
    func seededKey() {
        var generator = SplitMix64(seed: 5)
        let draws = (0..<9).map { _ in generator.next() }
        let key = MultilinearHash(seed: 5).key
        #expect([key.0, key.1, key.2, key.3, key.4, key.5, key.6, key.7, key.8] == draws)
    }

    @Test("beacons that differ only in their minor or only in their address spread over the slots as at random")
    func structuredKeysSpread() {
        // Keys drawn as a table draws them, from a seeded generator so that the run repeats exactly.
        var generator = SplitMix64(seed: 13)
        for _ in 0..<20 {
            let hash = MultilinearHash.randomKey(using: &generator)
            for keys in [(0..<4096).map { Self.key($0) }, (0..<4096).map { Self.key(1, address: 0xC0_0000_0000_00 + UInt64($0)) }] {
                // 4,096 keys into 2^13 slots: a fair spread leaves about 61 % of them in slots of their own and
                // puts at most a handful in any slot.
                var load = [Int](repeating: 0, count: 1 << 13)
                for key in keys { load[key.slot(hash, bits: 13)] += 1 }
                #expect(load.max()! <= 7)
                #expect(load.filter { $0 == 1 }.count > 2200)
            }
        }
    }

    static func key(_ minor: Int, address: UInt64 = 0xC0_0000_0000_00) -> IdentityAtAddress {
        IdentityAtAddress(identity: .iBeacon(IBeaconID(uuid: Fixture.uuid, major: 0, minor: UInt16(minor))),
                  address: DeviceAddress(value: address))
    }

    @Test("a key found again gets its entry; a new key (another minor or another address) gets a new one")
    func lookupAndInsert() {
        var table = BeaconTable<Int>(hash: Self.fixedKey)
        #expect(table.index(of: Self.key(1)) { 10 } == 0)
        #expect(table.index(of: Self.key(2)) { 20 } == 1)
        #expect(table.index(of: Self.key(1, address: 0xC0_0000_0000_01)) { 30 } == 2)
        #expect(table.index(of: Self.key(1)) { Issue.record("a stored key was added again"); return 0 } == 0)
        #expect(table.values == [10, 20, 30])
        #expect(table.keys.map(\.identity) == [1, 2, 1].map { Self.key($0).identity })
    }

    @Test("thousands of entries, through every growth of the index, are each found at their own index")
    func growth() {
        var table = BeaconTable<Int>(hash: Self.fixedKey)
        for minor in 0..<5000 { _ = table.index(of: Self.key(minor)) { minor } }
        #expect(table.count == 5000)
        for minor in 0..<5000 {
            #expect(table.index(of: Self.key(minor)) { -1 } == minor)
        }
        #expect(table.count == 5000)
    }

    @Test("removal keeps the others in order and findable, shrinks a mostly empty table, and lets keys return")
    func removal() {
        var table = BeaconTable<Int>(hash: Self.fixedKey)
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

    @Test("removing the least recent entries: the earliest times go (of equal times the earlier added), the rest stay findable in order")
    func removeLeastRecent() {
        var table = BeaconTable<Int>(hash: Self.fixedKey)
        let times = [5, 1, 9, 1, 7, 3]
        for (n, time) in times.enumerated() { _ = table.index(of: Self.key(n)) { time } }
        table.removeLeastRecent(3) { Timestamp(microseconds: Int64($0)) }
        #expect(table.values == [5, 9, 7])
        #expect(table.keys == [Self.key(0), Self.key(2), Self.key(4)])
        #expect(table.index(of: Self.key(4)) { -1 } == 2)
        #expect(table.count == 3)
    }
}
