import BeaconCore
import BeaconTransport

/// `beacon range`: monitor regions and range their beacons until stopped.
enum RangeCommand {
    static func run(_ options: RangeOptions, console: Console, signals: SignalWatcher?) -> ExitCode {
        let connection: ControllerConnection
        do {
            connection = try ControllerConnection(options.common, signals: signals, console: console)
        } catch {
            return error.exit
        }
        let host = connection.host
        let monitor = RegionMonitor(regions: options.regions, exitAfter: options.exitAfter,
                                    interval: options.interval, estimator: options.estimator)
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
        var failure: (any Error)?
        do {
            if host.transport.isLive {
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
            failure = error
        }

        // Leave the controller as found, unless the connection to it is gone.
        if let commands, failure.map(Failure.controllerReachable) ?? true {
            do {
                try ControllerSetup.stopScanning(host, using: commands)
            } catch {
                failure = failure ?? error
            }
        }
        let exit = connection.close(after: failure, console: console)
        output.finish()
        return exit
    }
}
