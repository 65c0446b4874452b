@testable import BeaconCLI
import Testing

/// The man page and completions come from the option table: every subcommand and option is in each.
@Suite("man page and completions from the option table")
struct GeneratedFilesTests {
    func generate(_ arguments: [String]) -> String {
        let io = CapturedConsole()
        #expect(io.run(arguments) == 0)
        return io.stdout.joined(separator: "\n")
    }

    @Test("the man page has every subcommand, option and exit code, and the version")
    func manPage() {
        let page = generate(["generate-manpage"])
        #expect(page.hasPrefix(".TH BEACON 1 \(BeaconVersion.date) \"beacon \(BeaconVersion.number)\""))
        for subcommand in BeaconTool.subcommands {
            #expect(page.contains(".SS \(subcommand.help.name)\n"))
            for option in subcommand.help.options {
                #expect(page.contains("\\fB\\-\\-\(option.name)\\fR"), "--\(option.name) of \(subcommand.help.name)")
            }
        }
        for code in ExitCode.allCases { #expect(page.contains(".B \(code.rawValue)\n")) }
        #expect(!page.unicodeScalars.contains { !$0.isASCII }, "non-ASCII is escaped")
        #expect(!page.split(separator: "\n").contains { $0.hasPrefix(".") && !$0.hasPrefix(".TH") && $0.contains("--") })
    }

    @Test("the man page has FILES (the units' environment files) and EXAMPLES whose command lines parse")
    func manPageFilesAndExamples() throws {
        let page = generate(["generate-manpage"])
        let sections = page.split(separator: "\n").filter { $0.hasPrefix(".SH ") }
        #expect(sections.contains(".SH FILES") && sections.contains(".SH EXAMPLES"))
        #expect(page.contains(".I /etc/default/beacon\n") && page.contains(".I /etc/default/beacon-INSTANCE\n"))
        #expect(page.contains(".B BEACON_MQTT_PASSWORD\n"))
        for (_, example) in ManPage.examples {
            for command in example.replacing("\\\n", with: " ").split(separator: "\n") {
                let words = command.split(separator: " ").map(String.init).drop { $0.contains("=") }
                #expect(words.first == "beacon", "\(command)")
                let help = try #require(BeaconTool.subcommands.first { $0.help.name == words.dropFirst().first }?.help, "\(command)")
                #expect(throws: Never.self, "\(command)") { try ParsedOptions.parse(Array(words.dropFirst(2)), specs: help.options) }
            }
        }
    }

    @Test("bash, zsh and fish complete every subcommand and option", arguments: ["bash", "zsh", "fish"])
    func completions(shell: String) {
        let script = generate(["generate-completion", shell])
        for subcommand in BeaconTool.subcommands {
            #expect(script.contains(subcommand.help.name))
            for option in subcommand.help.options {
                let form = shell == "fish" ? "-l \(option.name)" : "--\(option.name)"
                #expect(script.contains(form), "\(shell): --\(option.name) of \(subcommand.help.name)")
            }
        }
        #expect(script.contains("btsnoop:") && script.contains("hci-user:"))
    }

    @Test("value completions follow the parsers' forms")
    func valueCompletions() {
        let range = RangeOptions.help.options
        #expect(range.first { $0.name == "hci" }?.completion == .controller)
        #expect(range.first { $0.name == "record" }?.completion == .files)
        #expect(range.first { $0.name == "rssi-filter" }?.completion == .words(["mean", "median", "trimmed", "arma", "kalman"]))
        #expect(range.first { $0.name == "distance-model" }?.completion == .words(["room", "log:", "altbeacon", "bleacon"]))
        #expect(range.first { $0.name == "uuid" }?.completion == ValueCompletion.none)
    }

    @Test("an unknown shell is a usage error")
    func unknownShell() {
        let io = CapturedConsole()
        #expect(io.run(["generate-completion", "tcsh"]) == 64)
        #expect(io.stderr.last == "Usage: beacon generate-manpage | beacon generate-completion bash|zsh|fish")
    }
}
