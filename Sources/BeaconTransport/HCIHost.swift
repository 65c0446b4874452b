import BeaconCore

/// Why `HCIHost.forEachPacket` returned.
public enum HostEvent: Equatable, Sendable {
    /// The packet handler asked to stop.
    case stopped
    /// The deadline passed; the schedule time now (live), or the deadline itself (replay).
    case deadline(Timestamp)
    /// SIGINT or SIGTERM arrived.
    case signal(Int32)
    /// A replayed capture has no more packets.
    case endOfCapture
    /// The reader of the output went away (`beacon … | head -1`).
    case outputGone
}

/// What a packet handler tells `HCIHost.forEachPacket`: go on until the deadline it now has (nil: none), or stop.
public enum PacketHandling {
    case proceed(until: Timestamp?)
    case stop
}

/// `HCIHost.forEachPacket`'s handler: a packet, its direction and its schedule time.
public typealias PacketHandler = (HCIPacketView, PacketDirection, Timestamp) -> PacketHandling

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

/// The controller's answer to one command (failures are thrown instead).
public struct CommandAnswer: Sendable {
    /// `.completed` (Command Complete) or `.accepted` (Command Status).
    public var outcome: CommandOutcome
    /// Schedule time of the answer.
    public var time: Timestamp

    /// Command Complete's return parameters after the status byte; a Command Status carries none.
    public func returnParameters() throws(HostError) -> ArraySlice<UInt8> {
        switch outcome {
        case .completed(_, let parameters): return parameters
        case .accepted(let opcode):
            throw .missingReturnParameters(opcode)
        case .failed(let error):
            throw .command(error)
        }
    }
}

/// The host side of an HCI conversation: `forEachPacket` hands each packet, with its direction and
/// schedule time, to a handler until a deadline passes, a signal arrives or the packets end; `execute`
/// sends one command under flow control and returns its answer. Every packet is recorded (`--record`).
///
/// The packets come through one of two loops (`HostLoop`), chosen once by the transport: `LiveLoop`
/// waits for a controller, `ReplayLoop` reads a capture.
///
/// Schedules (deadlines, command timeouts) run on a `Timeline`: the monotonic clock in live runs, the
/// capture's time with its steps taken out in replays. Wall-clock steps are told once each through `warn`.
/// The recording carries schedule time, and a note (`WallClockNote`) wherever the offset of printed
/// times changed, so a replay of it prints the lines the run printed.
public final class HCIHost {
    public let transport: PacketTransport
    private let loop: any HostLoop
    private let recorder: BtsnoopRecorder?
    private(set) var recording: Bool
    let signals: SignalWatcher?
    /// Watched for hang-up only: the reader of our output going away ends a run that prints nothing for long.
    let output: Int32?
    private var flow: CommandFlow
    let poller = Poller()
    let clock: () -> ClockReading
    let warn: (String) -> Void
    /// The event codes `controllerEvent` looks for on every live packet, kept here: another module's
    /// static constants cost a call each time they are read.
    private let controllerEventCodes = (complete: HCIEventCode.commandComplete.rawValue,
                                        status: HCIEventCode.commandStatus.rawValue,
                                        hardwareError: HCIEventCode.hardwareError.rawValue)
    /// Malformed Command Complete or Command Status events that arrived while no command was pending: skipped.
    private var skippedEvents = RepeatedWarning { "Warning: skipped \($0) malformed controller events in all" }
    private var wallClockSteps = RepeatedWarning { "Warning: the wall clock stepped \($0.counted("time")) in all" }
    private var captureClockSteps = RepeatedWarning { "Warning: the capture's clock stepped \($0.counted("time")) in all" }
    var stalls = RepeatedWarning { "Warning: beacon was stopped with reports waiting \($0.counted("time")) in all" }
    private var withheldCredits = RepeatedWarning { "Warning: the controller gave no command credit \($0.counted("time")) in all" }
    /// Changed for every replayed packet, and read for every printed time (`wallTime`), from handlers too;
    /// no access outlasts the call that makes it, so none overlaps another. Unchecked: the runtime's check
    /// costs about 77 instructions an access (callgrind), 5 to 9% of a replayed report's (`make bench`).
    @exclusivity(unchecked) var timeline: Timeline
    /// Set once a signal arrived; interruptible commands then fail at once, cleanup commands still run.
    var receivedSignal: Int32?

