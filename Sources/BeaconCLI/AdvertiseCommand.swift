import BeaconCore
import BeaconTransport

/// `beacon advertise`: advertise an iBeacon until stopped, then turn advertising off.
enum AdvertiseCommand {
    static func run(_ options: AdvertiseOptions, console: Console, signals: SignalWatcher?) -> ExitCode {
        let transport: PacketTransport
        do {
            transport = try openTransport(options.common.transport)
        } catch {
            return Failure.report(error, console: console)
        }
        defer { transport.close() }
        let recorder: BtsnoopRecorder?
        do {
            recorder = try options.common.recordPath.map { try BtsnoopRecorder(path: $0) }
        } catch {
            return Failure.report(error, console: console)
        }
        let host = HCIHost(transport: transport, recorder: recorder, signals: signals)
        var output = LineOutput(console: console)
        var commands: LECommandSet?
        var exit = ExitCode.success
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
            exit = Failure.report(error, console: console)
        }

        if let commands, exit != .ioError {
            do {
                try AdvertiserSetup.stop(host, using: commands)
                // `stopped` answers `advertising`: a signal during bring-up stopped nothing that had started.
                if exit == .success, advertising {
                    output.write(OutputLine.encode(.stopped(time: Clock.now(), reason: cause)))
                }
            } catch {
                // After a failure the cleanup usually fails the same way: the first error is the one line.
                if exit == .success { exit = Failure.report(error, console: console) }
            }
        }
        do {
            try recorder?.close()
        } catch {
            if exit == .success { exit = Failure.report(error, console: console) }
        }
        return exit
    }
}
