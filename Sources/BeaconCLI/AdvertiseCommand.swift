import BeaconCore
import BeaconTransport

/// `beacon advertise`: advertise an iBeacon until stopped, then turn advertising off.
enum AdvertiseCommand {
    static func run(_ options: AdvertiseOptions, console: Console, signals: SignalWatcher?) -> ExitCode {
        let connection: ControllerConnection
        do {
            connection = try ControllerConnection(options.common, signals: signals, console: console)
        } catch {
            return error.exit
        }
        let host = connection.host
        var output = LineOutput(console: console)
        var commands: LECommandSet?
        var failure: (any Error)?
        var cause = StopCause.signal
        var advertising = false
        do {
            let supported = try ControllerSetup.prepare(host)
            let chosen: LECommandSet = options.forceLegacy || !supported.hasExtendedAdvertising ? .legacy : .extended
            if chosen == .legacy {
                let version = try AdvertiserSetup.hciVersion(host)
                if options.plan.violatesLegacyFloor(hciVersion: version) {
                    console.diagnose("Error: this controller (HCI version \(version), before Bluetooth 5.0) refuses non-connectable advertising faster than 100ms; use --interval 100ms or more, or --connectable")
                    console.diagnose(AdvertiseOptions.help.usageLine)
                    _ = connection.close(after: nil, console: console)
                    return .usage
                }
            }
            commands = chosen
            let started = try AdvertiserSetup.start(host, options.plan, using: chosen)
            advertising = true
            output.write(OutputLine.encode(.advertising(plan: options.plan, started: started)))
            let end = options.common.duration.map { started.time + $0 }
            var finished = false
            _ = try host.run(
                deadline: { end },
                onTime: { now in if let end, now >= end { finished = true; cause = .duration } },
                shouldStop: { finished || output.readerGone })
        } catch .interrupted {
            // A signal during bring-up: only cleanup is left.
        } catch {
            failure = error
        }

        // Leave the controller as found, unless the connection to it is gone.
        if let commands, failure.map(Failure.controllerReachable) ?? true {
            do {
                let stoppedAt = try AdvertiserSetup.stop(host, using: commands)
                // `stopped` answers `advertising`: a signal during bring-up stopped nothing that had started.
                if failure == nil, advertising {
                    output.write(OutputLine.encode(.stopped(time: stoppedAt, reason: cause)))
                }
            } catch {
                failure = failure ?? error
            }
        }
        return connection.close(after: failure, console: console)
    }
}
