import BeaconCore

/// Why `HCIHost.run` returned.
public enum StopReason: Equatable, Sendable {
    /// SIGINT or SIGTERM arrived.
    case signal(Int32)
    /// The caller's stop condition held (for example `--duration` elapsed, or stdout closed).
    case finished
    /// A replayed capture has no more packets.
    case endOfCapture
}

/// Failures of a controller conversation, each with one line for the user.
public enum HostError: Error, CustomStringConvertible {
    case command(CommandError)
    /// The controller answered with Command Status where the command needs Command Complete's return parameters.
    case missingReturnParameters(HCIOpcode)
    case hardwareError(UInt8)
    case connectionClosed(String)
    case interrupted(Int32)
    case transport(TransportError)
    /// Writing the `--record` capture failed; the controller itself is still reachable.
    case recording(TransportError)

    public var description: String {
        switch self {
        case .command(let error): error.description
        case .missingReturnParameters(let opcode): "\(opcode.name): the controller answered with Command Status instead of Command Complete"
        case .hardwareError(let code): "the controller reported a hardware error (code 0x\(Hex.encode([code])))"
        case .connectionClosed(let what): "the controller connection closed (\(what))"
        case .interrupted(let signal): "interrupted by signal \(signal)"
        case .transport(let error): error.description
        case .recording(let error): "recording stopped: \(error.description)"
        }
    }

    /// Whether commands can still reach the controller after this failure (to leave it as found).
    public var controllerReachable: Bool {
        switch self {
        case .connectionClosed: false
        case .transport(let error): error.category != .io && error.category != .unavailable
        default: true
        }
    }
}

/// The host side of an HCI conversation: sends commands under flow control, records every packet,
/// and runs the one poll loop that owns the transport, the timer and the signal descriptor.
public final class HCIHost {
    public let transport: PacketTransport
    private let recorder: BtsnoopRecorder?
    private let signals: SignalWatcher?
    /// Watched for hang-up only: the reader of our output going away ends a run that prints nothing for long.
    private let output: Int32?
    private var recording: Bool
    private var flow: CommandFlow
    private let poller = Poller()
    private let now: () -> Timestamp
    /// Sees every packet sent and received, with the time it is stamped with (the capture's time on replay).
    public var observer: (HCIPacket, PacketDirection, Timestamp) -> Void = { _, _, _ in }
    /// Set once a signal ended a wait; later cleanup commands still run.
    public private(set) var receivedSignal: Int32?
    private var completion: CommandOutcome?
    private var fatal: HostError?

    public static let defaultCommandTimeout = Micros.seconds(3)

    /// The host's clock (the wall clock, or a test's).
    public var currentTime: Timestamp { now() }

    /// Packets already queued that are read before a command is declared unanswered: under a flood of
    /// reports the answer may be waiting behind them.
    static let backlogReadsBeforeTimeout = 256

    public init(transport: PacketTransport, recorder: BtsnoopRecorder?, signals: SignalWatcher?, output: Int32? = nil,
                commandTimeout: Micros = defaultCommandTimeout, now: @escaping () -> Timestamp = Clock.now) {
        self.transport = transport
        self.recorder = recorder
        self.recording = recorder != nil
        self.signals = signals
        self.output = output
        self.flow = CommandFlow(timeout: commandTimeout)
        self.now = now
    }

    /// Sends `command` once the controller has a credit and waits for its answer. Returns the return
    /// parameters after the status byte (empty when the controller answered with Command Status),
    /// and the time of the answer. Other events received meanwhile go to the observer.
    /// With `interruptible` false a pending signal does not abort the wait (used for cleanup).
    @discardableResult
    public func execute(_ command: HCICommand, interruptible: Bool = true) throws(HostError) -> (parameters: [UInt8], time: Timestamp) {
        try waitForCredit(for: command.opcode, interruptible: interruptible)
        let sentAt = now()
        flow.willSend(command.opcode, at: sentAt)
        let packet = command.packet
        record(packet, .sent, sentAt)
        observer(packet, .sent, sentAt)
        do {
            try transport.send(packet)
        } catch {
            throw Self.hostError(error)
        }
        completion = nil
        while completion == nil {
            if let due = flow.deadline, now() >= due {
                try readBacklog()
                if completion != nil { break }
                if let error = flow.expire(at: now()) { throw .command(error) }
            }
            try waitForController(until: flow.deadline, interruptible: interruptible)
        }
        let outcome = completion
        completion = nil
        switch outcome {
        case .completed(_, let parameters)?: return (Array(parameters), lastEventTime)
        case .accepted?: return ([], lastEventTime)
        case .failed(let error)?: throw .command(error)
        case nil: throw .command(CommandError(opcode: command.opcode, kind: .malformed("no outcome")))
        }
    }

