/// Bytes read from a stream or file and not yet consumed, in one buffer that reads fill in place and
/// that a long stream reuses instead of growing: what the btsnoop reader and the H4 framer parse.
/// Packets and records are views into it (`unconsumedBytes`: no copy, no reference counting), valid
/// until the next fill.
///
/// The bytes live in memory of the buffer's own, not in an array, so that a view of them is a plain
/// pointer that stays valid after the call that made it. Copies of a buffer share that memory until
/// one of them is filled, which then gets memory of its own (copy on write).
public struct ReadBuffer {
    private final class Storage {
        let bytes: UnsafeMutableRawBufferPointer

        init(capacity: Int) {
            bytes = .allocate(byteCount: capacity, alignment: 16)
        }

        deinit { bytes.deallocate() }
    }

    /// `storage.bytes[start..<end]` is unconsumed; past `end` is room for the next read. Nil until the first fill.
    private var storage: Storage?
    private var start = 0
    private var end = 0
    /// Stream offset of the storage's first byte.
    private var storageOffset = 0

    public init() {}

    /// Stream offset of the first unconsumed byte.
    public var offset: Int { storageOffset + start }
    /// Bytes filled but not yet consumed.
    // Wrapping arithmetic on the positions: 0 <= start <= end always holds (every record of a replay
    // moves them, and the overflow checks would cost instructions each time).
    public var count: Int { end &- start }
    /// Bytes the buffer holds room for, consumed or not: bounded by the largest read and twice what it kept.
    public var capacity: Int { storage?.bytes.count ?? 0 }

    /// The unconsumed bytes in place, valid until the next fill.
    public var unconsumedBytes: UnsafeRawBufferPointer {
        guard let storage else { return UnsafeRawBufferPointer(start: nil, count: 0) }
        return UnsafeRawBufferPointer(rebasing: storage.bytes[start..<end])
    }

    /// A copy of the unconsumed bytes, for the rare reads that want an array (headers, errors, tests).
    public var unconsumed: ArraySlice<UInt8> { ArraySlice(unconsumedBytes) }

    /// Marks the first `count` unconsumed bytes as consumed.
    public mutating func consume(_ count: Int) {
        precondition(count >= 0 && count <= end &- start, "consumed more than was filled")
        start &+= count
    }

    public mutating func append<C: Collection>(_ bytes: C) where C.Element == UInt8 {
        _ = fill(upTo: bytes.count) { room in
            _ = room.initialize(from: bytes)
            return bytes.count
        }
    }

    /// Lets `read` write up to `count` bytes straight into the free room (a read(2) with no copy after
    /// it) and keeps the bytes it says it wrote; returns what `read` returned (negative: nothing kept).
    public mutating func fill(upTo count: Int, _ read: (UnsafeMutableBufferPointer<UInt8>) -> Int) -> Int {
        let room = makeRoom(count)
        let written = read(room)
        if written > 0 { end += min(written, count) }
        return written
    }

    /// `count` bytes of room after the unconsumed ones, in memory no other copy of the buffer shares.
    private mutating func makeRoom(_ count: Int) -> UnsafeMutableBufferPointer<UInt8> {
        let pending = end - start
        if isKnownUniquelyReferenced(&storage), let bytes = storage?.bytes {
            compactIfWorthwhile(bytes)
            if bytes.count - end < count {
                // Too small: the unconsumed bytes move to the front of larger memory, at least twice
                // their size, so bytes kept packet by packet (a backlog) are copied a bounded number of
                // times in all, while a stream read in blocks needs only a block's room beyond them.
                replaceStorage(capacity: max(bytes.count, pending + count, 2 * pending))
            }
        } else {
            replaceStorage(capacity: pending + count)
        }
        let bytes = storage!.bytes
        return UnsafeMutableRawBufferPointer(rebasing: bytes[end..<end + count]).bindMemory(to: UInt8.self)
    }

    /// New memory of `capacity` bytes that starts with the unconsumed bytes.
    private mutating func replaceStorage(capacity: Int) {
        let replacement = Storage(capacity: capacity)
        let pending = unconsumedBytes
        if let from = pending.baseAddress, let to = replacement.bytes.baseAddress {
            to.copyMemory(from: from, byteCount: pending.count)
        }
        storageOffset += start
        (start, end) = (0, pending.count)
        storage = replacement
    }

    /// Moves the unconsumed bytes (a partial packet or record) to the front once the consumed ones
    /// dominate, so the room for the next read comes from the same memory.
    private mutating func compactIfWorthwhile(_ bytes: UnsafeMutableRawBufferPointer) {
        guard start > 0 else { return }
        if start == end {
            storageOffset += start
            (start, end) = (0, 0)
        } else if start >= 32 * 1024, start * 2 >= end, let base = bytes.baseAddress {
            storageOffset += start
            let pending = end - start
            // The regions do not overlap: what is kept is no longer than what is dropped.
            base.copyMemory(from: base + start, byteCount: pending)
            (start, end) = (0, pending)
        }
    }
}
