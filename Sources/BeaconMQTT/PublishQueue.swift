/// Messages waiting for the broker: not yet sent, or sent and not yet acknowledged (QoS 1), oldest
/// first. Bounded: when full, the oldest are dropped and counted, so a broker that stays away costs
/// a fixed amount of memory and the newest lines are the ones kept.
struct PublishQueue {
    private struct Entry {
        var message: MQTTMessage
        /// The MQTT message id while sent and not yet acknowledged.
        var messageID: Int32?
    }

    let capacity: Int
    private var entries: [Entry] = []
    /// Messages dropped because the queue was full, since the start.
    private(set) var dropped = 0

    init(capacity: Int) {
        precondition(capacity > 0, "a publish queue holds at least one message")
        self.capacity = capacity
    }

    var count: Int { entries.count }
    var isEmpty: Bool { entries.isEmpty }
    var inFlight: Int { entries.count { $0.messageID != nil } }

    mutating func append(_ message: MQTTMessage) {
        if entries.count == capacity {
            entries.removeFirst()
            dropped += 1
        }
        entries.append(Entry(message: message))
    }

    /// Whether a message of `topic` waits here. The newest message of a topic is always among them
    /// then: the oldest are the ones dropped.
    func holds(topic: String) -> Bool {
        entries.contains { $0.message.topic == topic }
    }

    /// The oldest message not yet sent, and its position for `sent(at:messageID:)`.
    func nextUnsent() -> (index: Int, message: MQTTMessage)? {
        guard let index = entries.firstIndex(where: { $0.messageID == nil }) else { return nil }
        return (index, entries[index].message)
    }

    /// Messages the client library refused to send (it will refuse them again), since the start.
    private(set) var refused = 0

    /// The message at `index` was refused by the client library: it leaves the queue, counted.
    mutating func refused(at index: Int) {
        entries.remove(at: index)
        refused += 1
    }

    mutating func sent(at index: Int, messageID: Int32) {
        entries[index].messageID = messageID
    }

    /// The broker acknowledged `messageID`: the message is delivered. An id no longer here (its
    /// message was dropped meanwhile) is ignored.
    mutating func acknowledged(_ messageID: Int32) {
        if let index = entries.firstIndex(where: { $0.messageID == messageID }) {
            entries.remove(at: index)
        }
    }

    /// The connection was lost: whatever was not acknowledged is sent again on the next one.
    mutating func connectionLost() {
        for index in entries.indices { entries[index].messageID = nil }
    }
}
