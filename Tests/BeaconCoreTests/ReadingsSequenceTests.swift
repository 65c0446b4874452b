@testable import BeaconCore
import Testing

@Suite("a gateway's readings messages told apart by their sequence numbers")
struct ReadingsSequenceTests {
    private static func time(_ second: Int) -> Timestamp { Timestamp(microseconds: 1_767_225_600_000_000 + Int64(second) * 1_000_000) }

    @Test("in order: each message is the next; numbers skipped are messages missing")
    func gaps() {
        var sequence = ReadingsSequence()
        #expect(sequence.judge(sequence: 40, time: Self.time(40)) == .next)  // the first heard: the fuser started late
        #expect(sequence.judge(sequence: 41, time: Self.time(41)) == .next)
        #expect(sequence.judge(sequence: 45, time: Self.time(45)) == .afterGap(missing: 3))
        #expect(sequence.judge(sequence: 46, time: Self.time(46)) == .next)
    }

    @Test("a message delivered again, up to the last 256 (more than a gateway keeps in flight), is a repeat; the same number at another time is a gateway started again")
    func repeatsAndRestarts() {
        var sequence = ReadingsSequence()
        for second in 1...300 { #expect(sequence.judge(sequence: second, time: Self.time(second)) == .next) }
        #expect(sequence.judge(sequence: 300, time: Self.time(300)) == .repeated)
        // A gateway's 100 messages in flight, all sent again after a reconnection: each a repeat, no gap after.
        for second in 201...300 { #expect(sequence.judge(sequence: second, time: Self.time(second)) == .repeated) }
        #expect(sequence.judge(sequence: 301, time: Self.time(301)) == .next)
        #expect(sequence.judge(sequence: 46, time: Self.time(46)) == .repeated)
        // Older than what is remembered: taken for a new run of the gateway.
        #expect(sequence.judge(sequence: 45, time: Self.time(45)) == .restarted)
        var restarted = ReadingsSequence()
        for second in 1...10 { _ = restarted.judge(sequence: second, time: Self.time(second)) }
        #expect(restarted.judge(sequence: 1, time: Self.time(20)) == .restarted)
        #expect(restarted.judge(sequence: 2, time: Self.time(21)) == .next)
        // The previous run's messages are forgotten: its message 2 again is not a repeat of this run's.
        #expect(restarted.judge(sequence: 2, time: Self.time(2)) == .restarted)
    }

    @Test("numbers as far apart as a readings message allows: the gap counted without overflow")
    func hugeNumbers() {
        var sequence = ReadingsSequence()
        #expect(sequence.judge(sequence: 1, time: Self.time(1)) == .next)
        #expect(sequence.judge(sequence: 9_007_199_254_740_991, time: Self.time(2)) == .afterGap(missing: 9_007_199_254_740_989))
    }
}
