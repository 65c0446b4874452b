import BeaconCore
import BeaconTransport
import CMosquitto
import Glibc
import Synchronization

/// Publishes messages to a broker through libmosquitto, on a thread of its own so a slow or absent
/// broker never holds up ranging or standard output.
///
/// Messages wait in a queue bounded in messages and bytes (`PublishBounds`) until the broker acknowledges them
/// (QoS 1). When it is full, a live run drops the oldest, counted; a replay (`waitsForRoom`) waits for the
/// broker instead, until the broker has taken nothing for `PublishBounds.stallLimit`. A message sent when the connection broke is
/// sent again on the next one. A broker that is down at the start, or goes away, is tried again
/// after 1 s, then 2, 4, … up to 30 s, each failure reported through `warn`. On each connection,
/// `PREFIX/status` is set to `online` (retained), with a last will that sets it to `offline`, and
/// the retained messages (the regions' states) are sent again, since a restarted broker may have
/// lost them. `finish` waits at most `PublishBounds.flushLimit` for what is queued, then sets `offline` itself.
public final class MQTTPublisher: Sendable {
    static let keepAliveSeconds: Int32 = 30
    /// Messages handed to libmosquitto at once; the rest wait in the queue.
    static let window = 100

    let address: BrokerAddress
    let caFile: String?
    let library: LibMosquitto
    private let warn: @Sendable (String) -> Void
    private let shared: Mutex<Shared>
    private let wakeup: Wakeup
    /// Signalled by the publishing thread when the broker acknowledged messages: room for a waiting `publish`.
    private let room: Wakeup
    private let waiting: Atomic<Bool>
    /// Whether `publish` waits for the broker when the queue is full (see `init`); a fuser turns it on once
    /// it finds it is fed a replay.
    public var waitsForRoom: Bool {
        get { waiting.load(ordering: .relaxed) }
        set { waiting.store(newValue, ordering: .relaxed) }
    }
    /// Readable when the process is asked to stop: a waiting `publish` stops waiting then.
    private let stopDescriptor: Int32?
    private let thread: Mutex<BackgroundThread?>

    struct Shared {
        var queue: PublishQueue
        /// The latest payload of each retained topic, sent again on every connection.
        var retained: [String: String] = [:]
        var retainedOrder: [String] = []
        /// Set by `finish`: until when queued messages may still be delivered.
        var stopDeadline: Micros?
        /// Lost or failed connections: a broker that drops every connection is warned about a few times, then counted.
        var outages: RepeatedWarning
        /// A waiting `publish` gave up on a broker that took nothing, or the process is stopping: no more waiting.
        var stalled = false
    }

    /// Retained `online`, and `offline` at exit and as the last will.
    let statusTopic: String
    /// A stable client id keeps the broker's session (and what it queued) across restarts; nil: a random
    /// id and a clean session.
    let clientID: String?
    /// Topic filters subscribed to (QoS 1) on every connection, and what receives their messages (on the
    /// publishing thread: topic, payload, and whether the broker held it retained when it was subscribed to).
    let subscriptions: [String]
    let received: (@Sendable (String, [UInt8], Bool) -> Void)?

    /// `waitsForRoom`: `publish` waits for the broker when the queue is full (a replay, which need not keep
    /// up with the air) rather than dropping the oldest, unless `stopDescriptor` (a signal watcher's) is readable.
    /// `subscriptions`: topic filters whose messages go to `received`, on the publishing thread.
    public init(address: BrokerAddress, caFile: String?, statusTopic: String? = nil, clientID: String? = nil,
                subscriptions: [String] = [], received: (@Sendable (String, [UInt8], Bool) -> Void)? = nil,
                queueCapacity: Int = PublishBounds.queueCapacity,
                queueBytes: Int = PublishBounds.queueBytes, waitsForRoom: Bool = false, stopDescriptor: Int32? = nil,
                warn: @escaping @Sendable (String) -> Void) throws {
        library = try LibMosquitto.shared.get()
        self.address = address
        self.caFile = caFile
        self.warn = warn
        waiting = Atomic(waitsForRoom)
        self.statusTopic = statusTopic ?? "\(address.prefix)/status"
        self.clientID = clientID
        self.subscriptions = subscriptions
        self.received = received
        self.stopDescriptor = stopDescriptor
        let broker = address.description
        shared = Mutex(Shared(queue: PublishQueue(capacity: queueCapacity, byteCapacity: queueBytes),
                              outages: RepeatedWarning { "Warning: MQTT: \(broker): \($0.counted("connection")) lost or failed in all" }))
        wakeup = try Wakeup()
        room = try Wakeup()
        thread = Mutex(nil)
        let started = try BackgroundThread { [self] in run() }
        thread.withLock { $0 = started }
    }

