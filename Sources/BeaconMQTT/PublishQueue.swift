/// Messages waiting for the broker: not yet sent, or sent and not yet acknowledged (QoS 1), oldest
/// first. Bounded in messages and in bytes: when full, the oldest are dropped and counted, so a
/// broker that stays away costs a fixed amount of memory and the newest lines are the ones kept.
struct PublishQueue {
    private struct Entry {
        var message: MQTTMessage
        /// The MQTT message id while sent and not yet acknowledged.
        var messageID: Int32?
        /// Names the entry across threads: positions move as others leave.
        let serial: Int
    }

    let capacity: Int
    /// The bytes of topics and payloads held, a message handed to libmosquitto counted twice (it
    /// keeps a copy until the broker acknowledges it).
    let byteCapacity: Int
    private var entries: [Entry] = []
    private var head = 0
    private var nextSerial = 0
    private(set) var bytes = 0
    /// Messages dropped because the queue was full, since the start.
    private(set) var dropped = 0
    /// Messages the broker acknowledged, since the start: progress for a publisher waiting for room.
    private(set) var delivered = 0
    /// Messages the client library refused to send (it will refuse them again), since the start.
    private(set) var refused = 0

    init(capacity: Int, byteCapacity: Int = PublishBounds.queueBytes) {
        precondition(capacity > 0 && byteCapacity > 0, "a publish queue holds at least one message")
        self.capacity = capacity
        self.byteCapacity = byteCapacity
    }

    var count: Int { entries.count - head }
    var isEmpty: Bool { count == 0 }
    /// Messages sent and not yet acknowledged.
    private(set) var inFlight = 0

    /// Whether `message` fits without dropping one that waits.
    func hasRoom(for message: MQTTMessage) -> Bool {
        isEmpty || (count < capacity && bytes + Self.size(of: message) <= byteCapacity)
    }

    mutating func append(_ message: MQTTMessage) {
        while !hasRoom(for: message) {
            removeEntry(at: head)
            dropped += 1
        }
        entries.append(Entry(message: message, serial: nextSerial))
        nextSerial += 1
        bytes += Self.size(of: message)
    }

    /// Whether a message of `topic` waits here. The newest message of a topic is always among them
    /// then: the oldest are the ones dropped.
    func holds(topic: String) -> Bool {
        entries[head...].contains { $0.message.topic == topic }
    }

    /// The oldest message not yet sent, and its serial for `sent(_:messageID:)` or `refused(_:)`.
    func nextUnsent() -> (serial: Int, message: MQTTMessage)? {
        entries[head...].first { $0.messageID == nil }.map { ($0.serial, $0.message) }
    }

    /// The message `serial` was refused by the client library: it leaves the queue, counted. One
    /// dropped meanwhile is ignored.
    mutating func refused(_ serial: Int) {
        guard let index = position(of: serial) else { return }
        removeEntry(at: index)
        refused += 1
    }

    /// The message `serial` was handed to libmosquitto as `messageID`; one dropped meanwhile is ignored.
    mutating func sent(_ serial: Int, messageID: Int32) {
        guard let index = position(of: serial) else { return }
        if entries[index].messageID == nil {
            bytes += Self.size(of: entries[index].message)
            inFlight += 1
        }
        entries[index].messageID = messageID
    }

    private func position(of serial: Int) -> Int? {
        entries[head...].firstIndex { $0.serial == serial }
    }

    /// The broker acknowledged `messageID`: the message is delivered. An id no longer here (its
    /// message was dropped meanwhile) is ignored.
    mutating func acknowledged(_ messageID: Int32) {
        if let index = entries[head...].firstIndex(where: { $0.messageID == messageID }) {
            removeEntry(at: index)
            delivered += 1
        }
    }

    /// The connection was lost: whatever was not acknowledged is sent again on the next one.
    mutating func connectionLost() {
        for index in entries.indices[head...] where entries[index].messageID != nil {
            entries[index].messageID = nil
            bytes -= Self.size(of: entries[index].message)
        }
        inFlight = 0
    }

    /// The oldest leave from the head without moving the rest (dropping under a full queue costs
    /// no copy); the array is compacted once the removed half is the larger.
    private mutating func removeEntry(at index: Int) {
        let entry = entries[index]
        bytes -= Self.size(of: entry.message) * (entry.messageID == nil ? 1 : 2)
        if entry.messageID != nil { inFlight -= 1 }
        if index == head {
            head += 1
        } else {
            entries.remove(at: index)
        }
        if head == entries.count {
            entries.removeAll(keepingCapacity: true)
            head = 0
        } else if head > entries.count / 2 {
            entries.removeFirst(head)
            head = 0
        }
    }

    private static func size(of message: MQTTMessage) -> Int {
        message.topic.utf8.count + message.payload.utf8.count
    }
}
