import BeaconCore

/// A capture's packets, each stamped with its capture time less the capture's clock steps, as fast as
/// they are read or at `--speed`. Reads never wait, except for a capture that arrives as a stream; a
/// packet past the deadline is held back for the next call.
final class ReplayLoop: HostLoop {
    private let transport: PacketTransport
    /// The descriptor of a capture that arrives as a stream: polled, with the signals, before each read.
    private let stream: Int32?
    /// At `--speed`: each packet and deadline waits for its time; nil replays as fast as it reads.
    private var pacing: ReplayPacing?
    /// Whether `pacing` is set (for the whole run or not at all): the per-packet path tests this constant,
    /// not `pacing`, whose accesses are checked for exclusivity at run time.
    private let isPaced: Bool
    /// A packet later than the deadline asked for, or whose paced wait a signal or the output's reader cut
    /// short: handed on first by the next call (still in place: the transport reads nothing more before it is taken).
    private var heldBack: (packet: HCIPacketView, direction: PacketDirection, time: Timestamp)?
    /// The latest schedule time.
    private var time: Timestamp?
    private(set) var firstUnprintableCaptureTime: Timestamp?
    /// What ended the latest call to the transport before its packets ran out. A property rather than a
    /// variable the packet closure captures: with five captures its context fits the argument registers,
    /// and the closure is reached without a forwarder that spills one to the stack.
    private var ended: Result<HostEvent?, HostError>?

    init(_ transport: PacketTransport, pacing: ReplayPacing?) {
        self.transport = transport
        self.stream = (transport as? BtsnoopReplayTransport)?.streamDescriptor
        self.pacing = pacing
        isPaced = pacing != nil
    }

    /// The latest capture time.
    func now(_ host: HCIHost) -> Timestamp {
        time ?? Timestamp(microseconds: 0)
    }

    func forEachPacket(_ host: HCIHost, until deadline: Timestamp?, _ handle: PacketHandler) throws(HostError) -> HostEvent {
        var deadline = deadline
        while true {
            if let event = try handOnRead(host, until: &deadline, handle) { return event }
            var signal = try signalWithoutWaiting(host)
            if signal == nil, let stream { signal = try waitForStream(stream, host) }
            if let signal {
                host.receivedSignal = signal
                return .signal(signal)
            }
            let more: Bool
            do {
                more = try transport.read()
            } catch {
                throw .transport(error)
            }
            if !more { return .endOfCapture }
        }
    }

    /// Hands on the packet held back, then the packets already read, in one call to the transport: the
    /// event that ends the call, or nil once they are all handed on. (`deadline` is a parameter, not a
    /// variable the closures capture, so its accesses need no runtime check.)
    private func handOnRead(_ host: HCIHost, until deadline: inout Timestamp?, _ handle: PacketHandler) throws(HostError) -> HostEvent? {
        /// One packet's event, nil to go on.
        func offer(_ packet: HCIPacketView, _ direction: PacketDirection, _ time: Timestamp) throws(HostError) -> HostEvent? {
            if let due = deadline, time > due {
                heldBack = (packet, direction, time)
                return try pace(host, to: due) ?? .deadline(due)
            }
            if let interruption = try pace(host, to: time) {
                heldBack = (packet, direction, time)
                return interruption
            }
            switch handle(packet, direction, time) {
            case .proceed(let due):
                deadline = due
                return nil
            case .stop:
                return .stopped
            }
        }
        if let (packet, direction, time) = heldBack.take(), let event = try offer(packet, direction, time) { return event }
        do {
            try transport.forEachPacket { next in
                do throws(HostError) {
                    if takeNote(next, host) { return true }
                    let (packet, direction, time) = try stamped(next, host)
                    guard let event = try offer(packet, direction, time) else { return true }
                    ended = .success(event)
                } catch {
                    ended = .failure(error)
                }
                return false
            }
        } catch {
            ended = nil
            throw .transport(error)
        }
        return try ended.take()?.get()
    }

