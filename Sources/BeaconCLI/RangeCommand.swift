import BeaconCore
import BeaconTransport

/// `beacon range`: monitor regions and range their beacons until stopped.
struct RangeCommand: ControllerCommand {
    let options: RangeOptions
    let output: LineOutput
    private var scanning = Scanning()

    static func run(_ options: RangeOptions, console: Console, signals: SignalWatcher?) -> ExitCode {
        let sinks: [any LineSink]
        do {
            sinks = try options.mqtt.map { options throws(SystemError) in [try MQTTSink(options, console: console)] } ?? []
        } catch {
            return Failure.report(error, console: console)
        }
        var command = RangeCommand(options: options, output: LineOutput(console: console, sinks: sinks))
        // A capture whose time leaps further than a region could stay inside unheard has a clock step in it.
        let code = ControllerConnection.run(&command, options.common, signals: signals, console: console,
                                            captureStepLimit: max(options.exitAfter, options.interval))
        return command.output.finish(code)
    }

    mutating func run(_ host: HCIHost) throws(HostError) -> ExitCode? {
        try scanning.start(host, options.scan)
        var session = RangeSession(monitor: RegionMonitor(regions: options.regions, exitAfter: options.exitAfter,
                                                          interval: options.interval, estimator: options.estimator),
                                   duration: options.common.duration)
        let output = output
        let progress = ReplayProgress(host.transport, console: output.console)
        defer { progress?.finish() }
        // Schedule times become wall-clock times only here, as each line is printed.
        func emit(_ line: MonitorOutput) {
            output.write(line.shifted(by: host.timeline.wallOffset))
        }
        while !output.readerGone {
            switch try host.next(until: session.nextDeadline) {
            case .packet(let packet, let direction, let time):
                progress?.packet()
                do {
                    try session.packet(packet, direction: direction, at: time, emit: emit)
                } catch {
                    output.warnMalformed(error)
                }
                if session.isFinished(at: time) {
                    // The ticks up to --duration's end, exactly as a live run prints them.
                    session.advance(to: time, emit: emit)
                    return nil
                }
            case .deadline(let time):
                session.advance(to: time, emit: emit)
                if session.isFinished(at: time) { return nil }
            case .end(.endOfCapture):
                session.finish(at: host.now(), emit: emit)
                return nil
            case .end(.outputGone), .signal:
                return nil
            }
        }
        return nil
    }

    mutating func cleanUp(_ host: HCIHost, after failure: (any Error)?) throws(HostError) {
        try scanning.stop(host)
    }
}
