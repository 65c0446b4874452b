import BeaconCore
import BeaconTransport

/// `beacon scan`: list every beacon heard, of every supported format, until stopped.
struct ScanCommand: ControllerCommand {
    let options: ScanOptions
    let output: LineOutput
    private var scanning = Scanning()

    static func run(_ options: ScanOptions, console: Console, signals: SignalWatcher?) -> ExitCode {
        var command = ScanCommand(options: options, output: LineOutput(console: console))
        let code = ControllerConnection.run(&command, options.common, signals: signals, console: console)
        return command.output.finish(code)
    }

    mutating func run(_ host: HCIHost) throws(HostError) -> ExitCode? {
        try scanning.start(host, options.scan)
        var session = ScanSession(aggregator: ScanAggregator(interval: options.interval, each: options.each),
                                  filter: options.filter, duration: options.common.duration)
        let output = output
        try ListeningLoop.run(host, &session, output: output, emit: { line in
            let printed = line.onWallClock(host.wallTime)
            output.write(ScanLine.encode(printed), time: printed.time)
        })
        return nil
    }

    mutating func cleanUp(_ host: HCIHost, after failure: (any Error)?) throws(HostError) {
        try scanning.stop(host)
    }
}