    /// Waits until a command may be sent. A command still pending from an earlier wait that a signal or
    /// a failure cut short is given up at its own deadline, without failing this one (cleanup after an
    /// interrupted bring-up must still reach the controller). Credits the controller withholds are
    /// awaited for one command timeout; their absence is this command's timeout.
    private func waitForCredit(for opcode: HCIOpcode, interruptible: Bool) throws(HostError) {
        var creditDeadline: Timestamp?
        while !flow.canSend {
            let current = now()
            if flow.pending != nil {
                // Nobody waits for the abandoned command's outcome any more: only its credit matters.
                if flow.expire(at: current) == nil {
                    try waitForController(until: flow.deadline, interruptible: interruptible)
                }
                continue
            }
            let due = creditDeadline ?? current + flow.timeout
            creditDeadline = due
            if current >= due { throw .command(CommandError(opcode: opcode, kind: .timeout(flow.timeout))) }
            try waitForController(until: due, interruptible: interruptible)
        }
    }

    /// Like `execute`, for commands whose return parameters matter.
    public func query(_ command: HCICommand) throws(HostError) -> [UInt8] {
        let (parameters, _) = try execute(command)
        // A Command Status carries no return parameters at all; Command Complete carries at least the status.
        if parameters.isEmpty, lastOutcomeWasStatus { throw .missingReturnParameters(command.opcode) }
        return parameters
    }

    private var lastEventTime = Timestamp(microseconds: 0)
    private var lastOutcomeWasStatus = false

    /// Reads packets that are already waiting (without blocking), so an answer queued behind a burst of
    /// reports is seen before its command is declared unanswered.
    private func readBacklog() throws(HostError) {
        for _ in 0..<Self.backlogReadsBeforeTimeout where completion == nil {
            guard try wait(timeout: Micros(0)).transport else { return }
            try receiveOnce()
        }
    }

    /// Runs until a signal, the end of a capture, the reader of the output going away, or `shouldStop`.
    /// Calls `onTime` whenever `deadline` has passed, so timers and output stay in order.
    public func run(deadline: () -> Timestamp?, onTime: (Timestamp) -> Void, shouldStop: () -> Bool) throws(HostError) -> StopReason {
        while true {
            if shouldStop() { return .finished }
            if let signal = receivedSignal { return .signal(signal) }
            if transport.isLive {
                try flushRecording()
                var timeout = recording ? BtsnoopRecorder.flushInterval : nil
                if let due = deadline() {
                    let current = now()
                    if due <= current {
                        onTime(current)
                        continue
                    }
                    timeout = min(due - current, timeout ?? due - current)
                }
                let readable = try wait(timeout: timeout)
                if readable.signal, let signal = signals?.pendingSignal() {
                    receivedSignal = signal
                    continue
                }
                if readable.outputGone { return .finished }
                if readable.transport {
                    try receiveOnce()
                } else if let due = deadline(), due <= now() {
                    onTime(now())
                }
            } else {
                if let signal = try pollSignalWithoutWaiting() {
                    receivedSignal = signal
                    continue
                }
                let more = try receiveOnce()
                if !more { return .endOfCapture }
            }
        }
    }

    /// Reads what the transport has and dispatches it; false at the end of a replayed capture.
    @discardableResult
    private func receiveOnce() throws(HostError) -> Bool {
        let more: Bool
        do {
            more = try transport.receive { packet, direction, captureTime in
                let time = captureTime ?? now()
                handle(packet, direction, time)
            }
        } catch let error as HostError {
            throw error
        } catch {
            throw Self.hostError(error)
        }
        try throwFatal()
        if !more && transport.isLive { throw .connectionClosed("end of stream from \(transport.description)") }
        return more
    }

