/// The beacons a monitor tracks, by identity and address: entries in two dense arrays (in the order
/// they were added) and an open-addressed index over them, probed linearly from each key's slot under a
/// universal hash keyed for this table. A lookup hashes four words and compares a few; the random key
/// keeps advertisements crafted to collide from turning lookups into long searches.
struct BeaconTable<Value> {
    private(set) var keys: [IdentityAtAddress] = []
    /// The entries' values, by the same index as `keys`.
    var values: [Value] = []
    /// Entry index + 1 per slot, 0 for an empty slot; 2^`slotBits` of them, at most half full.
    private var slots: [UInt32]
    private var slotBits: Int
    private let hash: MultilinearHash

    /// Slots of an empty table: 2^7.
    private static var minimumSlotBits: Int { 7 }

    /// An empty table whose index is hashed under `hash`.
    init(hash: MultilinearHash) {
        self.hash = hash
        slotBits = Self.minimumSlotBits
        slots = [UInt32](repeating: 0, count: 1 << slotBits)
    }

    var count: Int { keys.count }

    /// Slots in the index: what it holds in memory, besides the entries.
    var slotCount: Int { slots.count }

    /// The index of `key`'s entry, added with `make()` when there is none. The search is inlined into
    /// the caller, which runs it on every sighting; adding is not.
    @inline(__always)
    mutating func index(of key: IdentityAtAddress, addingIfAbsent make: () -> Value) -> Int {
        let mask = slots.count - 1
        var slot = key.slot(hash, bits: slotBits)
        while true {
            let stored = Int(slots[slot])
            if stored == 0 { break }
            if keys[stored - 1] == key { return stored - 1 }
            slot = (slot + 1) & mask
        }
        return add(key, make(), emptySlot: slot)
    }

    /// Adds `key`'s entry, whose search ended at the empty `emptySlot`; returns its index.
    @inline(never)
    private mutating func add(_ key: IdentityAtAddress, _ value: Value, emptySlot slot: Int) -> Int {
        // Entry indexes are stored in 32 bits: four billion beacons would not fit in memory anyway.
        precondition(keys.count < Int(UInt32.max), "BeaconTable: too many entries")
        keys.append(key)
        values.append(value)
        if keys.count * 2 > slots.count {
            reindex(slotBits: slotBits + 1)
        } else {
            slots[slot] = UInt32(keys.count)
        }
        return keys.count - 1
    }

    /// Removes the entries `isRemoved` picks, keeping the others in order. A table less than an eighth
    /// full is shrunk, so that one burst of beacons does not pin memory for the rest of the run.
    mutating func removeAll(where isRemoved: (IdentityAtAddress, Value) -> Bool) {
        removeEntries(keys.indices.map { isRemoved(keys[$0], values[$0]) })
    }

    /// Removes the `count` entries heard least recently by `lastSeen` (of equal times, the earlier added).
    mutating func removeLeastRecent(_ count: Int, lastSeen: (Value) -> Timestamp) {
        let times = values.map(lastSeen)
        let oldest = values.indices.sorted { times[$0] < times[$1] || (times[$0] == times[$1] && $0 < $1) }
        var removed = [Bool](repeating: false, count: values.count)
        for i in oldest.prefix(count) { removed[i] = true }
        removeEntries(removed)
    }

    /// Removes the entries whose flag in `removed` is set, keeping the others in order; see `removeAll(where:)`.
    private mutating func removeEntries(_ removed: [Bool]) {
        var kept = 0
        for i in keys.indices where !removed[i] {
            if kept != i {
                keys.swapAt(kept, i)
                values.swapAt(kept, i)
            }
            kept += 1
        }
        guard kept < keys.count else { return }
        keys.removeSubrange(kept...)
        values.removeSubrange(kept...)
        var bits = slotBits
        while bits > Self.minimumSlotBits, keys.count * 8 < 1 << bits { bits -= 1 }
        if bits < slotBits {
            // The entries' storage shrinks with the index: copied into arrays of their size.
            keys = Self.copy(keys)
            values = Self.copy(values)
        }
        reindex(slotBits: bits)
    }

    private static func copy<Element>(_ elements: [Element]) -> [Element] {
        var copy: [Element] = []
        copy.reserveCapacity(elements.count)
        copy.append(contentsOf: elements)
        return copy
    }

    /// Rebuilds the index over the entries with 2^`slotBits` slots.
    private mutating func reindex(slotBits: Int) {
        self.slotBits = slotBits
        slots = [UInt32](repeating: 0, count: 1 << slotBits)
        let mask = slots.count - 1
        for (i, key) in keys.enumerated() {
            var slot = key.slot(hash, bits: slotBits)
            while slots[slot] != 0 { slot = (slot + 1) & mask }
            slots[slot] = UInt32(i + 1)
        }
    }
}

extension BeaconTable: Sendable where Value: Sendable {}
