import BeaconCore
import BeaconTransport

/// The `beacon` command line: dispatches to a subcommand and returns the process exit code.
public enum BeaconTool {
    /// The subcommands, in the order help, the man page and completions list them.
    static let subcommands: [Subcommand] = [
        Subcommand(RangeOptions.help, summary: "Monitor beacon regions and range the beacons inside them."),
        Subcommand(ScanOptions.help, summary: "List every beacon heard, of every supported format."),
        Subcommand(LocateOptions.help, summary: "Fuse several gateways' readings into each beacon's room and position."),
        Subcommand(SurveyOptions.help, summary: "Record what each gateway hears of a beacon at a known point, as survey lines."),
        Subcommand(AdvertiseOptions.help, summary: "Advertise as an iBeacon, AltBeacon or Eddystone beacon until stopped."),
        Subcommand(CalibrateOptions.help, summary: "Measure a beacon at a known distance, or fit a site's path-loss exponent."),
        Subcommand(DevicesCommand.help, summary: "List the kernel's Bluetooth controllers and the channels usable on each."),
        Subcommand(SimulateOptions.help, summary: "Write a simulated scene of beacons as a capture, with its ground truth."),
        Subcommand(VersionCommand.help, summary: "Print the version."),
    ]

    static let overview: String = {
        let width = 24
        let rows = subcommands.map { "  " + $0.help.name + String(repeating: " ", count: width - $0.help.name.count) + $0.summary }
        return """
        OVERVIEW: Advertise and range iBeacons through a Bluetooth controller's HCI, printing JSON lines.

        USAGE: beacon <subcommand> [<options>]

        OPTIONS:
          -V, --version           Show the version.
          -h, --help              Show help information.

        SUBCOMMANDS:
        \(rows.joined(separator: "\n"))

          See 'beacon help <subcommand>' for detailed help.
        """
    }()

    /// Runs `arguments` (without the program name). `signals` delivers SIGINT, SIGTERM, SIGHUP, ... to the run loop.
    public static func run(arguments: [String], environment: [String: String], console: Console,
                           signals: SignalWatcher?) -> Int32 {
        guard let first = arguments.first else {
            console.diagnose("Error: Missing expected subcommand")
            for line in overview.split(separator: "\n", omittingEmptySubsequences: false) { console.diagnose(String(line)) }
            return ExitCode.usage.rawValue
        }
        let rest = Array(arguments.dropFirst())
        switch first {
        case "-h", "--help":
            return console.print(TextWrapping.wrapLines(overview, width: console.helpWidth)).rawValue
        case "-V", "--version", "version":
            return runCommand(VersionCommand.help, rest, console: console) { _ throws(UsageError) in
                return { VersionCommand.run(console: console) }
            }
        case GeneratedFiles.manPageCommand, GeneratedFiles.completionCommand:
            return GeneratedFiles.run(first, rest, console: console)
        case "help":
            guard let name = rest.first else {
                return console.print(TextWrapping.wrapLines(overview, width: console.helpWidth)).rawValue
            }
            guard let help = subcommands.first(where: { $0.help.name == name })?.help else {
                return usageError(unknownSubcommand(name), usage: "Usage: beacon <subcommand> [<options>]", console: console)
            }
            return console.print(help.render(width: console.helpWidth)).rawValue
        case "range":
            return runCommand(RangeOptions.help, rest, console: console) { parsed throws(UsageError) in
                let options = try RangeOptions(parsed, environment: environment)
                return { RangeCommand.run(options, console: console, signals: signals) }
            }
        case "scan":
            return runCommand(ScanOptions.help, rest, console: console) { parsed throws(UsageError) in
                let options = try ScanOptions(parsed, environment: environment)
                return { ScanCommand.run(options, console: console, signals: signals) }
            }
        case "locate":
            return runCommand(LocateOptions.help, rest, console: console) { parsed throws(UsageError) in
                let options = try LocateOptions(parsed, environment: environment)
                return { LocateCommand.run(options, console: console, signals: signals) }
            }
        case "survey":
            return runCommand(SurveyOptions.help, rest, console: console) { parsed throws(UsageError) in
                let options = try SurveyOptions(parsed, environment: environment)
                return { SurveyCommand.run(options, console: console, signals: signals) }
            }
        case "advertise":
            return runCommand(AdvertiseOptions.help, rest, console: console) { parsed throws(UsageError) in
                let options = try AdvertiseOptions(parsed, environment: environment)
                return { AdvertiseCommand.run(options, console: console, signals: signals) }
            }
        case "calibrate":
            return runCommand(CalibrateOptions.help, rest, console: console) { parsed throws(UsageError) in
                let options = try CalibrateOptions(parsed, environment: environment)
                return { CalibrateCommand.run(options, console: console, signals: signals) }
            }
        case "devices":
            return runCommand(DevicesCommand.help, rest, console: console) { _ throws(UsageError) in
                return {
                    DevicesCommand.run(console: console, capabilities: ProcessCapabilities.current(), now: Clock.now,
                                       list: KernelControllers.list)
                }
            }
        case "simulate":
            return runCommand(SimulateOptions.help, rest, console: console) { parsed throws(UsageError) in
                let options = try SimulateOptions(parsed)
                try SimulateCommand.checkOutputs(options)
                return { SimulateCommand.run(options, console: console, signals: signals) }
            }
        default:
            return usageError(unknownSubcommand(first), usage: "Usage: beacon <subcommand> [<options>]", console: console)
        }
    }

    static func unknownSubcommand(_ name: String) -> UsageError {
        UsageError(NearestMatch.message("Unknown subcommand '\(name)'", typed: name,
                                        among: subcommands.map(\.help.name) + ["help"]))
    }

    /// Parses a subcommand's options (help wins over everything else), then runs what `prepare` returns.
    static func runCommand(_ help: CommandHelp, _ arguments: [String], console: Console,
                           prepare: (ParsedOptions) throws(UsageError) -> () -> ExitCode) -> Int32 {
        let command: () -> ExitCode
        do {
            let parsed = try ParsedOptions.parse(arguments, specs: help.options)
            if parsed.helpRequested {
                return console.print(help.render(width: console.helpWidth)).rawValue
            }
            command = try prepare(parsed)
            assert(parsed.unread.isEmpty, "beacon \(help.name) ignores \(parsed.unread.map { "--\($0)" })")
        } catch {
            return usageError(error, usage: help.usageLine, console: console)
        }
        return command().rawValue
    }

    static func usageError(_ error: UsageError, usage: String, console: Console) -> Int32 {
        console.diagnose("Error: \(error.message)")
        console.diagnose(usage)
        return ExitCode.usage.rawValue
    }
}