    /// Queues `messages` for the broker. Waits only with `waitsForRoom`, while the queue is full and the
    /// broker takes messages.
    public func publish(_ messages: [MQTTMessage]) {
        guard !messages.isEmpty else { return }
        for message in messages {
            if waitsForRoom { waitForRoom(for: message) }
            let firstDrop = shared.withLock { shared -> Bool in
                let before = shared.queue.dropped
                if message.retain {
                    if shared.retained.updateValue(message.payload, forKey: message.topic) == nil {
                        shared.retainedOrder.append(message.topic)
                    }
                }
                shared.queue.append(message)
                return before == 0 && shared.queue.dropped > 0
            }
            if firstDrop {
                warn("Warning: MQTT: \(queueBounds) wait for \(address); dropping the oldest from now on")
            }
        }
        wakeup.signal()
    }

    /// "10000 lines or 64 MiB": what the queue holds at most.
    private var queueBounds: String {
        let capacity = shared.withLock { $0.queue.capacity }
        return "\(capacity) lines or \(PublishBounds.queueBytesText)"
    }

    /// Until `message` fits in the queue, or the broker has taken nothing for `PublishBounds.stallLimit`
    /// (then said once, and the queue drops the oldest from then on, as for a live run).
    private func waitForRoom(for message: MQTTMessage) {
        var delivered = shared.withLock { $0.queue.delivered }
        var progress = Clock.monotonic()
        while true {
            let (fits, nowDelivered, stalled) = shared.withLock {
                ($0.queue.hasRoom(for: message), $0.queue.delivered, $0.stalled)
            }
            if fits || stalled { return }
            let now = Clock.monotonic()
            if nowDelivered != delivered {
                delivered = nowDelivered
                progress = now
            } else if now.value - progress.value >= PublishBounds.stallLimit.value {
                shared.withLock { $0.stalled = true }
                warn("Warning: MQTT: \(address) took nothing for \(PublishBounds.stallLimit) with \(queueBounds) waiting; "
                     + "dropping the oldest from now on")
                return
            }
            wakeup.signal()
            let ready = room.wait(socket: stopDescriptor, wantWrite: false,
                                  timeout: Micros(PublishBounds.stallLimit.value - (now.value - progress.value)))
            if ready.readable {
                // Asked to stop: the command sees the signal at its next packet; nothing waits any more.
                shared.withLock { $0.stalled = true }
                return
            }
        }
    }

    /// Sends what is queued (for at most `PublishBounds.flushLimit`; a replay for as long as the broker takes
    /// messages, until it has taken none for that long), sets the status offline and disconnects.
    public func finish() {
        shared.withLock { $0.stopDeadline = Micros(Clock.monotonic().value + PublishBounds.flushLimit.value) }
        wakeup.signal()
        thread.withLock { $0 }?.join()
        let (dropped, refused, left, capacity) = shared.withLock {
            ($0.queue.dropped, $0.queue.refused, $0.queue.count, $0.queue.capacity)
        }
        var losses: [String] = []
        if left > 0 { losses.append("\(left.counted("line")) not delivered at exit") }
        if dropped > 0 { losses.append("\(dropped) dropped when \(capacity) lines or \(PublishBounds.queueBytesText) were waiting") }
        if refused > 0 { losses.append("\(refused) refused by libmosquitto") }
        if !losses.isEmpty { warn("Warning: MQTT: \(address): " + losses.joined(separator: "; ")) }
        if let summary = shared.withLock({ $0.outages.summary }) { warn(summary) }
    }

