@testable import BeaconCLI
import Testing

@Suite("beacon locate's inbox: bounded in messages and in bytes, the oldest dropped and counted")
struct LocateInboxTests {
    /// A payload of `size` bytes whose first byte tells which message it was.
    private func payload(_ number: Int, size: Int) -> [UInt8] {
        [UInt8(number % 256)] + [UInt8](repeating: 0x61, count: size - 1)
    }

    @Test("a flood of large payloads never holds more than the byte bound; the newest are kept, in order, the rest counted")
    func largePayloadsStayWithinTheByteBound() throws {
        let inbox = try LocateInbox(capacity: 1_000, byteCapacity: 10_000)
        for number in 0..<100 {
            inbox.push("t", payload(number, size: 999))
            #expect(inbox.bytes <= 10_000)
        }
        let kept = inbox.take()
        #expect(kept.count + inbox.dropped == 100)
        #expect(kept.map { Int($0.payload[0]) } == Array(100 - kept.count..<100))
        #expect(inbox.bytes == 0 && inbox.isEmpty)
    }

    @Test("a full byte bound drops down to 7/8 of it at once, the new message included")
    func byteBoundDropsAnEighth() throws {
        let inbox = try LocateInbox(capacity: 1_000, byteCapacity: 8_000)
        for number in 0..<8 { inbox.push("t", payload(number, size: 999)) }
        #expect(inbox.dropped == 0 && inbox.bytes == 8_000)
        inbox.push("t", payload(8, size: 999))
        // 7/8 of 8000 is 7000: six of the eight waiting stay with the new one (7000 bytes).
        #expect(inbox.dropped == 2)
        #expect(inbox.take().map { Int($0.payload[0]) } == Array(2...8))
    }

    @Test("a full message bound drops an eighth of it at once")
    func messageBoundDropsAnEighth() throws {
        let inbox = try LocateInbox(capacity: 16, byteCapacity: 1 << 20)
        for number in 0..<17 { inbox.push("t", payload(number, size: 1)) }
        #expect(inbox.dropped == 2)
        #expect(inbox.take().map { Int($0.payload[0]) } == Array(2...16))
    }

    @Test("a payload larger than the whole byte bound waits alone, and goes when the next message comes")
    func payloadLargerThanTheBound() throws {
        let inbox = try LocateInbox(capacity: 100, byteCapacity: 1_000)
        inbox.push("t", payload(0, size: 10))
        inbox.push("t", payload(1, size: 5_000))
        #expect(inbox.dropped == 1)
        inbox.push("t", payload(2, size: 10))
        #expect(inbox.dropped == 2)
        #expect(inbox.take().map { Int($0.payload[0]) } == [2])
    }
}