    private func handle(_ packet: HCIPacket, _ direction: PacketDirection, _ time: Timestamp) {
        record(packet, direction, time)
        if transport.isLive, direction == .received, packet.kind == .event {
            controllerEvent(packet.payload, at: time)
        }
        observer(packet, direction, time)
    }

    /// Command flow and fatal controller events; everything else is the observer's.
    private func controllerEvent(_ payload: ArraySlice<UInt8>, at time: Timestamp) {
        guard let code = payload.first,
              code == HCIEventCode.commandComplete.rawValue || code == HCIEventCode.commandStatus.rawValue
                || code == HCIEventCode.hardwareError.rawValue else { return }
        let event: HCIEvent
        do {
            event = try HCIEvent.decode(payload)
        } catch {
            fatal = fatal ?? .command(CommandError(opcode: flow.pending ?? .nop, kind: .malformed(error.description)))
            return
        }
        if case .hardwareError(let hwCode) = event {
            fatal = fatal ?? .hardwareError(hwCode)
            return
        }
        if let outcome = flow.receive(event, at: time) {
            completion = outcome
            lastEventTime = time
            if case .commandStatus = event { lastOutcomeWasStatus = true } else { lastOutcomeWasStatus = false }
        }
    }

    /// Waits once for the controller (a credit or an answer), at most until `deadline`. A fatal
    /// condition is thrown once, so cleanup commands after it still get their answers.
    private func waitForController(until deadline: Timestamp?, interruptible: Bool) throws(HostError) {
        try throwFatal()
        if interruptible, let signal = receivedSignal { throw .interrupted(signal) }
        let readable = try wait(timeout: deadline.map { $0 - now() })
        if readable.signal, let signal = signals?.pendingSignal() {
            receivedSignal = signal
            if interruptible { throw .interrupted(signal) }
        }
        if readable.transport {
            try receiveOnce()
        }
    }

    private func throwFatal() throws(HostError) {
        if let error = fatal {
            fatal = nil
            throw error
        }
    }

    private func wait(timeout: Micros?) throws(HostError) -> (transport: Bool, signal: Bool, outputGone: Bool) {
        var fds: [Int32] = []
        if let fd = transport.readDescriptor { fds.append(fd) }
        if let fd = signals?.descriptor { fds.append(fd) }
        let ready: Poller.Ready
        do {
            ready = try poller.wait(fds, hangUpOf: output, timeout: timeout)
        } catch {
            throw Self.hostError(error)
        }
        return (transport.readDescriptor.map { ready.readable.contains($0) } ?? false,
                signals.map { ready.readable.contains($0.descriptor) } ?? false,
                ready.hungUp)
    }

    private func pollSignalWithoutWaiting() throws(HostError) -> Int32? {
        guard let signals else { return nil }
        let ready: [Int32]
        do {
            ready = try poller.wait([signals.descriptor], timeout: Micros(0))
        } catch {
            throw Self.hostError(error)
        }
        return ready.isEmpty ? nil : signals.pendingSignal()
    }

    /// Adds a packet to the recording. A recording that fails stops (and ends the run once), while the
    /// conversation with the controller goes on so it can still be left as found.
    private func record(_ packet: HCIPacket, _ direction: PacketDirection, _ time: Timestamp) {
        guard recording, let recorder else { return }
        do {
            try recorder.record(packet, direction: direction, timestamp: time)
        } catch {
            recordingFailed(error)
        }
    }

    /// Writes buffered records at least once per flush interval, also while nothing arrives.
    private func flushRecording() throws(HostError) {
        guard recording, let recorder else { return }
        do {
            try recorder.flushIfDue()
        } catch {
            recordingFailed(error)
            try throwFatal()
        }
    }

    private func recordingFailed(_ error: TransportError) {
        recording = false
        fatal = fatal ?? .recording(error)
    }

    static func hostError(_ error: any Error) -> HostError {
        if let error = error as? HostError { return error }
        if let error = error as? TransportError { return .transport(error) }
        return .connectionClosed(String(describing: error))
    }
}
