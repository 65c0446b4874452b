import BeaconCore
import BeaconTransport

/// A command that talks to a controller. `ControllerConnection.run` opens the controller, runs the
/// command, has it leave the controller as found, and closes: the same sequence for every command.
protocol ControllerCommand {
    /// Brings the controller up and runs the command's loop. Returns an exit code of its own (a usage
    /// error found only on the controller), or nil to exit by how the run ended.
    mutating func run(_ host: HCIHost) throws(HostError) -> ExitCode?
    /// Undoes what `run` changed on the controller; called after `run` returned or threw, unless the
    /// connection to the controller is gone. `failure` is what ended the run, if anything.
    mutating func cleanUp(_ host: HCIHost, after failure: (any Error)?) throws(HostError)
}

/// The transport, the optional `--record` capture and the host that a controller-facing command
/// works through, opened and closed in one place.
final class ControllerConnection {
    let host: HCIHost
    private let transport: PacketTransport
    private let recorder: BtsnoopRecorder?

    /// A failure to open, already reported on the console.
    struct OpenFailure: Error {
        let exit: ExitCode
    }

    /// Opens the controller, runs `command`, leaves the controller as found and closes.
    static func run(_ command: inout some ControllerCommand, _ common: CommonOptions, signals: SignalWatcher?,
                    console: Console) -> ExitCode {
        let connection: ControllerConnection
        do {
            connection = try ControllerConnection(common, signals: signals, console: console)
        } catch {
            return error.exit
        }
        var failure: (any Error)?
        var exit: ExitCode?
        do throws(HostError) {
            exit = try command.run(connection.host)
            if let cutShort = connection.replay?.cutShort { throw .transport(cutShort) }
        } catch .interrupted {
            // A signal during bring-up: only cleanup is left.
        } catch {
            failure = error
        }
        if failure.map(Failure.controllerReachable) ?? true {
            do {
                try command.cleanUp(connection.host, after: failure)
            } catch {
                failure = failure ?? error
            }
        }
        let closed = connection.close(after: failure, console: console)
        return exit ?? closed
    }

    /// Opens the controller and the recording; a failure is reported (one error line) before it is thrown.
    private init(_ common: CommonOptions, signals: SignalWatcher?, console: Console) throws(OpenFailure) {
        do {
            transport = try openTransport(common.transport, btsnoopIndex: common.captureIndex, recording: common.recordPath != nil,
                                          warn: console.diagnose)
        } catch {
            let code = Failure.report(error, console: console, origin: common.transportOrigin)
            // A capture file that cannot be opened is missing input, not a missing controller.
            if case .btsnoop = common.transport, code == .unavailable || code == .noPermission { throw OpenFailure(exit: .noInput) }
            throw OpenFailure(exit: code)
        }
        do {
            // A FIFO whose reader stops reading holds the run no longer than stdout would.
            let wait = WriteWait(signals: signals, deadline: console.outputDeadline)
            recorder = try common.recordPath.map { path throws(TransportError) in try BtsnoopRecorder(path: path, wait: wait) }
        } catch {
            transport.close()
            throw OpenFailure(exit: Failure.report(error, console: console))
        }
        host = HCIHost(transport: transport, recorder: recorder, signals: signals, output: console.outputDescriptor,
                       pacing: common.replayPacing, warn: console.diagnose)
        // A live run ends at --duration even while stdout does not take its lines (a replay's duration
        // is capture time, and a slow reader only slows it down).
        if transport.isLive, let duration = common.duration {
            console.outputDeadline.monotonic = Micros(Clock.monotonic().value &+ duration.value)
        }
        // A paced replay's lines go out when they are made, as a live run's do.
        if let replay, replay.streamDescriptor == nil, common.replayPacing == nil {
            console.lineBatching?.isEnabled = true
        }
    }

    private var replay: BtsnoopReplayTransport? { transport as? BtsnoopReplayTransport }

    /// For a btmon capture holding several controllers: which one was replayed and how to pick another.
    var captureControllersNote: String? {
        guard let replay, replay.datalink == .linuxMonitor,
              let selected = replay.selectedIndex else { return nil }
        let seen = replay.controllerIndexes
        // A few names, then a count: a capture may have cycled through thousands of indexes.
        let shown = 8
        let names = seen.prefix(shown).map { "hci\($0)" }.joined(separator: ", ")
            + (seen.count > shown ? " and \(seen.count - shown) more" : "")
        if !seen.contains(selected) {
            return "Warning: the capture has no packets of controller hci\(selected)" + (seen.isEmpty ? "" : "; it has \(names)")
        }
        guard seen.count > 1 else { return nil }
        return "Warning: the capture has controllers \(names); replayed hci\(selected) (choose another with --index)"
    }

    /// Completes the recording and closes the transport. `failure` is what ended the run, if anything:
    /// the first failure is the one reported, so a recording that cannot be completed is reported only
    /// when nothing else was.
    private func close(after failure: (any Error)?, console: Console) -> ExitCode {
        if let note = captureControllersNote { console.diagnose(note) }
        for line in host.warningSummaries { console.diagnose(line) }
        var exit = failure.map { Failure.report($0, console: console) } ?? .success
        do {
            try recorder?.close()
        } catch {
            if exit == .success { exit = Failure.report(error, console: console) }
        }
        transport.close()
        return exit
    }
}
