@testable import BeaconCLI
import BeaconCore
import Testing

@Suite("beacon locate --smoothing")
struct LocateSmoothingOptionTests {
    @Test("a smoothing that is not a duration from 0 to 60 s is a usage error", arguments: ["-1", "61s", "soon", ""])
    func outOfRange(value: String) {
        let io = CapturedConsole()
        #expect(io.run(["locate", "--mqtt", "mqtt://127.0.0.1:1/x", "--site", "site.json", "--smoothing", value]) == 64)
        #expect(io.stderr.first == "Error: Invalid value '\(value)' for '--smoothing <duration>': expected a duration from 0 to 60s such as 0, 3 or 2500ms")
    }

    @Test("the smoothing is the fuser's, 0 unless given", arguments: [(nil, Micros(0)), ("0", Micros(0)), ("2500ms", Micros.milliseconds(2500)), ("60s", Micros.seconds(60))])
    func parsed(value: String?, expected: Micros) throws {
        let arguments = ["--mqtt", "mqtt://127.0.0.1:1/x", "--site", "site.json"] + (value.map { ["--smoothing", $0] } ?? [])
        let options = try LocateOptions(try ParsedOptions.parse(arguments, specs: LocateOptions.help.options), environment: [:])
        #expect(options.settings.smoothing == expected)
    }
}
