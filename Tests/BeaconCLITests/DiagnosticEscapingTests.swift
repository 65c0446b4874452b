import Testing

@Suite("control characters in diagnostics")
struct DiagnosticEscapingTests {
    static let escape = "\u{1B}]0;owned\u{07}\u{1B}[2J"

    @Test("paths, --hci and BEACON_HCI values and option names reach stderr with their control characters escaped",
          arguments: [
              (["range", "--uuid", "E2C56DB5-DFFB-48D2-B060-D0F5A71096E0", "--hci", "btsnoop:/nonexistent/\(escape)"], [String: String]()),
              (["range", "--hci", "bogus\(escape)"], [:]),
              (["range"], ["BEACON_HCI": "bogus\(escape)"]),
              (["range", "--\(escape)"], [:]),
              (["\(escape)"], [:]),
          ])
    func escapedDiagnostics(arguments: [String], environment: [String: String]) {
        let io = CapturedConsole()
        #expect(io.run(arguments, environment: environment) != 0)
        #expect(!io.stderr.isEmpty)
        for line in io.stderr {
            #expect(!line.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F }, "\(line.debugDescription)")
        }
        #expect(io.stderr.contains { $0.contains(#"\x1B]0;owned\x07\x1B[2J"#) }, "\(io.stderr)")
    }

    @Test("a line break in an argument cannot forge a second diagnostic line")
    func lineBreakEscaped() {
        let io = CapturedConsole()
        #expect(io.run(["range", "--hci", "bogus\nError: forged"]) == 64)
        #expect(!io.stderr.contains { $0.hasPrefix("Error: forged") })
        #expect(io.stderr.first?.contains(#"bogus\x0AError: forged"#) == true, "\(io.stderr)")
    }
}
