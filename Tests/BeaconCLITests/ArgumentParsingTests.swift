@testable import BeaconCLI
import BeaconCore
import Testing

@Suite("Argument parsing")
struct ArgumentParsingTests {
    let specs = [
        OptionSpec("uuid", .value(placeholder: "uuid"), "u"),
        OptionSpec("region", .repeatedValue(placeholder: "region"), "r"),
        OptionSpec("active", .flag, "a"),
        OptionSpec("measured-power", .value(placeholder: "dBm"), "p"),
    ]

    @Test("values, inline values, repeated values and flags are collected")
    func collectsOptions() throws {
        let parsed = try ParsedOptions.parse(["--uuid", "A", "--region=B", "--region", "C", "--active"], specs: specs)
        #expect(parsed.value("uuid") == "A")
        #expect(parsed.all("region") == ["B", "C"])
        #expect(parsed.has("active"))
        #expect(!parsed.helpRequested)
    }

    @Test("a negative number, and - alone, are values, not options")
    func negativeNumberIsValue() throws {
        let parsed = try ParsedOptions.parse(["--measured-power", "-59"], specs: specs)
        #expect(parsed.value("measured-power") == "-59")
        #expect(try ParsedOptions.parse(["--uuid", "-"], specs: specs).value("uuid") == "-")
    }

    @Test("-h and --help anywhere ask for help")
    func helpAnywhere() throws {
        #expect(try ParsedOptions.parse(["--uuid", "A", "-h"], specs: specs).helpRequested)
        #expect(try ParsedOptions.parse(["--help"], specs: specs).helpRequested)
    }

    @Test("bad command lines are usage errors that name the problem", arguments: [
        (["--nope"], "Unknown option '--nope'"),
        (["--uuid"], "Missing value for '--uuid <uuid>'"),
        (["--uuid", "--active"], "Missing value for '--uuid <uuid>'"),
        (["--uuid", "A", "--uuid", "B"], "Option '--uuid' given more than once"),
        (["--active", "--active"], "Option '--active' given more than once"),
        (["--active=1"], "Option '--active' takes no value"),
        (["stray"], "Unexpected argument 'stray'"),
        (["-x"], "Unexpected argument '-x'"),
    ])
    func usageErrors(arguments: [String], message: String) {
        #expect(throws: UsageError(message)) { try ParsedOptions.parse(arguments, specs: specs) }
    }
}

@Suite("Durations")
struct DurationTextTests {
    @Test("plain seconds and suffixed forms", arguments: [
        ("3", 3_000_000), ("0.5", 500_000), ("500ms", 500_000), ("10s", 10_000_000), ("2m", 120_000_000),
        ("1h", 3_600_000_000), ("250us", 250), ("1.5s", 1_500_000), ("0", 0),
    ] as [(String, Int64)])
    func parses(text: String, micros: Int64) {
        #expect(DurationText.parse(text) == Micros(micros))
    }

    @Test("malformed durations are refused", arguments: ["", "s", "ms", "-1", "1.", ".5", "1..2", "5x", "1e3", "10 s", "400d", "9999999h"])
    func refuses(text: String) {
        #expect(DurationText.parse(text) == nil)
    }
}
