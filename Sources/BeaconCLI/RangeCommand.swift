import BeaconCore
import BeaconTransport

/// `beacon range`: monitor regions and range their beacons until stopped.
struct RangeCommand: ControllerCommand {
    let options: RangeOptions
    let output: LineOutput
    private var scanning = Scanning()
    private var selfAdvertising: SelfAdvertising?

    static func run(_ options: RangeOptions, console: Console, signals: SignalWatcher?) -> ExitCode {
        var options = options
        Scanning.chooseManagement(&options.common, phys: options.phys, scanOptions: options.scanOptionsGiven,
                                  needsRaw: options.selfBeacon != nil, console: console)
        if let path = options.siteFit {
            do {
                options.estimator.distance = .room(RoomPrior().narrowed(by: try SiteFitInput.read(path, console: console)))
            } catch {
                return error.exit
            }
        }
        let sinks: [any LineSink]
        do {
            sinks = try options.mqtt.map { mqtt in
                [try MQTTSink(mqtt, rssiOffset: options.estimator.rssiOffset, replay: options.common.isReplay,
                              signals: signals, console: console)]
            } ?? []
        } catch {
            return Failure.report(error, console: console)
        }
        var command = RangeCommand(options: options, output: LineOutput(console: console, sinks: sinks))
        command.selfAdvertising = options.selfBeacon.map(SelfAdvertising.init)
        let code = ControllerConnection.run(&command, options.common, signals: signals, console: console)
        return command.output.finish(code)
    }

    mutating func run(_ host: HCIHost) throws(HostError) -> ExitCode? {
        let supported: SupportedCommands?
        switch try scanning.start(host, options.scan, phys: options.phys, formats: Set(options.regions.map(\.format)),
                                  diagnose: output.console.diagnose) {
        case .success(let answer): supported = answer
        case .failure(let refusal):
            output.console.diagnose("Error: \(refusal)")
            return .unavailable
        }
        if var advertising = selfAdvertising, let supported, let commands = scanning.commands {
            let refusal = try advertising.start(host, supported: supported, scanning: commands, active: options.scan.active)
            selfAdvertising = advertising
            if let refusal {
                output.console.diagnose("Error: --advertise-self: \(refusal)")
                return .unavailable
            }
            output.console.diagnose("Advertising this gateway's own beacon \(advertising.plan.beaconID ?? "") (the site file's gateways[].beacon)")
        }
        var session = RangeSession(monitor: RegionMonitor(regions: options.regions, exitAfter: options.exitAfter,
                                                          interval: options.interval, estimator: options.estimator,
                                                          hashKey: .systemRandomKey()),
                                   duration: options.common.duration)
        let output = output
        // Heard beacons but none in the regions: said once on stderr, stdout stays data.
        var hint = NoMatchHint(regions: options.regions)
        // Schedule times become wall-clock times only here, as each line is printed.
        try ListeningLoop.run(host, &session, output: output, emit: { output.write($0, onWallClock: host.wallTime) },
                              heard: { sighting in
                                  // Once it has spoken or a region matched, the hint wants no more sightings.
                                  hint.note(sighting).map(output.console.diagnose)
                                  return !hint.isFinished
                              },
                              idle: { time in hint.check(at: time).map(output.console.diagnose) })
        return nil
    }

    mutating func cleanUp(_ host: HCIHost, after failure: (any Error)?) throws(HostError) {
        // Both are tried: the controller is left as found even when one of them fails.
        var firstFailure: HostError?
        do {
            try selfAdvertising?.stop(host)
        } catch {
            firstFailure = error
        }
        try scanning.stop(host)
        if let firstFailure { throw firstFailure }
    }
}