    /// Applies a recording's note of its wall clock; false for a packet.
    @inline(__always)
    private func takeNote(_ next: TransportPacket, _ host: HCIHost) -> Bool {
        guard let offset = next.recordedWallOffset, let time = next.captureTime else { return false }
        applyNote(offset, at: time, host)
        return true
    }

    @inline(never)
    private func applyNote(_ offset: Micros, at time: Timestamp, _ host: HCIHost) {
        if firstUnprintableCaptureTime == nil, !Timestamp.printableRange.contains(time) { firstUnprintableCaptureTime = time }
        let (schedule, step) = host.timeline.note(recordedOffset: offset, at: time)
        if let step { host.captureClockStepped(step) }
        host.offsetChanged(because: "noted in the replayed recording")
        self.time = schedule
    }

    /// A packet with its schedule time (the capture's, less its steps), recorded.
    @inline(__always)
    private func stamped(_ next: TransportPacket, _ host: HCIHost) throws(HostError) -> (packet: HCIPacketView, direction: PacketDirection, time: Timestamp) {
        let stamp: Timestamp
        if let captured = next.captureTime {
            // The range first: the property is touched only for the rare time outside it, not per packet.
            if !Timestamp.printableRange.contains(captured), firstUnprintableCaptureTime == nil { firstUnprintableCaptureTime = captured }
            let (schedule, step) = host.timeline.capture(captured)
            if let step {
                host.captureClockStepped(step)
                host.offsetChanged(because: "the replayed capture's clock stepped \(step)")
            }
            time = schedule
            stamp = schedule
        } else {
            stamp = now(host)
        }
        try host.record(next.packet, next.direction, stamp)
        return (next.packet, next.direction, stamp)
    }

    /// A paced replay waits until schedule time `time` is due on the monotonic clock: nil then, or what
    /// came first, a signal or the reader of the output going away.
    @inline(__always)
    private func pace(_ host: HCIHost, to time: Timestamp) throws(HostError) -> HostEvent? {
        guard isPaced else { return nil }
        return try waitForPace(host, to: time)
    }

    private func waitForPace(_ host: HCIHost, to time: Timestamp) throws(HostError) -> HostEvent? {
        while let wait = pacing?.wait(for: time, now: host.clock().monotonic), wait.value > 0 {
            let ready: Poller.Ready
            do {
                ready = try host.poller.wait(host.signals.map { [$0.descriptor] } ?? [], hangUpOf: host.output, timeout: wait)
            } catch {
                throw .transport(TransportError.from(error, transport: transport.description))
            }
            if let signals = host.signals, ready.readable.contains(signals.descriptor), let signal = signals.pendingSignal() {
                host.receivedSignal = signal
                return .signal(signal)
            }
            if ready.hungUp { return .outputGone }
        }
        return nil
    }

    /// A signal that has arrived, looked for between reads without waiting.
    private func signalWithoutWaiting(_ host: HCIHost) throws(HostError) -> Int32? {
        guard let signals = host.signals else { return nil }
        let ready: [Int32]
        do {
            ready = try host.poller.wait([signals.descriptor], timeout: Micros(0))
        } catch {
            throw .transport(TransportError.from(error, transport: transport.description))
        }
        return ready.isEmpty ? nil : signals.pendingSignal()
    }

    /// For a capture that arrives as a stream: waits until it has bytes (or its writer has gone), or a
    /// signal arrives: the signal.
    private func waitForStream(_ stream: Int32, _ host: HCIHost) throws(HostError) -> Int32? {
        while true {
            let ready: [Int32]
            do {
                ready = try host.poller.wait([stream] + (host.signals.map { [$0.descriptor] } ?? []), timeout: nil)
            } catch {
                throw .transport(TransportError.from(error, transport: transport.description))
            }
            if let signals = host.signals, ready.contains(signals.descriptor), let signal = signals.pendingSignal() { return signal }
            if ready.contains(stream) { return nil }
        }
    }
}
