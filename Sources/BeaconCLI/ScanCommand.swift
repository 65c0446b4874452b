import BeaconCore
import BeaconTransport

/// `beacon scan`: list every beacon heard, of every supported format, until stopped.
struct ScanCommand: ControllerCommand {
    let options: ScanOptions
    let output: LineOutput
    private var scanning = Scanning()

    static func run(_ options: ScanOptions, console: Console, signals: SignalWatcher?) -> ExitCode {
        var options = options
        Scanning.chooseManagement(&options.common, phys: options.phys, scanOptions: options.scanOptionsGiven,
                                  needsRaw: false, console: console)
        let sinks: [any LineSink]
        do {
            sinks = try options.mqtt.map { mqtt in
                [try ScanMQTTSink(mqtt, replay: options.common.isReplay, signals: signals, console: console)]
            } ?? []
        } catch {
            return Failure.report(error, console: console)
        }
        var command = ScanCommand(options: options, output: LineOutput(console: console, sinks: sinks))
        let code = ControllerConnection.run(&command, options.common, signals: signals, console: console)
        return command.output.finish(code)
    }

    mutating func run(_ host: HCIHost) throws(HostError) -> ExitCode? {
        if case .failure(let refusal) = try scanning.start(host, options.scan, phys: options.phys, formats: options.filter.formats,
                                                           diagnose: output.console.diagnose) {
            output.console.diagnose("Error: \(refusal)")
            return .unavailable
        }
        var session = ScanSession(aggregator: ScanAggregator(interval: options.interval, each: options.each),
                                  filter: options.filter, duration: options.common.duration)
        let output = output
        try ListeningLoop.run(host, &session, output: output, emit: { line in
            output.write(line.onWallClock(host.wallTime))
        })
        return nil
    }

    mutating func cleanUp(_ host: HCIHost, after failure: (any Error)?) throws(HostError) {
        try scanning.stop(host)
    }
}
