import BeaconTransport
import Synchronization

/// Messages from the publishing thread (topic and payload), waiting for `beacon locate`'s fuser (or
/// `beacon survey`'s recorder).
///
/// Bounded in messages and in bytes: a flood of large payloads (the broker passes on whatever a client
/// publishes) would otherwise hold as many of them as the message bound allows. A message that does not
/// fit drops the oldest, counted, until the inbox with it is within 7/8 of both bounds: an eighth at
/// once, so a flood does not move the whole inbox for every message it brings.
final class LocateInbox: Sendable {
    /// More than a site's gateways send while the fuser works through one batch.
    static let defaultCapacity = 100_000
    /// The topics and payloads waiting, as much as the publish queue holds (`PublishBounds.queueBytes`).
    static let defaultByteCapacity = 64 * 1024 * 1024
    static let defaultBoundsText = "\(defaultCapacity) messages or 64 MiB"

    let wakeup: Wakeup
    let capacity: Int
    let byteCapacity: Int

    private struct State {
        var messages: [(topic: String, payload: [UInt8], retained: Bool)] = []
        var bytes = 0
        var dropped = 0
    }

    private let state = Mutex(State())

    init(capacity: Int = defaultCapacity, byteCapacity: Int = defaultByteCapacity) throws {
        precondition(capacity > 0 && byteCapacity > 0, "an inbox that holds nothing")
        wakeup = try Wakeup()
        self.capacity = capacity
        self.byteCapacity = byteCapacity
    }

    /// `retained`: the broker held it retained when it was subscribed to (not passed on live).
    func push(_ topic: String, _ payload: [UInt8], retained: Bool = false) {
        let size = Self.size(topic, payload)
        state.withLock { state in
            if state.messages.count >= capacity || state.bytes + size > byteCapacity {
                let keptMessages = capacity - max(1, capacity / 8)
                let keptBytes = byteCapacity - byteCapacity / 8 - size
                var excess = 0
                var freed = 0
                while excess < state.messages.count,
                      state.messages.count - excess > keptMessages || state.bytes - freed > keptBytes {
                    freed += Self.size(state.messages[excess].topic, state.messages[excess].payload)
                    excess += 1
                }
                state.messages.removeFirst(excess)
                state.bytes -= freed
                state.dropped += excess
            }
            state.messages.append((topic, payload, retained))
            state.bytes += size
        }
        wakeup.signal()
    }

    /// Everything waiting, oldest first; the inbox is empty afterwards.
    func take() -> [(topic: String, payload: [UInt8], retained: Bool)] {
        state.withLock { state in
            defer {
                state.messages.removeAll(keepingCapacity: true)
                state.bytes = 0
            }
            return state.messages
        }
    }

    var isEmpty: Bool { state.withLock { $0.messages.isEmpty } }
    /// The bytes of the topics and payloads waiting.
    var bytes: Int { state.withLock { $0.bytes } }
    /// Messages dropped to keep within the bounds, since the start.
    var dropped: Int { state.withLock { $0.dropped } }

    private static func size(_ topic: String, _ payload: [UInt8]) -> Int {
        topic.utf8.count + payload.count
    }
}
