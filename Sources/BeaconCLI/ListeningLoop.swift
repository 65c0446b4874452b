import BeaconCore
import BeaconTransport

/// A session the listening commands (`range`, `scan`, `calibrate`, `advertise`) drive from the host loop:
/// packets in, outputs out, deadlines and the end of a replay handled the same way for all.
protocol ListeningSession {
    associatedtype Output
    var nextDeadline: Timestamp? { get }
    /// Beacons forgotten early because the session's table was full (see `BeaconMemory`).
    var evictedBeacons: Int { get }
    /// The latest tick of the session's schedule passed (schedule time); nil for a session without one.
    var lastTick: Timestamp? { get }
    func isFinished(at now: Timestamp) -> Bool
    mutating func packet(_ packet: HCIPacketView, direction: PacketDirection, at rawTime: Timestamp,
                         emit: (Output) -> Void, heard: (Sighting) -> Bool) throws(DecodeError)
    mutating func advance(to now: Timestamp, emit: (Output) -> Void)
    mutating func finish(at now: Timestamp, emit: (Output) -> Void)
}

extension RangeSession: ListeningSession {}
extension ScanSession: ListeningSession {
    var lastTick: Timestamp? { nil }
}

/// The one loop over the host's packets for the commands that listen: it runs until the session's end
/// (`--duration`), a signal, the end of a replayed capture or stdout going away. Malformed packets are
/// warned about and skipped; beacons evicted from a full table are counted in a warning at the end; a
/// replay shows its progress.
enum ListeningLoop {
    /// `heard` sees every sighting (see the sessions' `packet`) until it returns false, and `idle` each
    /// deadline, with the packet's or deadline's time. True when the session finished (its end passed).
    @discardableResult
    static func run<Session: ListeningSession>(_ host: HCIHost, _ session: inout Session, output: LineOutput,
                                               emit: (Session.Output) -> Void,
                                               heard: (Sighting) -> Bool = { _ in false },
                                               idle: (Timestamp) -> Void = { _ in }) throws(HostError) -> Bool {
        output.firstUnprintableInputTime = { host.firstUnprintableCaptureTime }
        let progress = ReplayProgress(host.transport, console: output.console)
        defer {
            progress?.finish()
            if let warning = BeaconMemory.evictionWarning(session.evictedBeacons) {
                output.flush()
                output.console.diagnose(warning)
            }
        }
        return try withUnsafeMutablePointer(to: &session) { session throws(HostError) in
            try withoutActuallyEscaping(emit) { emit throws(HostError) in
                try withoutActuallyEscaping(heard) { heard throws(HostError) in
                    let step = PacketStep(session: session, host: host, output: output, progress: progress, emit: emit, heard: heard)
                    return try loop(step, idle: idle)
                }
            }
        }
    }

    private static func loop<Session: ListeningSession>(_ step: PacketStep<Session>, idle: (Timestamp) -> Void) throws(HostError) -> Bool {
        let (session, host, output) = (step.session, step.host, step.output)
        while !output.readerGone, !step.finished {
            // One class reference is all the handler captures: called with it as its context, no thunk.
            let event = try host.forEachPacket(until: session.pointee.nextDeadline) { step.handle($0, $1, $2) }
            switch event {
            case .stopped:
                continue
            case .deadline(let time):
                session.pointee.advance(to: time, emit: step.emit)
                output.stepEnded(lastTick: step.lastTick)
                idle(time)
                if session.pointee.isFinished(at: time) { return true }
            case .endOfCapture:
                session.pointee.finish(at: host.now(), emit: step.emit)
                return false
            case .outputGone, .signal:
                return false
            }
        }
        return step.finished
    }
}

/// What the loop hands each packet to, behind one reference. The session is reached through the
/// pointer of `run`'s inout parameter: in place, without the run-time exclusivity checks of a stored var.
private final class PacketStep<Session: ListeningSession> {
    let session: UnsafeMutablePointer<Session>
    let host: HCIHost
    let output: LineOutput
    let progress: ReplayProgress?
    let emit: (Session.Output) -> Void
    let heard: (Sighting) -> Bool
    /// The session's end passed at a packet.
    private(set) var finished = false

    init(session: UnsafeMutablePointer<Session>, host: HCIHost, output: LineOutput, progress: ReplayProgress?,
         emit: @escaping (Session.Output) -> Void, heard: @escaping (Sighting) -> Bool) {
        (self.session, self.host, self.output, self.progress, self.emit, self.heard) = (session, host, output, progress, emit, heard)
    }

    /// The schedule's latest tick, as lines print it (wall-clock time).
    var lastTick: Timestamp? { session.pointee.lastTick.map(host.wallTime) }

    func handle(_ packet: HCIPacketView, _ direction: PacketDirection, _ time: Timestamp) -> PacketHandling {
        progress?.packet()
        do {
            try session.pointee.packet(packet, direction: direction, at: time, emit: emit, heard: heard)
        } catch {
            output.warnMalformed(error)
        }
        output.stepEnded(lastTick: lastTick)
        if session.pointee.isFinished(at: time) {
            // The ticks up to --duration's end, exactly as a live run prints them.
            session.pointee.advance(to: time, emit: emit)
            finished = true
            return .stop
        }
        return output.readerGone ? .stop : .proceed(until: session.pointee.nextDeadline)
    }
}
