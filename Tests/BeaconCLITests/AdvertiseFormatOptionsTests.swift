@testable import BeaconCLI
import BeaconCore
import Testing

/// Complete arguments for each format other than iBeacon.
private let altBeaconArguments = ["--format", "altbeacon", "--id1", "2F234454-CF6D-4A0F-ADF2-F4911BA9FFA6", "--id2", "1", "--id3", "0x0002"]
private let eddystoneUIDArguments = ["--format", "eddystone-uid", "--namespace", "edd1ebeac04e5defa017", "--instance", "0BDB87539B67"]
private let eddystoneURLArguments = ["--format", "eddystone-url", "--url", "https://www.example.com/"]

/// Arguments and the start of the error they give.
private let usageCases: [([String], String)] = [
    (["--format", "eddystone"], "Invalid value 'eddystone' for '--format <format>': expected ibeacon, altbeacon, eddystone-uid, eddystone-url"),
    (["--format", "altbeacon", "--uuid", appleUUID, "--major", "1", "--minor", "2"],
     "Option '--uuid' does not apply to --format altbeacon, which takes --id1, --id2, --id3, --company-id, --reserved, --measured-power"),
    (["--uuid", appleUUID, "--major", "1", "--minor", "2", "--namespace", "EDD1EBEAC04E5DEFA017"],
     "Option '--namespace' does not apply to --format ibeacon"),
    (["--uuid", appleUUID, "--major", "1", "--minor", "2", "--company-id", "1"], "Option '--company-id' does not apply to --format ibeacon"),
    (["--uuid", appleUUID, "--major", "1", "--minor", "2", "--tx-power-at-0m", "0"], "Option '--tx-power-at-0m' does not apply to --format ibeacon"),
    (eddystoneURLArguments + ["--id2", "1"], "Option '--id2' does not apply to --format eddystone-url, which takes --url, --measured-power, --tx-power-at-0m"),
    (eddystoneURLArguments + ["--namespace", "EDD1EBEAC04E5DEFA017"], "Option '--namespace' does not apply to --format eddystone-url"),
    (eddystoneUIDArguments + ["--url", "https://a"], "Option '--url' does not apply to --format eddystone-uid"),
    (eddystoneUIDArguments + ["--reserved", "1"], "Option '--reserved' does not apply to --format eddystone-uid"),
    (["--format", "altbeacon"], "Missing expected argument '--id1 <uuid>'"),
    (["--format", "altbeacon", "--id1", "2F234454-CF6D-4A0F-ADF2-F4911BA9FFA6"], "Missing expected argument '--id2 <id2>'"),
    (Array(altBeaconArguments.dropLast(2)), "Missing expected argument '--id3 <id3>'"),
    (["--format", "altbeacon", "--id1", "2F234454", "--id2", "1", "--id3", "2"], "Invalid value '2F234454' for '--id1 <uuid>'"),
    (altBeaconArguments + ["--company-id", "65536"], "Invalid value '65536' for '--company-id <id>': expected an integer in 0...65535"),
    (altBeaconArguments + ["--reserved", "256"], "Invalid value '256' for '--reserved <byte>': expected an integer in 0...255"),
    (altBeaconArguments + ["--measured-power", "21"], "expected an integer in -127...20"),
    (["--format", "eddystone-uid", "--instance", "0BDB87539B67"], "Missing expected argument '--namespace <hex>'"),
    (["--format", "eddystone-uid", "--namespace", "EDD1EBEAC04E5DEFA017"], "Missing expected argument '--instance <hex>'"),
    (["--format", "eddystone-uid", "--namespace", "EDD1EBEAC04E5DEFA0", "--instance", "0BDB87539B67"],
     "Invalid value 'EDD1EBEAC04E5DEFA0' for '--namespace <hex>': expected 20 hex digits (10 bytes)"),
    (["--format", "eddystone-uid", "--namespace", "EDD1EBEAC04E5DEFA017", "--instance", "0BDB87539B6G"],
     "Invalid value '0BDB87539B6G' for '--instance <hex>': expected 12 hex digits (6 bytes)"),
    (eddystoneUIDArguments + ["--measured-power", "-20"],
     "Invalid value '-20' for '--measured-power <dBm>': Eddystone carries the power at 0 m, 21 dBm here, which must be at most 20; expected -127...-21"),
    (eddystoneUIDArguments + ["--tx-power-at-0m", "21"], "Invalid value '21' for '--tx-power-at-0m <dBm>': expected an integer in -100...20"),
    (eddystoneUIDArguments + ["--tx-power-at-0m", "-101"], "expected an integer in -100...20"),
    (eddystoneUIDArguments + ["--tx-power-at-0m", "0", "--measured-power", "-41"],
     "'--measured-power' and '--tx-power-at-0m' both set the power an Eddystone frame carries; give one"),
    (["--format", "eddystone-url"], "Missing expected argument '--url <url>'"),
    (["--format", "eddystone-url", "--url", "www.example.com"],
     "Invalid value 'www.example.com' for '--url <url>': expected a URL starting with http:// or https://"),
    (["--format", "eddystone-url", "--url", "https://example.com/a b"],
     "Invalid value 'https://example.com/a b' for '--url <url>': character 22 (U+0020) is not printable ASCII; percent-encode it (%XX)"),
    (["--format", "eddystone-url", "--url", "https://exämple.com"], "character 11 (U+00E4) is not printable ASCII"),
    (["--format", "eddystone-url", "--url", "https://www.example.com/abcdefghijk"],
     "Invalid value 'https://www.example.com/abcdefghijk' for '--url <url>': encodes to 19 bytes after the scheme, and Eddystone-URL carries at most 17; use a shorter URL"),
]

