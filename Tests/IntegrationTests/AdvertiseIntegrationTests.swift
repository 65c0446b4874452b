import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// `beacon advertise` on emulated controllers: heard by `beacon range` and by
/// bumble's own scanner on another controller, and checked against the
/// controller's own state on the legacy path. Each test has its own rig, so
/// they run in parallel.
///
/// bumble's legacy advertiser only puts connectable ADV_IND on air, while its
/// extended advertising sets go on air whatever their properties; so what is
/// heard over the virtual radio is tested on extended-capable controllers and
/// the legacy path by reading the controller's state.
///
/// Whether something is heard is decided by a count of advertisements or by
/// beacon's printed times, never by how many a span of wall-clock time brought.
@Suite(
    "beacon advertise against emulated controllers",
    .enabled(if: IntegrationGate.isEnabled, IntegrationGate.reason),
    // A hang guard for each test, waiting for its emulator slot included.
    .timeLimit(.minutes(5)))
struct AdvertiseIntegrationTests {
    /// One advertisement beacon is asked for, and the bytes it must put on air.
    struct Case: CustomTestStringConvertible, Sendable {
        let arguments: [String]
        let major: Int
        let minor: Int
        let measuredPower: Int
        /// The manufacturer-specific AD structure's value (company id onwards).
        let manufacturerData: String
        /// The full advertising data: the flags AD structure, then the manufacturer-specific one.
        var advertisingData: String {
            "020106"      // flags (length 2, type 0x01): LE General Discoverable, BR/EDR not supported
            + "1AFF"      // manufacturer specific (length 26, type 0xFF)
            + manufacturerData
        }
        var testDescription: String { arguments.joined(separator: " ") }
    }

    /// The test beacon with the defaults: major 1, minor 2, measured power -59.
    static let standard = Case(
        arguments: ["--major", "1", "--minor", "2"], major: 1, minor: 2, measuredPower: -59,
        manufacturerData: "4C00"                         // Apple, 0x004C little-endian
            + "0215"                                     // iBeacon type 0x02, 21 bytes follow
            + "E2C56DB5DFFB48D2B060D0F5A71096E0"         // proximity UUID, big-endian
            + "0001" + "0002"                            // major 1, minor 2, big-endian
            + "C5")                                      // measured power -59 dBm (signed byte)

    static let cases: [Case] = [
        standard,
        Case(arguments: ["--major", "1", "--minor", "2", "--measured-power", "-65"],
             major: 1, minor: 2, measuredPower: -65,
             manufacturerData: "4C00" + "0215" + "E2C56DB5DFFB48D2B060D0F5A71096E0"
                + "0001" + "0002"
                + "BF"),                                 // measured power -65 dBm
        Case(arguments: ["--major", "0", "--minor", "0"], major: 0, minor: 0, measuredPower: -59,
             manufacturerData: "4C00" + "0215" + "E2C56DB5DFFB48D2B060D0F5A71096E0"
                + "0000" + "0000"                        // major 0, minor 0: real values, sent as such
                + "C5"),
    ]

    // MARK: - Extended path, ranged by beacon

