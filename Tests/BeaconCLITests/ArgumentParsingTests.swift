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
        #expect(parsed[specs[0]] == "A")
        #expect(parsed.all(specs[1]) == ["B", "C"])
        #expect(parsed.has(specs[2]))
        #expect(!parsed.helpRequested)
    }

    @Test("a negative number, and - alone, are values, not options")
    func negativeNumberIsValue() throws {
        let parsed = try ParsedOptions.parse(["--measured-power", "-59"], specs: specs)
        #expect(parsed[specs[3]] == "-59")
        #expect(try ParsedOptions.parse(["--uuid", "-"], specs: specs)[specs[0]] == "-")
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

@Suite("Range estimation options")
struct EstimatorOptionsTests {
    static let uuid = "E2C56DB5-DFFB-48D2-B060-D0F5A71096E0"

    func options(_ arguments: [String]) throws -> RangeOptions {
        try RangeOptions(ParsedOptions.parse(["--uuid", Self.uuid] + arguments, specs: RangeOptions.help.options), environment: [:])
    }

    @Test("without options, ranging uses the documented defaults")
    func defaults() throws {
        #expect(try options([]).estimator == RangingEstimator())
    }

    @Test("each option sets its part of the estimator")
    func eachOption() throws {
        let o = try options(["--rssi-filter", "median:5s", "--path-loss-exponent", "2.7", "--rssi-offset", "-4.5",
                             "--measured-power", "-62", "--tracking-age", "0", "--hysteresis", "0"])
        #expect(o.estimator.filter == .runningMedian(window: .seconds(5)))
        #expect(o.estimator.distance == .logDistance(exponent: 2.7))
        #expect(o.estimator.rssiOffset == -4.5)
        #expect(o.estimator.measuredPowerOverride == -62)
        #expect(o.estimator.trackingAge == Micros(0))
        #expect(o.estimator.proximity.margin == 0)
        #expect(try options(["--distance-model", "altbeacon"]).estimator.distance == .altBeacon)
        // Down to the lowest exponent beacon calibrate fits.
        #expect(try options(["--path-loss-exponent", "0.5"]).estimator.distance == .logDistance(exponent: 0.5))
        #expect(try options(["--distance-model", "log:0.6"]).estimator.distance == .logDistance(exponent: 0.6))
    }

    @Test("regions are named with --name and NAME=; an unnamed duplicate collapses, a name is kept")
    func names() throws {
        let o = try options(["--name", "door", "--region", "desk=\(Self.uuid):1", "--region", "\(Self.uuid):1"])
        #expect(o.regions.map(\.name) == ["door", "desk", nil])
        let uuid = try #require(BeaconUUID(Self.uuid))
        #expect(o.regions.map(\.constraint) == [.iBeacon(uuid: uuid, major: nil, minor: nil), .iBeacon(uuid: uuid, major: 1, minor: nil),
                                                .iBeacon(uuid: uuid, major: 1, minor: nil)])
        #expect(try options(["--region", "\(Self.uuid)", "--region", "\(Self.uuid)"]).regions.count == 1)
    }
}
