@testable import BeaconCLI
import Testing

@Suite("help fitted to the terminal, and each command's own exit codes")
struct HelpWrappingTests {
    @Test("a long line breaks between words, continuing at the indent given; a short one is left alone")
    func wraps() {
        #expect(TextWrapping.wrap("  --a   one two three four", width: 16, indent: 8)
                == ["  --a   one two", "        three", "        four"])
        #expect(TextWrapping.wrap("short line", width: 80, indent: 4) == ["short line"])
        #expect(TextWrapping.wrap("a averyveryverylongword b", width: 10, indent: 2) == ["a", "  averyveryverylongword", "  b"])
    }

    @Test("every line of a text continues at its own indentation")
    func wrapsLines() {
        #expect(TextWrapping.wrapLines("Examples:\n    beacon range --uuid X --name N\n", width: 20)
                == "Examples:\n    beacon range\n    --uuid X --name\n    N\n")
    }

    @Test("the width: COLUMNS or the window's on a terminal, 80 for a file or pipe, never narrower than 40",
          arguments: [
              (true, "120", 100, 120), (true, nil, 100, 100), (true, "wide", 132, 132), (true, nil, nil, 80),
              (false, "120", 100, 80), (true, "10", nil, 40), (true, "0", 90, 90),
          ] as [(Bool, String?, Int?, Int)])
    func width(isTerminal: Bool, columns: String?, window: Int?, expected: Int) {
        #expect(TextWrapping.helpWidth(isTerminal: isTerminal, columnsVariable: columns, windowColumns: window) == expected)
    }

    @Test("every command's help fits 80 columns but for words longer than a line; options continue under their help column",
          arguments: BeaconTool.subcommands.map(\.help.name))
    func helpFits(command: String) {
        let lines = helpLines(command)
        for line in lines where line.count > 80 {
            #expect(!line.trimmingPrefix(while: { $0 == " " }).contains(" "), "\(line)")
        }
        let options = lines.drop { $0 != "OPTIONS:" }.dropFirst().prefix { !$0.isEmpty }
        for line in options where !line.hasPrefix("  -") {
            #expect(line.hasPrefix(String(repeating: " ", count: 8)), "\(line)")
        }
    }

    @Test("every command's discussion flows: a line breaks early only after a sentence or before an indented block",
          arguments: BeaconTool.subcommands.map(\.help.name))
    func discussionFlows(command: String) {
        let lines = helpLines(command)
        let discussion = Array(lines.drop { $0 != "OPTIONS:" }.drop { !$0.isEmpty }.dropFirst().prefix { !$0.hasSuffix("CODES:") })
        for (line, next) in zip(discussion, discussion.dropFirst())
        where !line.isEmpty && !next.isEmpty && !line.hasPrefix(" ") && !next.hasPrefix(" ") && !line.hasSuffix(".") && !line.hasSuffix(":") {
            let word = next.prefix { $0 != " " }
            #expect(line.count + 1 + word.count > 80, "\(line) / \(word)")
        }
    }

    /// `command --help`'s lines at the default width, blank ones kept.
    private func helpLines(_ command: String) -> [Substring] {
        let io = CapturedConsole()
        #expect(io.run([command, "--help"]) == 0)
        return io.stdout.joined(separator: "\n").split(separator: "\n", omittingEmptySubsequences: false)
    }

    @Test("help is wrapped to the console's width")
    func followsTheConsoleWidth() {
        let io = CapturedConsole()
        var console = io.console
        console.helpWidth = 60
        #expect(BeaconTool.run(arguments: ["range", "--help"], environment: [:], console: console, signals: nil) == 0)
        let lines = io.stdout.joined(separator: "\n").split(separator: "\n")
        #expect(lines.contains { $0.count > 50 })
        #expect(lines.allSatisfy { $0.count <= 60 || !$0.trimmingPrefix(while: { $0 == " " }).contains(" ") })
    }

    @Test("each command gives its own reasons: advertise has no --mqtt, version only prints, locate reads a site",
          arguments: [
              ("advertise", "69  no controller: no Bluetooth in the kernel, no such device, connection refused"),
              ("version", "0   printed"),
              ("version", "74  stdout could not be written"),
              ("locate", "65  the --site file is not a valid site, or the --survey file not a valid survey"),
              ("locate", "69  --mqtt without libmosquitto"),
              ("simulate", "66  the scene file or the --site file cannot be opened"),
              ("range", "66  the capture file (--hci btsnoop:FILE) cannot be opened"),
              ("scan", "69  no controller: no Bluetooth in the kernel, no such device, connection refused; or --mqtt without libmosquitto"),
          ])
    func exitCodeReasons(command: String, line: String) {
        let io = CapturedConsole()
        #expect(io.run([command, "--help"]) == 0)
        let text = io.stdout.joined(separator: "\n")
        let exitCodes = unwrapped(String(text[(text.range(of: "EXIT CODES:")?.upperBound ?? text.endIndex)...]))
        #expect(exitCodes.contains(unwrapped(line)), "\(exitCodes)")
        #expect(!(command == "advertise" && exitCodes.contains("--mqtt")))
    }
}
