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
        var finished = false
        // The schedule's latest tick, as lines print it (wall-clock time).
        func lastTick() -> Timestamp? { session.lastTick.map(host.wallTime) }
        while !output.readerGone, !finished {
            let event = try host.forEachPacket(until: session.nextDeadline) { packet, direction, time in
                progress?.packet()
                do {
                    try session.packet(packet, direction: direction, at: time, emit: emit, heard: heard)
                } catch {
                    output.warnMalformed(error)
                }
                output.stepEnded(lastTick: lastTick())
                if session.isFinished(at: time) {
                    // The ticks up to --duration's end, exactly as a live run prints them.
                    session.advance(to: time, emit: emit)
                    finished = true
                    return .stop
                }
                return output.readerGone ? .stop : .proceed(until: session.nextDeadline)
            }
            switch event {
            case .stopped:
                continue
            case .deadline(let time):
                session.advance(to: time, emit: emit)
                output.stepEnded(lastTick: lastTick())
                idle(time)
                if session.isFinished(at: time) { return true }
            case .endOfCapture:
                session.finish(at: host.now(), emit: emit)
                return false
            case .outputGone, .signal:
                return false
            }
        }
        return finished
    }
}
