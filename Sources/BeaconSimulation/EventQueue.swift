/// The beacons of a running simulation ordered by their next emission: a binary min-heap of
/// (time, beacon index), so equal times come out in beacon order and every run is the same.
struct EventQueue {
    private var heap: [(time: Int64, index: Int)] = []

    init(capacity: Int) { heap.reserveCapacity(capacity) }

    var first: (time: Int64, index: Int)? { heap.first }

    mutating func insert(time: Int64, index: Int) {
        heap.append((time, index))
        var child = heap.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard Self.precedes(heap[child], heap[parent]) else { break }
            heap.swapAt(child, parent)
            child = parent
        }
    }

    /// Removes and returns the earliest entry.
    mutating func removeFirst() -> (time: Int64, index: Int)? {
        guard !heap.isEmpty else { return nil }
        heap.swapAt(0, heap.count - 1)
        let first = heap.removeLast()
        var parent = 0
        while true {
            let left = 2 * parent + 1
            let right = left + 1
            var smallest = parent
            if left < heap.count, Self.precedes(heap[left], heap[smallest]) { smallest = left }
            if right < heap.count, Self.precedes(heap[right], heap[smallest]) { smallest = right }
            guard smallest != parent else { break }
            heap.swapAt(parent, smallest)
            parent = smallest
        }
        return first
    }

    private static func precedes(_ a: (time: Int64, index: Int), _ b: (time: Int64, index: Int)) -> Bool {
        a.time != b.time ? a.time < b.time : a.index < b.index
    }
}
