import BeaconCore

/// A controller's packets: each read's packets stamped with the schedule time of the read, commands'
/// answers taken for the command flow on the way; between reads, a wait in poll(2) on the transport,
/// the signal descriptor and the output, until the deadline (and at least once per flush interval of a
/// recording).
final class LiveLoop: HostLoop {
    /// Only a capture's times are checked; a live run's are read from the clock.
    var firstUnprintableCaptureTime: Timestamp? { nil }

    /// The monotonic clock, with a step of the wall clock told once.
    func now(_ host: HCIHost) -> Timestamp {
        let reading = host.clock()
        let (schedule, step) = host.timeline.live(monotonic: reading.monotonic, wall: reading.wall)
        if let step { host.wallClockStepped(step) }
        return schedule
    }

    func forEachPacket(_ host: HCIHost, until deadline: Timestamp?, _ handle: PacketHandler) throws(HostError) -> HostEvent {
        var deadline = deadline
        while true {
            if let event = try handOnRead(host, until: &deadline, handle) { return event }
            let current = host.now()
            if let deadline, deadline <= current { return .deadline(current) }
            try host.flushRecording()
            var timeout = host.recording ? BtsnoopRecorder.flushInterval : nil
            if let deadline { timeout = min(deadline - current, timeout ?? deadline - current) }
            let ready = try host.wait(timeout: timeout)
            if ready.signal, let signal = host.signals?.pendingSignal() {
                host.receivedSignal = signal
                return .signal(signal)
            }
            if ready.outputGone { return .outputGone }
            if ready.transport {
                try host.fill()
                if let timeout { resumeIfStalled(host, waitedFrom: current, for: timeout) }
            }
        }
    }

    /// Hands on what the last read brought, in one call to the transport: `.stopped` when the handler
    /// stopped, nil once they are all handed on.
    private func handOnRead(_ host: HCIHost, until deadline: inout Timestamp?, _ handle: PacketHandler) throws(HostError) -> HostEvent? {
        var outcome: Result<HostEvent?, HostError> = .success(nil)
        do {
            try host.transport.forEachPacket { next in
                do throws(HostError) {
                    let (packet, direction, time) = try host.received(next)
                    if next.use == .recorded { return true }
                    _ = try host.controllerEvent(packet, direction)
                    switch handle(packet, direction, time) {
                    case .proceed(let due):
                        deadline = due
                        return true
                    case .stop:
                        outcome = .success(.stopped)
                    }
                } catch {
                    outcome = .failure(error)
                }
                return false
            }
        } catch {
            throw .transport(error)
        }
        return try outcome.get()
    }

    /// A wait (and the read after it) that ended well past its timeout with packets to read: the process
    /// was stopped, not the air silent. The packets waiting were heard before the deadlines that passed
    /// meanwhile, so the schedule carries on from when the wait began, as if no time had passed (the
    /// packets are stamped with that time); printed times keep following the wall clock.
    private func resumeIfStalled(_ host: HCIHost, waitedFrom start: Timestamp, for timeout: Micros) {
        guard let read = host.readTime, read - start > Micros(timeout.value + HCIHost.stallTolerance.value) else { return }
        let woke = host.wallTime(at: read)
        host.timeline.resume(from: start)
        // The stall replaces the changes seen since the wait began (a step found on waking is in it).
        host.unrecordedChanges.removeAll { $0.change.from > start }
        host.offsetChanged(because: "beacon was stopped for \((read - start).secondsToTheMillisecond)")
        if let line = host.stalls.occurred("Warning: beacon was stopped for \((read - start).secondsToTheMillisecond) (now \(woke.iso8601)) "
            + "with reports waiting; they are heard first, and schedules carry on as if no time had passed") {
            host.warn(line)
        }
        host.readTime = host.now()
    }
}
