import BeaconCore
import BeaconTransport

/// `beacon range`: monitor regions and range their beacons until stopped.
enum RangeCommand {
    static func run(_ options: RangeOptions, console: Console, signals: SignalWatcher?) -> ExitCode {
        let transport: PacketTransport
        do {
            transport = try openTransport(options.common.transport, btsnoopIndex: options.common.captureIndex)
        } catch {
            let code = Failure.report(error, console: console)
            // A capture file that cannot be opened is missing input, not a missing controller.
            if case .btsnoop = options.common.transport, code == .unavailable || code == .noPermission { return .noInput }
            return code
        }
        defer { transport.close() }
        let recorder: BtsnoopRecorder?
        do {
            recorder = try options.common.recordPath.map { try BtsnoopRecorder(path: $0) }
        } catch {
            return Failure.report(error, console: console)
        }

        let host = HCIHost(transport: transport, recorder: recorder, signals: signals)
        let monitor = RegionMonitor(regions: options.regions, exitAfter: options.exitAfter,
                                    interval: options.interval, model: DistanceModel())
        var session = RangeSession(monitor: monitor, duration: options.common.duration)
        var output = LineOutput(console: console)
        var finished = false
        let emit: (MonitorOutput) -> Void = { output.write(OutputLine.encode($0)) }
        host.observer = { packet, direction, time in
            do {
                try session.packet(packet, direction: direction, at: time, emit: emit)
            } catch {
                output.warnMalformed(error)
            }
            if session.isFinished(at: time) { finished = true }
        }

        var commands: LECommandSet?
        var exit = ExitCode.success
        do {
            if transport.isLive {
                let supported = try ControllerSetup.prepare(host)
                let chosen = LECommandSet.forScanning(supported)
                commands = chosen
                try ControllerSetup.startScanning(host, options.scan, using: chosen)
            }
            let reason = try host.run(
                deadline: { session.nextDeadline },
                onTime: { now in
                    session.advance(to: now, emit: emit)
                    if session.isFinished(at: now) { finished = true }
                },
                shouldStop: { finished || output.readerGone })
            // A replay that reached --duration (or the capture's end) still owes the ticks up to the end,
            // exactly as the live run printed them.
            if case .signal = reason {} else if let end = session.endTime {
                session.advance(to: end, emit: emit)
            }
        } catch .interrupted {
            // A signal during bring-up: nothing more to do than to clean up.
        } catch {
            exit = Failure.report(error, console: console)
        }

        // Leave the controller as found, unless the connection to it is gone.
        if let commands, exit != .ioError {
            do {
                try ControllerSetup.stopScanning(host, using: commands)
            } catch {
                if exit == .success { exit = Failure.report(error, console: console) }
            }
        }
        do {
            try recorder?.close()
        } catch {
            if exit == .success { exit = Failure.report(error, console: console) }
        }
        output.finish()
        return exit
    }
}
