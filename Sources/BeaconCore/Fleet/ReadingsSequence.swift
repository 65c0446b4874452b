/// One gateway's readings messages as their sequence numbers tell them apart: a message delivered again
/// (QoS 1 redelivers what was not acknowledged before a reconnection) from a new one, numbers skipped (messages
/// the broker or the gateway dropped) from a gateway that started again (its numbers restart at 1).
/// A gateway's messages reach a subscriber in the order it published them.
struct ReadingsSequence: Sendable {
    enum Judgement: Equatable, Sendable {
        /// The message after the previous one, or the first one heard.
        case next
        /// `missing` messages before this one never arrived.
        case afterGap(missing: Int)
        /// A message already received, delivered again: the same number and the same time.
        case repeated
        /// A number not above the previous one, on a message not seen: the gateway started again.
        case restarted
    }

    /// Messages remembered to tell a repeat: more than a publisher keeps in flight unacknowledged.
    static let remembered = 64

    /// The latest messages' numbers and times, oldest first.
    private var recent: [(sequence: Int, time: Timestamp)] = []

    mutating func judge(sequence: Int, time: Timestamp) -> Judgement {
        guard let last = recent.last else {
            remember(sequence, time)
            return .next
        }
        if sequence > last.sequence {
            remember(sequence, time)
            return sequence == last.sequence + 1 ? .next : .afterGap(missing: sequence - last.sequence - 1)
        }
        if recent.contains(where: { $0.sequence == sequence && $0.time == time }) { return .repeated }
        recent.removeAll(keepingCapacity: true)
        remember(sequence, time)
        return .restarted
    }

    private mutating func remember(_ sequence: Int, _ time: Timestamp) {
        if recent.count == Self.remembered { recent.removeFirst() }
        recent.append((sequence, time))
    }
}