    /// Schedule time of the latest read (live): the time of every packet it returned.
    var readTime: Timestamp?
    /// Packets seen while commands waited for their answers, handed on by `forEachPacket` first: their
    /// bytes, copied one after another into `backlogBytes`, and what each one is.
    private var backlog: [(kind: HCIPacketKind, direction: PacketDirection, time: Timestamp, length: Int)] = []
    private var backlogStart = 0
    private var backlogBytes = ReadBuffer()
    /// The timeline's offset changes the recording has been told of (`Timeline.changeCount`).
    private var notedChanges = 0
    /// Offset changes not yet in the recording, each with why it changed: written just before the next
    /// record, so that a stall's resumption can still replace a step seen while waking from it.
    var unrecordedChanges: [(change: Timeline.OffsetChange, cause: String)] = []

    public static let defaultCommandTimeout = Micros.seconds(3)

    /// How much later than its timeout a wait may end before the process is taken to have been stopped:
    /// far above a loaded scheduler's latency, far below a SIGSTOP or a paused machine.
    static let stallTolerance = Micros.seconds(1)

    /// Bytes of packets the backlog holds at most before advertising reports are dropped (counted in
    /// `droppedReports`): a second or so of a flood of reports, while commands' answers are always kept.
    public static let backlogByteLimit = 1 << 20
    /// Advertising reports not kept for `forEachPacket` because the backlog was full.
    public private(set) var droppedReports = 0

    /// Packets already queued that are read before a command is declared unanswered: under a flood of
    /// reports the answer may be waiting behind them.
    static let backlogReadsBeforeTimeout = 256

    /// - Parameters:
    ///   - pacing: replays only: play the capture at this pace, not as fast as it reads.
    ///   - clock: both clocks (tests inject their own).
    ///   - warn: one diagnostic line (a clock step); a warning that repeats is told a few times, then
    ///     only counted for `warningSummaries`.
    public init(transport: PacketTransport, recorder: BtsnoopRecorder?, signals: SignalWatcher?, output: Int32? = nil,
                commandTimeout: Micros = defaultCommandTimeout, pacing: ReplayPacing? = nil,
                clock: @escaping () -> ClockReading = Clock.reading, warn: @escaping (String) -> Void = { _ in }) {
        self.transport = transport
        self.loop = transport.isLive ? LiveLoop() : ReplayLoop(transport, pacing: pacing)
        self.recorder = recorder
        self.recording = recorder != nil
        self.signals = signals
        self.output = output
        self.flow = CommandFlow(timeout: commandTimeout)
        self.clock = clock
        self.warn = warn
        self.timeline = Timeline()
    }

    /// Schedule time now: the monotonic clock (live), the latest capture time (replay).
    public func now() -> Timestamp {
        loop.now(self)
    }

    /// The first capture time outside `Timestamp.printableRange`, as the capture has it: the timeline
    /// clamps it into `Timestamp.supportedRange`, so the lines made from it may not show it.
    public var firstUnprintableCaptureTime: Timestamp? {
        loop.firstUnprintableCaptureTime
    }

    /// For the end of the run: one line per repeated warning whose later occurrences were only counted.
    public var warningSummaries: [String] {
        [skippedEvents, wallClockSteps, captureClockSteps, stalls, withheldCredits].compactMap(\.summary)
            + (droppedReports > 0 ? ["Warning: dropped \(droppedReports) advertising reports that arrived while a command awaited its answer"] : [])
    }

    /// The wall-clock time to print for a schedule time: by the offset in effect at that time.
    public func wallTime(at schedule: Timestamp) -> Timestamp {
        timeline.wallTime(at: schedule)
    }

    /// Keeps the timeline's latest offset change for the recording, when there is one.
    func offsetChanged(because cause: String) {
        guard recording, timeline.changeCount != notedChanges, let change = timeline.latestChange else { return }
        notedChanges = timeline.changeCount
        unrecordedChanges.append((change, cause))
    }