    // MARK: - The publishing thread

    private func run() {
        var backoff = ReconnectBackoff()
        var outage = false
        // Whether the outage under way was warned about: its end is said only then.
        var outageWarned = false
        while true {
            let end = BrokerSession(self).run(onConnected: {
                if outage, outageWarned {
                    let (waiting, dropped) = shared.withLock { ($0.queue.count, $0.queue.dropped) }
                    warn("Warning: MQTT: connected to \(address) again; \(waiting.counted("line")) waiting, \(dropped) dropped so far")
                }
                outage = false
                backoff.reset()
            })
            guard case .failed(let reason, let wasConnected) = end, stopDeadline == nil else { return }
            let delay = backoff.nextDelay()
            if wasConnected || !outage {
                let bounds = queueBounds  // before taking the lock, which queueBounds takes too
                let line = shared.withLock {
                    $0.outages.occurred("Warning: MQTT: \(wasConnected ? "lost" : "cannot reach") \(address): \(reason); "
                                        + "trying again in \(delay), lines wait meanwhile (at most \(bounds))")
                }
                outageWarned = line != nil
                line.map(warn)
            }
            outage = true
            sleep(delay)
        }
    }

    fileprivate var stopDeadline: Micros? { shared.withLock { $0.stopDeadline } }

    /// Waits `delay`, or less when asked to stop.
    private func sleep(_ delay: Micros) {
        let end = Clock.monotonic().value + delay.value
        while Clock.monotonic().value < end, stopDeadline == nil {
            _ = wakeup.wait(socket: nil, wantWrite: false, timeout: Micros(end - Clock.monotonic().value))
        }
    }

    // What BrokerSession reads and changes, under the lock.
    fileprivate func withShared<T>(_ body: (inout Shared) -> T) -> T { shared.withLock { body(&$0) } }
    fileprivate var wakeupSource: Wakeup { wakeup }
    fileprivate var roomSource: Wakeup { room }
}

/// One connection to the broker (one libmosquitto instance), from connecting until it fails or the
/// publisher finishes. Lives on the publishing thread only.
private final class BrokerSession {
    enum End {
        case failed(String, wasConnected: Bool)
        case finished
    }

    fileprivate let publisher: MQTTPublisher
    private var handle: OpaquePointer?
    private var connected = false
    private var refusal: Int32?
    private var acknowledged: [Int32] = []
    /// The id of the `offline` status message sent while finishing.
    private var offlineMessage: Int32?
    private var offlineAcknowledged = false

    init(_ publisher: MQTTPublisher) {
        self.publisher = publisher
    }

    private var library: LibMosquitto { publisher.library }

    deinit {
        if let handle { library.destroy(handle) }
    }

