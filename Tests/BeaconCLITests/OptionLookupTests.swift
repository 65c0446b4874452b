@testable import BeaconCLI
import BeaconCore
import Testing

/// Each command reads back every option it declares, and only those: given any one of its options, the
/// command's option parsing looks it up (a lookup of an option the command does not declare stops a
/// debug build, so every lookup these runs reach names a declared option too).
@Suite("option lookups")
struct OptionLookupTests {
    static let uuid = "E2C56DB5-DFFB-48D2-B060-D0F5A71096E0"

    /// A command: the smallest command line it accepts, and its option parsing.
    struct Command: Sendable, CustomStringConvertible {
        let help: CommandHelp
        let baseline: [String]
        let take: @Sendable (ParsedOptions) throws(UsageError) -> Void
        var description: String {
            guard let at = baseline.firstIndex(of: "--hci"), at + 1 < baseline.count else { return help.name }
            return "\(help.name) --hci \(baseline[at + 1])"
        }
    }

    static let commands: [Command] = [
        Command(help: RangeOptions.help, baseline: ["--uuid", uuid]) { parsed throws(UsageError) in
            _ = try RangeOptions(parsed, environment: [:])
        },
        Command(help: ScanOptions.help, baseline: []) { parsed throws(UsageError) in
            _ = try ScanOptions(parsed, environment: [:])
        },
        // Through the management interface, whose refusals (--record, --phy coded, --advertise-self) come
        // after the other options are read.
        Command(help: RangeOptions.help, baseline: ["--uuid", uuid, "--hci", "mgmt:0"]) { parsed throws(UsageError) in
            _ = try RangeOptions(parsed, environment: [:])
        },
        Command(help: ScanOptions.help, baseline: ["--hci", "mgmt:0"]) { parsed throws(UsageError) in
            _ = try ScanOptions(parsed, environment: [:])
        },
        Command(help: LocateOptions.help, baseline: ["--mqtt", "mqtt://localhost", "--site", "site.json"]) { parsed throws(UsageError) in
            _ = try LocateOptions(parsed, environment: [:])
        },
        Command(help: SurveyOptions.help, baseline: ["--mqtt", "mqtt://localhost", "--site", "site.json", "--beacon", "b", "--at", "1,2"]) {
            parsed throws(UsageError) in _ = try SurveyOptions(parsed, environment: [:])
        },
        Command(help: AdvertiseOptions.help, baseline: ["--uuid", uuid, "--major", "1", "--minor", "2"]) { parsed throws(UsageError) in
            _ = try AdvertiseOptions(parsed, environment: [:])
        },
        Command(help: CalibrateOptions.help, baseline: ["--uuid", uuid]) { parsed throws(UsageError) in
            _ = try CalibrateOptions(parsed, environment: [:])
        },
        Command(help: SimulateOptions.help, baseline: ["--scene", "walk-away", "--out", "scene.btsnoop"]) {
            parsed throws(UsageError) in _ = try SimulateOptions(parsed)
        },
    ]

    @Test("every subcommand with options is covered")
    func everyCommand() {
        let covered = Set(Self.commands.map(\.help.name))
        for subcommand in BeaconTool.subcommands where !subcommand.help.options.isEmpty {
            #expect(covered.contains(subcommand.help.name), "beacon \(subcommand.help.name)")
        }
    }

    @Test("a command's smallest command line is accepted, and each of its options read", arguments: commands)
    func baseline(_ command: Command) throws {
        let parsed = try ParsedOptions.parse(command.baseline, specs: command.help.options)
        try command.take(parsed)
        #expect(parsed.unread.isEmpty)
    }

    @Test("every option a command declares is looked up when given", arguments: commands)
    func everyOptionRead(_ command: Command) throws {
        let names = command.help.options.map(\.name)
        #expect(Set(names).count == names.count, "an option declared twice")
        let given = Set(command.baseline.filter { $0.hasPrefix("--") })
        for option in command.help.options where !given.contains("--\(option.name)") {
            // A value that some options take and others refuse: either way the command has to read it.
            let arguments = command.baseline + (option.takesValue ? ["--\(option.name)", "1"] : ["--\(option.name)"])
            let parsed = try ParsedOptions.parse(arguments, specs: command.help.options)
            do {
                try command.take(parsed)
                #expect(parsed.unread.isEmpty, "beacon \(command.help.name) \(arguments)")
            } catch {
                #expect(!parsed.unread.contains(option.name), "beacon \(command.help.name) \(arguments): \(error.message)")
            }
        }
    }

    @Test("an option given and not looked up is unread")
    func unread() throws {
        let parsed = try ParsedOptions.parse(["--active", "--interval", "2s"], specs: ScanOptions.help.options)
        #expect(parsed.unread == ["interval", "active"])
        #expect(parsed.has(ScanOptions.active))
        #expect(parsed.unread == ["interval"])
        #expect(parsed[ScanOptions.interval] == "2s")
        #expect(parsed.unread.isEmpty)
    }
}