    /// Tells a step of the wall clock (live).
    func wallClockStepped(_ step: Timeline.Step) {
        if let line = wallClockSteps.occurred(
            "Warning: the wall clock stepped \(step) (now \(step.wallTime)); printed times follow it, schedules carry on") {
            warn(line)
        }
        offsetChanged(because: "stepped \(step)")
    }

    /// Tells a step of a replayed capture's clock.
    func captureClockStepped(_ step: Timeline.Step) {
        if let line = captureClockSteps.occurred(
            "Warning: the capture's clock steps \(step) at \(step.wallTime); ranging carries on as if no time had passed") {
            warn(line)
        }
    }

    // MARK: - Packets

    /// The one loop over the host's packets: hands each to `handle` until `handle` stops, `deadline`
    /// passes (nil: none), a signal arrives or the packets end, and says which. `handle` gives the
    /// deadline for the packets after its own. Packets kept while a command awaited its answer come
    /// first; then what the transport has read goes to `handle` in one run (a replay passes millions),
    /// and the loop waits (live) or reads on. `handle` must not run commands.
    public func forEachPacket(until deadline: Timestamp?, _ handle: PacketHandler) throws(HostError) -> HostEvent {
        var deadline = deadline
        while let (packet, direction, time) = takeBacklogged() {
            switch handle(packet, direction, time) {
            case .proceed(let due): deadline = due
            case .stop: return .stopped
            }
        }
        return try loop.forEachPacket(self, until: deadline, handle)
    }

    /// A packet from a live transport, stamped with the schedule time of the read that brought it,
    /// recorded unless it is heard only. One that is recorded only goes no further (callers check `use`).
    @inline(__always)
    func received(_ next: TransportPacket) throws(HostError) -> (packet: HCIPacketView, direction: PacketDirection, time: Timestamp) {
        let time = readTime ?? now()
        if next.use != .heard { try record(next.packet, next.direction, time) }
        return (next.packet, next.direction, time)
    }

    // MARK: - Commands

    /// Sends `command` once the controller has a credit and waits for its answer. Packets seen
    /// meanwhile, the command itself included, go to `forEachPacket`'s handler afterwards. With `interruptible`
    /// false a signal does not abort the wait (cleanup).
    @discardableResult
    public func execute(_ command: HCICommand, interruptible: Bool = true) throws(HostError) -> CommandAnswer {
        try waitForCredit(for: command.opcode, interruptible: interruptible)
        let sentAt = now()
        flow.willSend(command.opcode, at: sentAt)
        let packet = command.packet
        try packet.withView { view throws(HostError) in
            try record(view, .sent, sentAt)
            keepInBacklog(view, .sent, sentAt)
        }
        do {
            try transport.send(packet)
        } catch {
            throw .transport(error)
        }
        while true {
            if let outcome = try pump(until: flow.deadline, interruptible: interruptible) {
                return try answer(outcome)
            }
            let current = now()
            guard let due = flow.deadline, current >= due else { continue }
            if let outcome = try readBacklog() { return try answer(outcome) }
            if let error = flow.expire(at: current) { throw .command(error) }
        }
    }

    private func answer(_ outcome: CommandOutcome) throws(HostError) -> CommandAnswer {
        let time = readTime ?? now()
        switch outcome {
        case .failed(let error):
            throw .command(error)
        case .completed, .accepted:
            // The event was decoded from a copy of its bytes (`controllerAnswer`): the outcome outlives the next read.
            return CommandAnswer(outcome: outcome, time: time)
        }
    }