    /// Connects and publishes until the connection fails, or until the publisher finishes: the
    /// queue delivered and the status set offline, or the stop deadline passed.
    func run(onConnected: () -> Void) -> End {
        if let failure = connect() { return .failed(failure, wasConnected: false) }
        var announced = false
        while true {
            let deadline = publisher.stopDeadline
            if let deadline {
                // A connection still being set up gets the rest of the deadline too: connecting is part of
                // delivering what is queued. With nothing queued and no connection, nobody waits for us.
                if Clock.monotonic() >= deadline || (!connected && publisher.withShared({ $0.queue.isEmpty })) {
                    return close()
                }
            }
            if connected {
                if !announced {
                    announced = true
                    onConnected()
                    sendSessionMessages()
                }
                if deadline != nil, publisher.withShared({ $0.queue.isEmpty }) {
                    if offlineMessage == nil {
                        offlineMessage = send(MQTTMessage(topic: publisher.statusTopic, payload: "offline", retain: true))
                    }
                    if offlineAcknowledged { return close() }
                }
                sendQueued()
            }
            let wait = min(Micros.seconds(1), deadline.map { Micros($0.value - Clock.monotonic().value) } ?? Micros.seconds(1))
            let ready = publisher.wakeupSource.wait(socket: library.socket(handle), wantWrite: library.wantWrite(handle),
                                                    timeout: max(Micros(0), wait))
            var rc = Int32(MOSQ_ERR_SUCCESS.rawValue)
            if ready.readable { rc = library.loopRead(handle, 1) }
            if rc == MOSQ_ERR_SUCCESS.rawValue, ready.writable || library.wantWrite(handle) { rc = library.loopWrite(handle, 1) }
            if rc == MOSQ_ERR_SUCCESS.rawValue { rc = library.loopMisc(handle) }
            let acks = acknowledged
            acknowledged.removeAll()
            if !acks.isEmpty {
                let extendsDeadline = publisher.waitsForRoom
                publisher.withShared { shared in
                    for id in acks { shared.queue.acknowledged(id) }
                    // A replay's exit waits as long as the broker keeps taking messages, flushLimit at a time.
                    if extendsDeadline, shared.stopDeadline != nil {
                        shared.stopDeadline = Micros(Clock.monotonic().value + PublishBounds.flushLimit.value)
                    }
                }
                publisher.roomSource.signal()
            }
            if let offlineMessage, acks.contains(offlineMessage) { offlineAcknowledged = true }
            if let refusal {
                return lost("refused: " + (library.refusalText(refusal) ?? "code \(refusal)"))
            }
            if rc != MOSQ_ERR_SUCCESS.rawValue {
                return lost(describe(rc))
            }
        }
    }

    /// Creates the instance and starts connecting; a message when that fails at once.
    private func connect() -> String? {
        let context = Unmanaged.passUnretained(self).toOpaque()
        guard let handle = library.new(publisher.clientID, publisher.clientID == nil, context) else { return "cannot create a libmosquitto client" }
        self.handle = handle
        let address = publisher.address
        _ = library.intOption(handle, MOSQ_OPT_PROTOCOL_VERSION, MQTT_PROTOCOL_V311)
        // Each message goes out at once: with Nagle's algorithm a message written while the previous one is
        // unacknowledged waits for the broker's delayed ACK, about 40 ms on Linux.
        _ = library.intOption(handle, MOSQ_OPT_TCP_NODELAY, 1)
        var rc = library.usernamePwSet(handle, address.username, address.password)
        if rc == MOSQ_ERR_SUCCESS.rawValue {
            rc = "offline".withCString { payload in
                library.willSet(handle, publisher.statusTopic, 7, payload, 1, true)
            }
        }
        if rc == MOSQ_ERR_SUCCESS.rawValue, address.tls {
            // Without a CA file, the system's certificates (ca-certificates) vouch for the broker.
            rc = library.tlsSet(handle, publisher.caFile, publisher.caFile == nil ? "/etc/ssl/certs" : nil, nil, nil, nil)
        }
        guard rc == MOSQ_ERR_SUCCESS.rawValue else { return describe(rc) }
        library.connectCallbackSet(handle) { _, context, code in
            let session = Unmanaged<BrokerSession>.fromOpaque(context!).takeUnretainedValue()
            if code == 0 { session.connected = true } else { session.refusal = code }
        }
        library.publishCallbackSet(handle) { _, context, messageID in
            Unmanaged<BrokerSession>.fromOpaque(context!).takeUnretainedValue().acknowledged.append(messageID)
        }
        if publisher.received != nil {
            library.messageCallbackSet(handle) { _, context, message in
                guard let context, let message, let topic = message.pointee.topic else { return }
                let session = Unmanaged<BrokerSession>.fromOpaque(context).takeUnretainedValue()
                let count = Int(max(0, message.pointee.payloadlen))
                let payload = message.pointee.payload.map { Array(UnsafeRawBufferPointer(start: $0, count: count)) } ?? []
                session.publisher.received?(String(cString: topic), payload, message.pointee.retain)
            }
        }
        rc = library.connectAsync(handle, address.host, address.port, MQTTPublisher.keepAliveSeconds)
        return rc == MOSQ_ERR_SUCCESS.rawValue ? nil : describe(rc)
    }

