import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// `beacon range` against bumble's iBeacon advertiser on emulated controllers:
/// controller 0 advertises through bumble's own host stack, beacon ranges on
/// controller 1. Each test has its own rig, so they run in parallel. Runs end
/// on what beacon printed (then SIGINT), never after a span of wall-clock time
/// within which the emulated radio had to deliver.
@Suite(
    "beacon range against emulated controllers",
    .enabled(if: IntegrationGate.isEnabled, IntegrationGate.reason),
    // A hang guard for each test, waiting for its emulator slot included.
    .timeLimit(.minutes(5)))
struct RangeIntegrationTests {
    private static let uuid = TestBeacon.uuid

    // MARK: - Live ranging over each transport

    @Test("ranges bumble's iBeacon: state, enter, then range lines", arguments: [ControllerLink.tcp, .unix, .pty])
    func rangesAdvertiser(link: ControllerLink) async throws {
        try await BumbleRig.with([.tcp, link]) { rig in
            let advertiser = try await rig.advertise(
                on: 0, uuid: Self.uuid, major: TestBeacon.major, minor: TestBeacon.minor,
                measuredPower: TestBeacon.measuredPower)
            let beacon = try await Self.rangeUntilRanged(["range", "--hci", rig.specs[1], "--uuid", Self.uuid])
            await advertiser.stop()

            #expect(beacon.termination == .exited(0), "\(beacon.failure("exit status"))")
            try Self.expectStateEnterRange(try BeaconOutputLine.decode(beacon.stdoutLines))
            try await expectValidOutput(beacon.stdoutLines)
        }
    }

    // MARK: - Exit when the beacon goes away

