@testable import BeaconMQTT
import CMosquitto
import Testing

@Suite("MQTT publish queue")
struct PublishQueueTests {
    func message(_ n: Int) -> MQTTMessage { MQTTMessage(topic: "t", payload: "\(n)") }

    @Test("full: the oldest are dropped and counted, the newest kept")
    func dropsOldest() {
        var queue = PublishQueue(capacity: 3)
        for n in 1...5 { queue.append(message(n)) }
        #expect(queue.count == 3)
        #expect(queue.dropped == 2)
        #expect(queue.nextUnsent()?.message == message(3))
    }

    @Test("a message the client library refuses leaves the queue, counted, and the next one is sent")
    func refusedMessageDoesNotBlock() {
        var queue = PublishQueue(capacity: 10)
        queue.append(message(1))
        queue.append(message(2))
        let first = queue.nextUnsent()
        #expect(first?.message == message(1))
        queue.refused(first!.serial)
        #expect(queue.refused == 1)
        #expect(queue.count == 1)
        #expect(queue.nextUnsent()?.message == message(2))
    }

    @Test("only libmosquitto's codes about the message itself drop it; the connection's codes keep it waiting")
    func permanentRefusals() {
        #expect(PublishFailure(rc: Int32(MOSQ_ERR_MALFORMED_UTF8.rawValue)).refusesForGood)
        #expect(PublishFailure(rc: Int32(MOSQ_ERR_PAYLOAD_SIZE.rawValue)).refusesForGood)
        #expect(!PublishFailure(rc: Int32(MOSQ_ERR_NO_CONN.rawValue)).refusesForGood)
        #expect(!PublishFailure(rc: Int32(MOSQ_ERR_NOMEM.rawValue)).refusesForGood)
    }

    @Test("a message stays until acknowledged, and is sent again after a lost connection")
    func acknowledgement() {
        var queue = PublishQueue(capacity: 10)
        queue.append(message(1))
        queue.append(message(2))
        queue.sent(queue.nextUnsent()!.serial, messageID: 7)
        #expect(queue.nextUnsent()?.message == message(2))
        #expect(queue.inFlight == 1)
        queue.connectionLost()
        #expect(queue.inFlight == 0)
        #expect(queue.nextUnsent()?.message == message(1))
        queue.sent(queue.nextUnsent()!.serial, messageID: 8)
        queue.acknowledged(7)  // from the lost connection: no longer in flight
        #expect(queue.count == 2)
        queue.acknowledged(8)
        #expect(queue.count == 1)
        #expect(queue.nextUnsent()?.message == message(2))
    }

    @Test("a topic is held while a message of it waits, unsent or unacknowledged, and not once it is delivered or dropped")
    func holdsTopic() {
        var queue = PublishQueue(capacity: 2)
        queue.append(MQTTMessage(topic: "site/desk/state", payload: "inside", retain: true))
        #expect(queue.holds(topic: "site/desk/state"))
        #expect(!queue.holds(topic: "site/desk/range"))
        queue.sent(queue.nextUnsent()!.serial, messageID: 3)
        #expect(queue.holds(topic: "site/desk/state"))
        queue.acknowledged(3)
        #expect(!queue.holds(topic: "site/desk/state"))
        queue.append(MQTTMessage(topic: "site/desk/state", payload: "outside", retain: true))
        queue.append(message(1))
        queue.append(message(2))
        #expect(!queue.holds(topic: "site/desk/state"))
    }

    @Test("an acknowledgement for a message dropped meanwhile is ignored")
    func droppedInFlight() {
        var queue = PublishQueue(capacity: 1)
        queue.append(message(1))
        queue.sent(queue.nextUnsent()!.serial, messageID: 1)
        queue.append(message(2))
        queue.acknowledged(1)
        #expect(queue.count == 1)
        #expect(queue.dropped == 1)
        #expect(queue.nextUnsent()?.message == message(2))
    }

    @Test("bounded in bytes: large messages drop the oldest before the message count is reached, in-flight copies counted")
    func boundedInBytes() {
        let payload = String(repeating: "x", count: 99)  // 100 bytes with the topic
        var queue = PublishQueue(capacity: 100, byteCapacity: 450)
        for _ in 1...4 { queue.append(MQTTMessage(topic: "t", payload: payload)) }
        #expect(queue.bytes == 400)
        #expect(queue.dropped == 0)
        queue.sent(queue.nextUnsent()!.serial, messageID: 1)  // libmosquitto's copy: 500 bytes held
        #expect(queue.bytes == 500)
        queue.append(MQTTMessage(topic: "t", payload: payload))
        #expect(queue.dropped == 1)  // the in-flight one, 200 bytes with its copy
        #expect(queue.count == 4)
        #expect(queue.bytes == 400)
        #expect(!queue.hasRoom(for: MQTTMessage(topic: "t", payload: payload)))
        #expect(queue.hasRoom(for: message(1)))
    }

    @Test("a message larger than the byte bound alone is still queued, alone")
    func oversizedMessageAlone() {
        var queue = PublishQueue(capacity: 10, byteCapacity: 10)
        queue.append(message(1))
        queue.append(MQTTMessage(topic: "t", payload: String(repeating: "z", count: 50)))
        #expect(queue.count == 1)
        #expect(queue.dropped == 1)
    }

    @Test("serials stay valid while the oldest are dropped between taking a message and marking it sent")
    func serialSurvivesDrops() {
        var queue = PublishQueue(capacity: 2)
        queue.append(message(1))
        queue.append(message(2))
        let second = queue.nextUnsent()!  // message 1
        queue.append(message(3))  // drops message 1
        queue.sent(second.serial, messageID: 5)  // ignored: no longer here
        #expect(queue.inFlight == 0)
        let next = queue.nextUnsent()!
        #expect(next.message == message(2))
        queue.sent(next.serial, messageID: 6)
        queue.acknowledged(6)
        #expect(queue.delivered == 1)
        #expect(queue.nextUnsent()?.message == message(3))
    }

    @Test("dropping from a full queue many times keeps it at capacity with the newest messages")
    func manyDrops() {
        var queue = PublishQueue(capacity: 5)
        for n in 1...1_000 { queue.append(message(n)) }
        #expect(queue.count == 5)
        #expect(queue.dropped == 995)
        #expect(queue.nextUnsent()?.message == message(996))
    }

    @Test("reconnect waits double up to 30 s, and start again at 1 s once connected")
    func backoff() {
        var backoff = ReconnectBackoff()
        let delays = (0..<7).map { _ in backoff.nextDelay().description }
        #expect(delays == ["1s", "2s", "4s", "8s", "16s", "30s", "30s"])
        backoff.reset()
        #expect(backoff.nextDelay().description == "1s")
    }
}
