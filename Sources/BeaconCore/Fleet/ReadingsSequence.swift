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

    /// Messages remembered to tell a repeat: more than a publisher keeps in flight unacknowledged (beacon
    /// range hands libmosquitto 100 at a time, and all of them are sent again after a reconnection).
    static let remembered = 256

    /// The latest messages' numbers and times, a ring: `next` is where the next one goes.
    private var recent: [(sequence: Int, time: Timestamp)] = []
    private var next = 0
    private var last: Int?

    mutating func judge(sequence: Int, time: Timestamp) -> Judgement {
        guard let last else {
            remember(sequence, time)
            return .next
        }
        if sequence > last {
            remember(sequence, time)
            return sequence == last + 1 ? .next : .afterGap(missing: sequence - last - 1)
        }
        if recent.contains(where: { $0.sequence == sequence && $0.time == time }) { return .repeated }
        recent.removeAll(keepingCapacity: true)
        next = 0
        remember(sequence, time)
        return .restarted
    }

    private mutating func remember(_ sequence: Int, _ time: Timestamp) {
        if recent.count < Self.remembered {
            recent.append((sequence, time))
        } else {
            recent[next] = (sequence, time)
        }
        next = (next + 1) % Self.remembered
        last = sequence
    }
}