    /// Waits until a command may be sent. A command still pending from an earlier wait that a signal or
    /// a failure cut short is given up at its own deadline, without failing this one (cleanup after an
    /// interrupted bring-up must still reach the controller). Credits the controller withholds are
    /// awaited for one command timeout; their absence is this command's timeout, except in cleanup
    /// (`interruptible` false): then one credit is taken back, the command sent anyway, and the cause
    /// told through `warn`.
    private func waitForCredit(for opcode: HCIOpcode, interruptible: Bool) throws(HostError) {
        var creditDeadline: Timestamp?
        while !flow.canSend {
            let current = now()
            if flow.pending != nil {
                // Nobody waits for the abandoned command's outcome any more: only its credit matters.
                if flow.expire(at: current) == nil {
                    _ = try pump(until: flow.deadline, interruptible: interruptible)
                }
                continue
            }
            let due = creditDeadline ?? current + flow.timeout
            creditDeadline = due
            if current >= due {
                guard !interruptible else { throw .command(CommandError(opcode: opcode, kind: .timeout(flow.timeout))) }
                flow.takeCreditBack()
                let cause = flow.lastGrant.map { grant in
                    " after its answer to \(grant.opcode.name)" + (grant.answeredPending ? "" : ", a command beacon had not sent,")
                        + " granted none"
                } ?? ""
                if let line = withheldCredits.occurred(
                    "Warning: the controller gave no command credit for \(flow.timeout)\(cause); sending \(opcode.name) anyway") {
                    warn(line)
                }
                return
            }
            _ = try pump(until: due, interruptible: interruptible)
        }
    }

    /// Takes what the transport has read, else waits once (at most until `deadline`) and reads; the
    /// pending command's outcome when it arrived. Packets are kept for `forEachPacket`.
    private func pump(until deadline: Timestamp?, interruptible: Bool) throws(HostError) -> CommandOutcome? {
        if let outcome = try drain() { return outcome }
        if interruptible, let signal = receivedSignal { throw .interrupted(signal) }
        let ready = try wait(timeout: deadline.map { $0 - now() })
        if ready.signal, let signal = signals?.pendingSignal() {
            receivedSignal = signal
            if interruptible { throw .interrupted(signal) }
        }
        guard ready.transport else { return nil }
        try fill()
        return try drain()
    }

    /// Reads packets that are already waiting (without blocking), so an answer queued behind a burst of
    /// reports is seen before its command is declared unanswered.
    private func readBacklog() throws(HostError) -> CommandOutcome? {
        for _ in 0..<Self.backlogReadsBeforeTimeout {
            if let outcome = try drain() { return outcome }
            guard try wait(timeout: Micros(0)).transport else { return nil }
            try fill()
        }
        return try drain()
    }

    /// The next packet the transport has already read, stamped and recorded; nil when it needs a read.
    private func takePacket() throws(HostError) -> (packet: HCIPacketView, direction: PacketDirection, time: Timestamp)? {
        while true {
            let next: TransportPacket?
            do {
                next = try transport.nextPacket()
            } catch {
                throw .transport(error)
            }
            guard let next else { return nil }
            let taken = try received(next)
            if next.use != .recorded { return taken }
        }
    }

    /// Takes every packet already read until one answers the pending command.
    private func drain() throws(HostError) -> CommandOutcome? {
        while let (packet, direction, time) = try takePacket() {
            keepInBacklog(packet, direction, time)
            if let outcome = try controllerEvent(packet, direction) { return outcome }
        }
        return nil
    }

    /// Copies a packet into the backlog, for `forEachPacket` to hand on after the command; an advertising report
    /// that would take the backlog past its bound is dropped and counted instead.
    private func keepInBacklog(_ packet: HCIPacketView, _ direction: PacketDirection, _ time: Timestamp) {
        if backlogBytes.count + packet.payload.count > Self.backlogByteLimit, direction == .received, packet.kind == .event,
           SightingFeed.isAdvertisingReport(packet.payload) {
            droppedReports += 1
            return
        }
        backlogBytes.append(packet.payload)
        backlog.append((packet.kind, direction, time, packet.payload.count))
    }

    /// The oldest packet in the backlog, in place in `backlogBytes` until the next packet is kept there
    /// (by a command, after the caller is done with this one).
    private func takeBacklogged() -> (packet: HCIPacketView, direction: PacketDirection, time: Timestamp)? {
        guard backlogStart < backlog.count else { return nil }
        let entry = backlog[backlogStart]
        backlogStart += 1
        if backlogStart == backlog.count {
            backlog.removeAll(keepingCapacity: true)
            backlogStart = 0
        }
        let bytes = UnsafeRawBufferPointer(rebasing: backlogBytes.unconsumedBytes.prefix(entry.length))
        backlogBytes.consume(entry.length)
        return (HCIPacketView(kind: entry.kind, payload: bytes), entry.direction, entry.time)
    }