    /// `online`, and the latest retained messages, which a restarted broker may have lost; not those
    /// whose latest message is still queued (sent before the first connection, or unacknowledged): the
    /// queue sends it, and a subscriber gets it once.
    private func sendSessionMessages() {
        for filter in publisher.subscriptions {
            _ = library.subscribe(handle, nil, filter, 1)
        }
        _ = send(MQTTMessage(topic: publisher.statusTopic, payload: "online", retain: true))
        let retained = publisher.withShared { shared in
            shared.retainedOrder.filter { !shared.queue.holds(topic: $0) }.map { ($0, shared.retained[$0] ?? "") }
        }
        for (topic, payload) in retained {
            _ = send(MQTTMessage(topic: topic, payload: payload, retain: true))
        }
    }

    /// Hands queued messages to libmosquitto, up to the window.
    private func sendQueued() {
        while true {
            let next = publisher.withShared { shared -> (serial: Int, message: MQTTMessage)? in
                guard shared.queue.inFlight < MQTTPublisher.window else { return nil }
                return shared.queue.nextUnsent()
            }
            guard let (serial, message) = next else { return }
            switch publish(message) {
            case .success(let id):
                publisher.withShared { $0.queue.sent(serial, messageID: id) }
            case .failure(let failure) where failure.refusesForGood:
                // Refused for what the message is, so refused on every try: dropped, it cannot hold up
                // the messages behind it.
                publisher.withShared { $0.queue.refused(serial) }
            case .failure:
                return  // the connection's trouble: the loop finds it, and the message waits
            }
        }
    }

    /// Publishes one message at QoS 1; its message id, or libmosquitto's code when it refused it.
    private func publish(_ message: MQTTMessage) -> Result<Int32, PublishFailure> {
        var id: Int32 = 0
        var payload = message.payload
        let rc = payload.withUTF8 { bytes in
            library.publish(handle, &id, message.topic, Int32(bytes.count), bytes.baseAddress, 1, message.retain)
        }
        return rc == MOSQ_ERR_SUCCESS.rawValue ? .success(id) : .failure(PublishFailure(rc: rc))
    }

    /// The session's own messages (status, retained states): their id, or nil when refused.
    private func send(_ message: MQTTMessage) -> Int32? {
        guard case .success(let id) = publish(message) else { return nil }
        return id
    }

    private func lost(_ reason: String) -> End {
        publisher.withShared { $0.queue.connectionLost() }
        return .failed(reason, wasConnected: connected)
    }

    /// Ends the session. A clean disconnect only once the broker has the offline status: leaving without
    /// one makes the broker publish the last will (offline) itself, so a gateway that could not deliver
    /// everything in time is never left online.
    private func close() -> End {
        if connected, offlineAcknowledged {
            _ = library.disconnect(handle)
            _ = library.loopWrite(handle, 1)
        }
        publisher.withShared { $0.queue.connectionLost() }
        return .finished
    }

    private func describe(_ rc: Int32) -> String {
        if rc == MOSQ_ERR_ERRNO.rawValue { return String(cString: strerror(errno)) }
        return library.errorText(rc) ?? "libmosquitto error \(rc)"
    }
}

/// Why libmosquitto refused to publish a message: its return code.
struct PublishFailure: Error {
    let rc: Int32

    /// A code about the message itself (its topic or size), not the connection: it is refused on every try.
    var refusesForGood: Bool {
        [MOSQ_ERR_INVAL, MOSQ_ERR_PAYLOAD_SIZE, MOSQ_ERR_MALFORMED_UTF8, MOSQ_ERR_OVERSIZE_PACKET]
            .contains { $0.rawValue == rc }
    }
}
