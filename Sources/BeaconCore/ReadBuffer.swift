/// Bytes read from a stream or file and not yet consumed, in one buffer that reads fill in place and
/// that a long stream reuses instead of growing: what the btsnoop reader and the H4 framer parse.
/// Packets and records are views into it (no copy), valid until the next fill.
public struct ReadBuffer {
    /// `storage[start..<end]` is unconsumed; past `end` is room for the next read.
    private var storage: [UInt8] = []
    private var start = 0
    private var end = 0
    /// Stream offset of `storage[0]`.
    private var storageOffset = 0

    public init() {}

    /// Stream offset of the first unconsumed byte.
    public var offset: Int { storageOffset + start }
    /// Bytes filled but not yet consumed.
    public var count: Int { end - start }
    /// The unconsumed bytes, as a view whose indices are those of the storage.
    public var unconsumed: ArraySlice<UInt8> { storage[start..<end] }

    /// Marks the first `count` unconsumed bytes as consumed.
    public mutating func consume(_ count: Int) {
        precondition(count >= 0 && count <= end - start, "consumed more than was filled")
        start += count
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
        compactIfWorthwhile()
        if storage.count - end < count {
            storage.append(contentsOf: repeatElement(0, count: count - (storage.count - end)))
        }
        let from = end
        let written = storage.withUnsafeMutableBufferPointer { read(UnsafeMutableBufferPointer(rebasing: $0[from..<from + count])) }
        if written > 0 { end += min(written, count) }
        return written
    }

    /// Moves the unconsumed bytes (a partial packet or record) to the front once the consumed ones
    /// dominate, so the room for the next read comes from the same storage.
    private mutating func compactIfWorthwhile() {
        guard start > 0 else { return }
        if start == end {
            storageOffset += start
            (start, end) = (0, 0)
        } else if start >= 32 * 1024, start * 2 >= end {
            storageOffset += start
            let (from, pending) = (start, end - start)
            // The regions do not overlap: what is kept is no longer than what is dropped.
            storage.withUnsafeMutableBufferPointer { whole in
                let base = whole.baseAddress!
                base.update(from: base + from, count: pending)
            }
            (start, end) = (0, pending)
        }
    }
}