    /// Command flow and fatal controller events: the pending command's outcome when this answers it.
    /// The test for an answer is inlined into the loops that run it on every packet; few pass it.
    @inline(__always)
    func controllerEvent(_ packet: HCIPacketView, _ direction: PacketDirection) throws(HostError) -> CommandOutcome? {
        guard direction == .received, packet.kind == .event, let code = packet.payload.first,
              code == controllerEventCodes.complete || code == controllerEventCodes.status
                || code == controllerEventCodes.hardwareError else { return nil }
        return try controllerAnswer(packet)
    }

    /// Decodes the answer from a copy of its bytes, so what it returns outlives the transport's buffer.
    private func controllerAnswer(_ packet: HCIPacketView) throws(HostError) -> CommandOutcome? {
        let event: HCIEvent
        do {
            event = try HCIEvent.decode(ArraySlice(packet.payload))
        } catch {
            // An answer that cannot be read ends the command it answers; one that answers nothing is skipped.
            guard let pending = flow.pending else {
                if let line = skippedEvents.occurred("Warning: skipped a malformed controller event that answers no command: \(error)") {
                    warn(line)
                }
                return nil
            }
            throw .command(CommandError(opcode: pending, kind: .malformed(error.description)))
        }
        if case .hardwareError(let code) = event { throw .hardwareError(code) }
        return flow.receive(event, at: readTime ?? now())
    }

    // MARK: - I/O

    /// One read from a live transport; its packets are stamped with the time it returned.
    func fill() throws(HostError) {
        let more: Bool
        do {
            more = try transport.read()
        } catch {
            throw .transport(error)
        }
        guard more else { throw .connectionClosed("end of stream from \(transport.description)") }
        readTime = now()
    }

    func wait(timeout: Micros?) throws(HostError) -> (transport: Bool, signal: Bool, outputGone: Bool) {
        var fds: [Int32] = []
        if let fd = transport.readDescriptor { fds.append(fd) }
        if let fd = signals?.descriptor { fds.append(fd) }
        let ready: Poller.Ready
        do {
            ready = try poller.wait(fds, hangUpOf: output, timeout: timeout)
        } catch {
            throw .transport(TransportError.from(error, transport: transport.description))
        }
        return (transport.readDescriptor.map { ready.readable.contains($0) } ?? false,
                signals.map { ready.readable.contains($0.descriptor) } ?? false,
                ready.hungUp)
    }

    /// Adds a packet to the recording, stamped with its schedule time, after a note of each change of
    /// the wall clock's offset since the last record. A recording that fails stops and throws once; the
    /// conversation with the controller goes on so it can be left as found. Only the guard is inlined into
    /// the per-packet path, which most runs take without recording.
    @inline(__always)
    func record(_ packet: HCIPacketView, _ direction: PacketDirection, _ time: Timestamp) throws(HostError) {
        guard recording, let recorder else { return }
        try record(packet, direction, time, to: recorder)
    }

    private func record(_ packet: HCIPacketView, _ direction: PacketDirection, _ time: Timestamp,
                        to recorder: BtsnoopRecorder) throws(HostError) {
        do {
            if !unrecordedChanges.isEmpty {
                for (change, cause) in unrecordedChanges {
                    try recorder.recordNote(WallClockNote.data(offset: change.offset, cause: cause), timestamp: change.from)
                }
                unrecordedChanges.removeAll()
            }
            try recorder.record(packet, direction: direction, timestamp: time)
        } catch {
            recording = false
            throw .recording(error)
        }
    }

    /// Writes buffered records at least once per flush interval, also while nothing arrives.
    func flushRecording() throws(HostError) {
        guard recording, let recorder else { return }
        do {
            try recorder.flushIfDue()
        } catch {
            recording = false
            throw .recording(error)
        }
    }
}