    @Test("reports exit once the advertiser stops, after --exit-after")
    func reportsExit() async throws {
        try await BumbleRig.with { rig in
            let capture = rig.scratch.appendingPathComponent("exit.btsnoop").path
            let advertiser = try await rig.advertise(
                on: 0, uuid: Self.uuid, major: TestBeacon.major, minor: TestBeacon.minor)
            let beacon = try BeaconProcess.start(
                ["range", "--hci", rig.specs[1], "--uuid", Self.uuid, "--exit-after", "2s", "--record", capture],
                limit: HangGuard.processLimit)
            let enter = try await beacon.waitForLine(within: HangGuard.startUp, "enter line") {
                BeaconOutputLine.event(of: $0) == "enter"
            }
            try await beacon.waitForLine(from: enter.index, within: HangGuard.step, "range line with a beacon") {
                BeaconOutputLine.event(of: $0) == "range" && $0.contains(TestBeacon.advertiserAddress)
            }

            await advertiser.stop() // SIGTERM: bumble turns advertising off, prints stopped, then exits
            #expect(advertiser.termination == .exited(0))
            let stopped = try #require(advertiser.stdoutLines.last { $0.contains(#""event":"stopped""#) },
                                       "\(advertiser.failure("no stopped line"))")
            try await beacon.waitForExitLine(from: enter.index, notBefore: try PrintedEvent.milliseconds(of: stopped))

            beacon.send(SIGINT)
            #expect(try await beacon.waitForExit(within: HangGuard.step) == .exited(0))
            let lines = try BeaconOutputLine.decode(beacon.stdoutLines)
            let exitIndex = try #require(lines.lastIndex { $0.event == "exit" })
            #expect(lines[exitIndex].region?.uuid.uppercased() == Self.uuid)
            try RangerTimeline(output: beacon.stdoutLines, capture: capture)
                .expectExitAfterSilence(exitAfter: .seconds(2), interval: .seconds(1))
            try await expectValidOutput(beacon.stdoutLines)
        }
    }

    // MARK: - Capture, btmon and replay

    @Test("--record writes a capture btmon reads and replay reproduces")
    func recordsAndReplays() async throws {
        try await BumbleRig.with { rig in
            let capture = rig.scratch.appendingPathComponent("live.btsnoop").path
            let advertiser = try await rig.advertise(
                on: 0, uuid: Self.uuid, major: TestBeacon.major, minor: TestBeacon.minor)
            let live = try await Self.rangeUntilRanged(
                ["range", "--hci", rig.specs[1], "--uuid", Self.uuid, "--record", capture])
            await advertiser.stop()
            #expect(live.termination == .exited(0), "\(live.failure("exit status"))")

            try #require(FileManager.default.fileExists(atPath: capture), "no capture at \(capture)")
            let size = try FileManager.default.attributesOfItem(atPath: capture)[.size] as? Int
            #expect((size ?? 0) > 16, "capture holds no more than a header")
            let btmonPath = try #require(Self.executableInPath("btmon"), "btmon not installed (make deps)")
            let btmon = try ChildProcess(name: "btmon -r", executable: btmonPath, arguments: ["-r", capture],
                                         limit: HangGuard.processLimit)
            #expect(try await btmon.waitForExit(within: HangGuard.step) == .exited(0), "\(btmon.failure("exit status"))")
            #expect(btmon.stdoutLines.contains { $0.contains("LE Extended Advertising Report") || $0.contains("LE Advertising Report") },
                    "btmon shows no LE advertising report")

            let replay = try await BeaconProcess.run(
                ["range", "--hci", "btsnoop:" + capture, "--uuid", Self.uuid], timeout: HangGuard.step)
            #expect(replay.termination == .exited(0), "\(replay.failure("exit status"))")

            let liveLines = try BeaconOutputLine.decode(live.stdoutLines)
            let replayLines = try BeaconOutputLine.decode(replay.stdoutLines)
            try Self.expectStateEnterRange(liveLines)
            let liveEnters = liveLines.filter { $0.event == "enter" }.map(Self.signature)
            let replayEnters = replayLines.filter { $0.event == "enter" }.map(Self.signature)
            #expect(replayEnters == liveEnters)
            // Range lines come from ticks at scheduled times, run by the packets' times or, live, by the
            // timer; every live tick has a later packet in the capture (the live run ended on a signal,
            // and the answer to its scan disable is recorded), so replay gives the live lines again.
            // Reports heard after the last live tick and before the signal make the replay end with a
            // partial range line of their own, which the live run, ended by the signal, never prints.
            let liveRanges = liveLines.filter { $0.event == "range" }.map(Self.signature)
            let replayRangeLines = replayLines.filter { $0.event == "range" }
            #expect(replayRangeLines.dropLast().allSatisfy { $0.partial == nil }, "a partial range line before the last")
            let replayRanges = replayRangeLines.filter { $0.partial == nil }.map(Self.signature)
            #expect(!replayRanges.isEmpty)
            #expect(replayRanges == liveRanges,
                    "live:\n\(liveRanges.joined(separator: "\n"))\nreplay:\n\(replayRanges.joined(separator: "\n"))")
            try await expectValidOutput(live.stdoutLines)
            try await expectValidOutput(replay.stdoutLines)
        }
    }

    // MARK: - No kernel controller

    @Test(
        "hci0 on a machine without Bluetooth: one error line, non-zero exit",
        .enabled(if: !FileManager.default.fileExists(atPath: "/sys/class/bluetooth/hci0"),
                 "this machine has a kernel Bluetooth controller hci0"))
    func kernelControllerMissing() async throws {
        let beacon = try await BeaconProcess.run(["range", "--hci", "hci0", "--uuid", Self.uuid],
                                                 timeout: HangGuard.step)
        #expect(beacon.termination != .exited(0))
        #expect(beacon.stderrLines.count == 1, "stderr: \(beacon.stderrLines)")
        let line = try #require(beacon.stderrLines.first)
        #expect(line.hasPrefix("Error: "))
        #expect(line.lowercased().contains("bluetooth"), "should mention Bluetooth support: \(line)")
        try await expectValidOutput(beacon.stdoutLines)
    }

    // MARK: - Helpers

    /// Runs `beacon` with `arguments` until it prints a range line listing the advertiser, then stops
    /// it with SIGINT and waits for it to exit.
    static func rangeUntilRanged(_ arguments: [String]) async throws -> ChildProcess {
        let beacon = try BeaconProcess.start(arguments, limit: HangGuard.processLimit)
        try await beacon.waitForLine(within: HangGuard.startUp, "range line with the advertiser") {
            BeaconOutputLine.event(of: $0) == "range" && $0.contains(TestBeacon.advertiserAddress)
        }
        beacon.send(SIGINT)
        try await beacon.waitForExit(within: HangGuard.step)
        return beacon
    }

    /// The first line is a state line for the region, an enter line follows, and after it come range
    /// lines showing the advertiser as bumble sent it: the first of them always (the report that entered
    /// the region belongs to its interval), the later ones unless an interval brought no report.
    static func expectStateEnterRange(
        _ lines: [BeaconOutputLine], sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let first = try #require(lines.first, "no output", sourceLocation: sourceLocation)
        #expect(first.event == "state", sourceLocation: sourceLocation)
        #expect(first.region?.uuid.uppercased() == uuid, sourceLocation: sourceLocation)
        let enter = try #require(lines.firstIndex { $0.event == "enter" }, "no enter line",
                                 sourceLocation: sourceLocation)
        #expect(lines[enter].region?.uuid.uppercased() == uuid, sourceLocation: sourceLocation)
        let ranges = lines[enter...].filter { $0.event == "range" }
        #expect(ranges.first?.beacons?.count == 1, "first range line after enter: \(String(describing: ranges.first))",
                sourceLocation: sourceLocation)
        for line in ranges {
            let beacons = line.beacons ?? []
            #expect(beacons.count <= 1, "\(beacons)", sourceLocation: sourceLocation)
            for beacon in beacons {
                #expect(beacon.uuid.uppercased() == uuid, sourceLocation: sourceLocation)
                #expect(beacon.major == TestBeacon.major, sourceLocation: sourceLocation)
                #expect(beacon.minor == TestBeacon.minor, sourceLocation: sourceLocation)
                #expect(beacon.measuredPower == TestBeacon.measuredPower, sourceLocation: sourceLocation)
                // A beacon just lost is listed within the tracking age with no samples and rssi 0.
                #expect(beacon.rssi == (beacon.samples == 0 ? 0 : TestBeacon.emulatedRSSI), sourceLocation: sourceLocation)
                #expect(beacon.address == TestBeacon.advertiserAddress, sourceLocation: sourceLocation)
                #expect(beacon.addressType == "public", sourceLocation: sourceLocation)
            }
        }
    }

    /// Event, time, region and beacon identities: what live and replay must share.
    static func signature(_ line: BeaconOutputLine) -> String {
        let region = line.region.map { "\($0.uuid.uppercased()):\($0.major ?? -1):\($0.minor ?? -1)" } ?? "-"
        let beacons = (line.beacons ?? []).map(\.identity).sorted().joined(separator: ", ")
        return "\(line.event) \(line.time) \(region) [\(beacons)]"
    }

    /// Full path of `name` on PATH (or in /usr/bin, /usr/sbin), if executable.
    static func executableInPath(_ name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        let directories = path.split(separator: ":").map(String.init) + ["/usr/bin", "/usr/sbin"]
        return directories
            .map { URL(fileURLWithPath: $0).appendingPathComponent(name).path }
            .first { FileManager.default.isExecutableFile(atPath: $0) }
    }
}
