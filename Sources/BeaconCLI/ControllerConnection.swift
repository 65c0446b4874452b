import BeaconCore
import BeaconTransport

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

    /// Opens the controller and the recording; a failure is reported (one error line) before it is thrown.
    init(_ common: CommonOptions, signals: SignalWatcher?, console: Console) throws(OpenFailure) {
        do {
            transport = try openTransport(common.transport, btsnoopIndex: common.captureIndex)
        } catch {
            let code = Failure.report(error, console: console)
            // A capture file that cannot be opened is missing input, not a missing controller.
            if case .btsnoop = common.transport, code == .unavailable || code == .noPermission { throw OpenFailure(exit: .noInput) }
            throw OpenFailure(exit: code)
        }
        do {
            recorder = try common.recordPath.map { path throws(TransportError) in try BtsnoopRecorder(path: path) }
        } catch {
            transport.close()
            throw OpenFailure(exit: Failure.report(error, console: console))
        }
        host = HCIHost(transport: transport, recorder: recorder, signals: signals, output: console.outputDescriptor)
    }

    /// For a btmon capture holding several controllers: which one was replayed and how to pick another.
    var captureControllersNote: String? {
        guard let replay = transport as? BtsnoopReplayTransport, replay.datalink == .linuxMonitor,
              let selected = replay.selectedIndex else { return nil }
        let seen = replay.controllerIndexes
        let names = seen.map { "hci\($0)" }.joined(separator: ", ")
        if !seen.contains(selected) {
            return "Warning: the capture has no packets of controller hci\(selected)" + (seen.isEmpty ? "" : "; it has \(names)")
        }
        guard seen.count > 1 else { return nil }
        return "Warning: the capture has controllers \(names); replayed hci\(selected) (choose another with --index)"
    }

    /// Completes the recording and closes the transport. `failure` is what ended the run, if anything:
    /// the first failure is the one reported, so a recording that cannot be completed is reported only
    /// when nothing else was.
    func close(after failure: (any Error)?, console: Console) -> ExitCode {
        if let note = captureControllersNote { console.diagnose(note) }
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
