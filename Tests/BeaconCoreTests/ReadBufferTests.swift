import Testing
@testable import BeaconCore

@Suite("read buffer")
struct ReadBufferTests {
    /// Fills `buffer` with `bytes` the way a read(2) would: straight into its room.
    private func read(_ bytes: [UInt8], into buffer: inout ReadBuffer) -> Int {
        buffer.fill(upTo: bytes.count) { room in
            for (i, b) in bytes.enumerated() { room[i] = b }
            return bytes.count
        }
    }

    @Test("filled bytes are kept in order, consumed ones leave, offsets count from the stream's start")
    func fillAndConsume() {
        var buffer = ReadBuffer()
        #expect(read([1, 2, 3], into: &buffer) == 3)
        buffer.append([4, 5])
        #expect(Array(buffer.unconsumed) == [1, 2, 3, 4, 5])
        buffer.consume(2)
        #expect(Array(buffer.unconsumed) == [3, 4, 5])
        #expect(buffer.offset == 2 && buffer.count == 3)
    }

    @Test("a read that fails or finds nothing keeps nothing; one that writes less keeps only what it wrote")
    func partialReads() {
        var buffer = ReadBuffer()
        #expect(buffer.fill(upTo: 16) { _ in -1 } == -1)
        #expect(buffer.fill(upTo: 16) { _ in 0 } == 0)
        #expect(buffer.count == 0)
        #expect(buffer.fill(upTo: 16) { room in room[0] = 9; return 1 } == 1)
        #expect(Array(buffer.unconsumed) == [9])
    }

    @Test("a long stream read in blocks reuses the storage: a partial record moves to the front, the offset carries on")
    func longStreamStaysBounded() {
        var buffer = ReadBuffer()
        let block = 64 * 1024
        var expected: UInt8 = 0
        var next: UInt8 = 0
        for round in 0..<64 {
            _ = buffer.fill(upTo: block) { room in
                for i in 0..<room.count {
                    room[i] = next
                    next &+= 1
                }
                return room.count
            }
            // Consume all but a few bytes (a record cut by the block's end), checking the content.
            let keep = round % 7
            for b in buffer.unconsumed.dropLast(keep) {
                #expect(b == expected)
                expected &+= 1
            }
            buffer.consume(buffer.count - keep)
            #expect(buffer.offset == (round + 1) * block - keep)
        }
        // The storage is read into in place: one read's room and a partial record, whatever the stream's length.
        #expect(buffer.capacity <= block + 6)
    }

    @Test("the unconsumed bytes in place are the bytes filled, and stay put while they are consumed")
    func viewsInPlace() {
        var buffer = ReadBuffer()
        _ = read([1, 2, 3, 4], into: &buffer)
        let view = buffer.unconsumedBytes
        #expect(Array(view) == [1, 2, 3, 4])
        buffer.consume(1)
        #expect(Array(buffer.unconsumedBytes) == [2, 3, 4])
        #expect(buffer.unconsumedBytes.baseAddress == view.baseAddress.map { $0 + 1 })
        #expect(Array(view) == [1, 2, 3, 4])
        #expect(ReadBuffer().unconsumedBytes.isEmpty)
    }

    @Test("a copy keeps its own bytes when either is filled again (copy on write)")
    func copiesAreValues() {
        var original = ReadBuffer()
        _ = read([1, 2, 3], into: &original)
        original.consume(1)
        var copy = original
        _ = read([4, 5], into: &original)
        _ = read([9], into: &copy)
        #expect(Array(original.unconsumedBytes) == [2, 3, 4, 5])
        #expect(Array(copy.unconsumedBytes) == [2, 3, 9])
        #expect(copy.offset == 1 && original.offset == 1)
    }

    @Test("bytes appended one packet at a time and kept grow the storage by doubling: a few dozen growths for 10 000 packets")
    func keptBytesGrowByDoubling() {
        var buffer = ReadBuffer()
        let packet = [UInt8](repeating: 0x3E, count: 45)
        var capacities: [Int] = []
        for _ in 0..<10_000 {
            buffer.append(packet)
            if capacities.last != buffer.capacity { capacities.append(buffer.capacity) }
        }
        #expect(buffer.count == 450_000)
        // Each growth at least doubles what was kept, so the bytes copied in all stay below twice the bytes kept.
        #expect(capacities.count <= 20, "\(capacities.count) growths")
        #expect(zip(capacities, capacities.dropFirst()).allSatisfy { $1 >= 2 * $0 - packet.count }, "\(capacities.prefix(8))")
        #expect(buffer.capacity < 2 * buffer.count + 2 * packet.count)
    }
}