/// `--format` and the options of each format (the suite's `options(_:)` parses a command line).
extension AdvertiseOptionsTests {
    @Test("without --format it is an iBeacon, as before")
    func iBeaconByDefault() throws {
        let parsed = try options(["--uuid", appleUUID, "--major", "1", "--minor", "2"])
        #expect(parsed.plan.beacon.format == .iBeacon)
        #expect(try options(["--format", "ibeacon", "--uuid", appleUUID, "--major", "1", "--minor", "2"]).plan == parsed.plan)
    }

    @Test("altbeacon: ID1, ID2, ID3, the Radius Networks company id, reserved 0 and -59 dBm by default")
    func altBeaconDefaults() throws {
        let parsed = try options(altBeaconArguments)
        #expect(Hex.encode(parsed.plan.advertisingData)
                == "0201061BFF1801BEAC2F234454CF6D4A0FADF2F4911BA9FFA600010002C500")
        #expect(parsed.plan.intervalSlots == 160 && !parsed.plan.connectable)
        let every = try options(altBeaconArguments + ["--company-id", "0x004C", "--reserved", "0xAB", "--measured-power", "-70"])
        guard case let .altBeacon(beacon) = every.plan.beacon else { Issue.record("not an AltBeacon"); return }
        #expect(beacon.companyID == 0x004C && beacon.reserved == 0xAB && beacon.referenceRSSI == -70)
        #expect(try options(altBeaconArguments + ["--company-id", "65535", "--reserved", "255"]).plan.advertisingData[5...6] == [0xFF, 0xFF])
    }

    @Test("eddystone-uid: namespace and instance in hex, power at 0 m from the measured power or given")
    func eddystoneUID() throws {
        let parsed = try options(eddystoneUIDArguments)
        #expect(Hex.encode(parsed.plan.advertisingData)
                == "0201060303AAFE1716AAFE00EEEDD1EBEAC04E5DEFA0170BDB87539B670000")
        let measured = try options(eddystoneUIDArguments + ["--measured-power", "-21"])
        #expect(measured.plan.advertisingData[12] == 20)
        let given = try options(eddystoneUIDArguments + ["--tx-power-at-0m", "-100"])
        #expect(given.plan.advertisingData[12] == UInt8(bitPattern: -100))
    }

    @Test("eddystone-url: the shortest encoding of the URL")
    func eddystoneURL() throws {
        let parsed = try options(eddystoneURLArguments + ["--connectable", "--interval", "1s"])
        #expect(Hex.encode(parsed.plan.advertisingData) == "0201060303AAFE0E16AAFE10EE016578616D706C6500")
        #expect(parsed.plan.connectable && parsed.plan.intervalSlots == 1600)
        #expect(try options(eddystoneURLArguments + ["--tx-power-at-0m", "0"]).plan.advertisingData[12] == 0)
    }

    @Test("bad --format arguments: one Error line naming the option and the format, the usage, exit 64", arguments: usageCases)
    func usageErrors(arguments: [String], message: String) {
        let io = CapturedConsole()
        #expect(io.run(["advertise", "--hci", "tcp:127.0.0.1:9"] + arguments) == 64)
        #expect(io.stderr.count == 2, "\(io.stderr)")
        #expect(io.stderr.first?.hasPrefix("Error: ") == true && io.stderr.first?.contains(message) == true, "\(io.stderr)")
        #expect(io.stderr.last?.hasPrefix("Usage: beacon advertise") == true)
        #expect(io.stdout.isEmpty)
    }

    @Test("help lists every format's options, and --format completes to the format names")
    func helpAndCompletion() throws {
        let io = CapturedConsole()
        #expect(io.run(["advertise", "--help"]) == 0)
        let help = unwrapped(io.stdout.joined(separator: "\n"))
        for (_, names) in AdvertiseOptions.formatOptions {
            for name in names { #expect(help.contains("--\(name) <"), "--\(name)") }
        }
        #expect(help.contains("--format <format>") && help.contains("(default: ibeacon)") && help.contains("(default: 0x0118)"))
        #expect(help.contains("--format eddystone-url --url <url>"))
        let format = try #require(AdvertiseOptions.help.options.first { $0.name == "format" })
        #expect(format.completion == .words(["ibeacon", "altbeacon", "eddystone-uid", "eddystone-url"]))
    }
}