    @Test("extended commands: beacon range enters and ranges it, then exits after SIGINT stops it")
    func rangedByBeacon() async throws {
        try await BumbleRig.with(extended: true) { rig in
            let advertiser = try Self.startAdvertiser(rig.specs[0], Self.standard.arguments)
            let started = try await Self.advertisingLine(of: advertiser)
            #expect(started.commands == "extended")
            #expect(started.data == Self.standard.advertisingData)
            #expect(started.uuid == TestBeacon.uuid)
            #expect(started.major == 1 && started.minor == 2 && started.measuredPower == -59)
            #expect(started.intervalMs == 100 && started.connectable == false)

            let capture = rig.scratch.appendingPathComponent("ranger.btsnoop").path
            let ranger = try BeaconProcess.start(
                ["range", "--hci", rig.specs[1], "--uuid", TestBeacon.uuid, "--exit-after", "2s", "--record", capture],
                limit: HangGuard.processLimit)
            let enter = try await ranger.waitForLine(within: HangGuard.startUp, "enter line") {
                BeaconOutputLine.event(of: $0) == "enter"
            }
            let range = try await ranger.waitForLine(from: enter.index, within: HangGuard.step, "range line with a beacon") {
                BeaconOutputLine.event(of: $0) == "range" && $0.contains(TestBeacon.advertiserAddress)
            }
            let ranged = try #require(try BeaconOutputLine.decode([range.line]).first?.beacons?.first)
            #expect(ranged.uuid.uppercased() == TestBeacon.uuid)
            #expect(ranged.major == 1 && ranged.minor == 2)
            #expect(ranged.measuredPower == -59)
            #expect(ranged.address == TestBeacon.advertiserAddress && ranged.addressType == "public")

            advertiser.send(SIGINT)
            #expect(try await advertiser.waitForExit(within: HangGuard.step) == .exited(0),
                    "\(advertiser.failure("exit status"))")
            let lines = try AdvertiserOutputLine.decode(advertiser.stdoutLines)
            #expect(lines.map(\.event) == ["advertising", "stopped"])
            #expect(lines.last?.reason == "signal")
            let stopped = try #require(advertiser.stdoutLines.last)

            // Advertising really is off: the ranger stops hearing it and exits the region, --exit-after
            // after the last report it heard.
            try await ranger.waitForExitLine(from: range.index, notBefore: try PrintedEvent.milliseconds(of: stopped))
            ranger.send(SIGINT)
            #expect(try await ranger.waitForExit(within: HangGuard.step) == .exited(0))
            try RangerTimeline(output: ranger.stdoutLines, capture: capture)
                .expectExitAfterSilence(exitAfter: .seconds(2), interval: .seconds(1))
            try await expectValidOutput(advertiser.stdoutLines)
            try await expectValidOutput(ranger.stdoutLines)
        }
    }

    // MARK: - Our bytes, as bumble's own host stack hears them

    @Test("bumble's scanner hears exactly the advertised bytes", arguments: cases)
    func heardByBumble(_ advertised: Case) async throws {
        try await BumbleRig.with(extended: true) { rig in
            let advertiser = try Self.startAdvertiser(rig.specs[0], advertised.arguments)
            let started = try await Self.advertisingLine(of: advertiser)
            #expect(started.data == advertised.advertisingData)
            #expect(started.major == advertised.major && started.minor == advertised.minor)
            #expect(started.measuredPower == advertised.measuredPower)

            // Several in a row, each exactly as asked for.
            let heard = try await rig.scan(on: 1, count: 3)
            #expect(heard.count >= 3, "the scanner stopped after \(heard.count) advertisements without hearing 3")
            for advertisement in heard {
                #expect(advertisement.address == TestBeacon.advertiserAddress)
                #expect(advertisement.addressType == "public")
                #expect(advertisement.data == advertised.advertisingData)
                #expect(advertisement.manufacturerData == [advertised.manufacturerData])
                #expect(advertisement.ibeacon == ScannedAdvertisement.IBeaconFields(
                    uuid: TestBeacon.uuid, major: advertised.major, minor: advertised.minor,
                    measuredPower: advertised.measuredPower))
            }

            advertiser.send(SIGINT)
            #expect(try await advertiser.waitForExit(within: HangGuard.step) == .exited(0))
            try await expectValidOutput(advertiser.stdoutLines)
        }
    }

    // MARK: - Stopping

    @Test("a signal turns advertising off on the controller, prints stopped and exits 0",
          arguments: [SIGINT, SIGTERM])
    func stopsOnSignal(_ signal: Int32) async throws {
        try await BumbleRig.with(extended: true) { rig in
            let advertiser = try Self.startAdvertiser(rig.specs[0], Self.standard.arguments)
            _ = try await Self.advertisingLine(of: advertiser)
            let before = try await rig.scan(on: 1, count: 1).filter { $0.address == TestBeacon.advertiserAddress }
            #expect(!before.isEmpty, "not heard while advertising")

            advertiser.send(signal)
            #expect(try await advertiser.waitForExit(within: HangGuard.step) == .exited(0),
                    "\(advertiser.failure("exit status"))")
            let lines = try AdvertiserOutputLine.decode(advertiser.stdoutLines)
            #expect(lines.map(\.event) == ["advertising", "stopped"])
            #expect(lines.last?.reason == "signal")
            #expect(advertiser.stderrLines.isEmpty, "stderr: \(advertiser.stderrLines)")

            // A controller keeps advertising after its host disconnects, so
            // silence here means beacon turned advertising off.
            let after = try await rig.scan(on: 1, seconds: 1).filter { $0.address == TestBeacon.advertiserAddress }
            #expect(after.isEmpty, "still heard \(after.count) advertisements after beacon stopped")
            try await expectValidOutput(advertiser.stdoutLines)
        }
    }

    /// beacon's command timeout (docs/troubleshooting.md, exit code 76: "did not answer (3 s per command)").
    static let commandTimeout = 3.0

    @Test("--duration 2 stops by itself after two seconds with reason duration")
    func stopsAfterDuration() async throws {
        try await BumbleRig.with(extended: true) { rig in
            let advertiser = try await BeaconProcess.run(
                ["advertise", "--hci", rig.specs[0], "--uuid", TestBeacon.uuid, "--duration", "2"]
                    + Self.standard.arguments,
                timeout: HangGuard.step)
            #expect(advertiser.termination == .exited(0), "\(advertiser.failure("exit status"))")
            let lines = try AdvertiserOutputLine.decode(advertiser.stdoutLines)
            #expect(lines.map(\.event) == ["advertising", "stopped"])
            let started = try #require(lines.first)
            let stopped = try #require(lines.last)
            #expect(stopped.reason == "duration")
            // Both times are beacon's: the answers to its enable and to its last cleanup command. Not before
            // the two seconds; and within them plus what stopping may take while still exiting 0: the
            // cleanup's two commands (disable, remove the set) each answered inside the 3 s command
            // timeout, and a third timeout of slack for waking at the deadline on a busy machine. A
            // --duration misread by any factor of ten lands outside.
            let elapsed = try stopped.date().timeIntervalSince(try started.date())
            #expect(elapsed >= 2 && elapsed < 2 + 3 * Self.commandTimeout, "stopped \(elapsed) s after advertising started")
            let after = try await rig.scan(on: 1, seconds: 1).filter { $0.address == TestBeacon.advertiserAddress }
            #expect(after.isEmpty, "still heard \(after.count) advertisements after --duration ended")
            try await expectValidOutput(advertiser.stdoutLines)
        }
    }

    @Test("stock bumble controllers do not list extended advertising: beacon uses the legacy commands")
    func stockControllerIsLegacy() async throws {
        try await BumbleRig.with([.tcp]) { rig in
            let advertiser = try await BeaconProcess.run(
                ["advertise", "--hci", rig.specs[0], "--uuid", TestBeacon.uuid, "--duration", "0.5"]
                    + Self.standard.arguments,
                timeout: HangGuard.step)
            #expect(advertiser.termination == .exited(0), "\(advertiser.failure("exit status"))")
            let lines = try AdvertiserOutputLine.decode(advertiser.stdoutLines)
            #expect(lines.first?.commands == "legacy")
            #expect(lines.first?.data == Self.standard.advertisingData)
            try await expectValidOutput(advertiser.stdoutLines)
        }
    }

    // MARK: - Legacy path, against the controller's own state

    /// A legacy run and what the controller must hold while it advertises.
    struct LegacyCase: CustomTestStringConvertible, Sendable {
        let arguments: [String]
        /// Advertising_Type (Core Vol 4 Part E 7.8.5): 0 ADV_IND, 3 ADV_NONCONN_IND.
        let type: Int
        /// Advertising_Interval_Min and _Max, 0.625 ms slots.
        let intervalSlots: Int
        let signal: String
        var testDescription: String { (arguments + ["then SIG" + signal]).joined(separator: " ") }
    }

    static let legacyCases: [LegacyCase] = [
        LegacyCase(arguments: [], type: 3, intervalSlots: 160, signal: "INT"),            // 100 ms default
        LegacyCase(arguments: ["--connectable", "--interval", "250ms"], type: 0, intervalSlots: 400, signal: "TERM"),
    ]

    @Test("--legacy: the controller holds the type, interval and data, enabled, then disabled", arguments: legacyCases)
    func legacyControllerState(_ legacy: LegacyCase) async throws {
        let data = Self.standard.advertisingData
        // Each of its three steps (advertising line, stopped line, exit) is bounded by --timeout.
        let step = HangGuard.step.components.seconds
        let (checker, termination) = try await EmulatorSlots.shared.run {
            let checker = try ChildProcess(
                name: "legacy_advertiser_check",
                executable: ProjectPaths.python,
                arguments: [ProjectPaths.tool("legacy_advertiser_check.py"),
                            "--beacon", BeaconProcess.binaryPath,
                            "--expect-type", String(legacy.type),
                            "--expect-interval", String(legacy.intervalSlots),
                            "--expect-data", data, "--signal", legacy.signal, "--timeout", String(step),
                            "--", "--uuid", TestBeacon.uuid] + Self.standard.arguments + legacy.arguments,
                limit: HangGuard.processLimit)
            return (checker, try await checker.waitForExit(within: HangGuard.startUp + .seconds(3 * step)))
        }
        let report = try #require(checker.stdoutLines.last, "\(checker.failure("no report"))")
        #expect(termination == .exited(0), "\(report)\n\(checker.stderrLines.joined(separator: "\n"))")

        struct Report: Decodable {
            struct State: Decodable {
                let type: Int
                let intervalMin: Int
                let intervalMax: Int
                let data: String
                let enabled: Bool
                let extendedSets: Int
            }
            let problems: [String]
            let during: State?
            let after: State?
            let exitStatus: Int?
            let stdout: [String]
            let commands: [String]
        }
        let decoded = try JSONDecoder().decode(Report.self, from: Data(report.utf8))
        #expect(decoded.problems.isEmpty, "\(decoded.problems)")
        let during = try #require(decoded.during)
        #expect(during.type == legacy.type)
        #expect(during.intervalMin == legacy.intervalSlots && during.intervalMax == legacy.intervalSlots)
        #expect(during.data == data)
        #expect(during.enabled)
        #expect(during.extendedSets == 0, "legacy run created an extended advertising set")
        #expect(decoded.after?.enabled == false)
        #expect(decoded.exitStatus == 0)
        // Disable first, then parameters and data, then enable; disable again at the end.
        let advertising = decoded.commands.filter { $0.hasPrefix("HCI_LE_SET_ADVERTISING") }
        #expect(advertising == [
            "HCI_LE_SET_ADVERTISING_ENABLE_COMMAND", "HCI_LE_SET_ADVERTISING_PARAMETERS_COMMAND",
            "HCI_LE_SET_ADVERTISING_DATA_COMMAND", "HCI_LE_SET_ADVERTISING_ENABLE_COMMAND",
            "HCI_LE_SET_ADVERTISING_ENABLE_COMMAND",
        ])
        let lines = try AdvertiserOutputLine.decode(decoded.stdout)
        #expect(lines.map(\.event) == ["advertising", "stopped"])
        #expect(lines.first?.commands == "legacy")
        #expect(lines.first?.connectable == (legacy.type == 0))
        #expect(lines.last?.reason == "signal")
        try await expectValidOutput(decoded.stdout)
    }

    // MARK: - Helpers

    /// Starts `beacon advertise` on `spec` for the test beacon's UUID with `arguments`.
    static func startAdvertiser(_ spec: String, _ arguments: [String]) throws -> ChildProcess {
        try BeaconProcess.start(["advertise", "--hci", spec, "--uuid", TestBeacon.uuid] + arguments,
                                limit: HangGuard.processLimit)
    }

    /// Waits for the advertiser's `advertising` line and decodes it.
    static func advertisingLine(of advertiser: ChildProcess) async throws -> AdvertiserOutputLine {
        let line = try await advertiser.waitForLine(within: HangGuard.startUp, "advertising line") {
            BeaconOutputLine.event(of: $0) == "advertising"
        }
        return try #require(try AdvertiserOutputLine.decode([line.line]).first)
    }
}
