import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// `beacon range` against bumble's iBeacon advertiser on emulated controllers:
/// controller 0 advertises through bumble's own host stack, beacon ranges on
/// controller 1. Each test has its own rig, so they run in parallel.
@Suite(
    "beacon range against emulated controllers",
    .enabled(if: IntegrationGate.isEnabled, IntegrationGate.reason),
    .timeLimit(.minutes(1)))
struct RangeIntegrationTests {
    private static let uuid = TestBeacon.uuid

    // MARK: - Live ranging over each transport

    @Test("ranges bumble's iBeacon: state, enter, then range lines", arguments: [ControllerLink.tcp, .unix, .pty])
    func rangesAdvertiser(link: ControllerLink) async throws {
        try await BumbleRig.with([.tcp, link]) { rig in
            let advertiser = try await rig.advertise(
                on: 0, uuid: Self.uuid, major: TestBeacon.major, minor: TestBeacon.minor,
                measuredPower: TestBeacon.measuredPower)
            let beacon = try await BeaconProcess.run(
                ["range", "--hci", rig.specs[1], "--uuid", Self.uuid, "--duration", "6"],
                timeout: .seconds(20))
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
            let advertiser = try await rig.advertise(
                on: 0, uuid: Self.uuid, major: TestBeacon.major, minor: TestBeacon.minor)
            let beacon = try BeaconProcess.start(
                ["range", "--hci", rig.specs[1], "--uuid", Self.uuid,
                 "--exit-after", "2s", "--duration", "25"],
                limit: .seconds(35))
            let enter = try await beacon.waitForLine(within: .seconds(10), "enter line") {
                BeaconOutputLine.event(of: $0) == "enter"
            }
            try await beacon.waitForLine(from: enter.index, within: .seconds(5), "range line with a beacon") {
                BeaconOutputLine.event(of: $0) == "range" && $0.contains(TestBeacon.advertiserAddress)
            }

            await advertiser.stop() // SIGTERM: bumble turns advertising off, then exits
            #expect(advertiser.termination == .exited(0))
            let stopped = ContinuousClock.now
            try await beacon.waitForLine(from: enter.index, within: .seconds(6), "exit line") {
                BeaconOutputLine.event(of: $0) == "exit"
            }
            let silence = ContinuousClock.now - stopped
            // Not before the 2 s without sightings (the last one came just before the stop).
            #expect(silence >= .milliseconds(1500), "exit after only \(silence)")

            beacon.send(SIGINT)
            #expect(try await beacon.waitForExit(within: .seconds(5)) == .exited(0))
            let lines = try BeaconOutputLine.decode(beacon.stdoutLines)
            let exitIndex = try #require(lines.firstIndex { $0.event == "exit" })
            #expect(lines[exitIndex].region?.uuid.uppercased() == Self.uuid)
            #expect(lines.firstIndex { $0.event == "enter" }.map { $0 < exitIndex } == true)
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
            let live = try await BeaconProcess.run(
                ["range", "--hci", rig.specs[1], "--uuid", Self.uuid, "--duration", "5", "--record", capture],
                timeout: .seconds(20))
            await advertiser.stop()
            #expect(live.termination == .exited(0), "\(live.failure("exit status"))")

            try #require(FileManager.default.fileExists(atPath: capture), "no capture at \(capture)")
            let size = try FileManager.default.attributesOfItem(atPath: capture)[.size] as? Int
            #expect((size ?? 0) > 16, "capture holds no more than a header")
            let btmonPath = try #require(Self.executableInPath("btmon"), "btmon not installed (make deps)")
            let btmon = try ChildProcess(name: "btmon -r", executable: btmonPath, arguments: ["-r", capture],
                                         limit: .seconds(20))
            #expect(try await btmon.waitForExit(within: .seconds(15)) == .exited(0), "\(btmon.failure("exit status"))")
            #expect(btmon.stdoutLines.contains { $0.contains("LE Extended Advertising Report") || $0.contains("LE Advertising Report") },
                    "btmon shows no LE advertising report")

            let replay = try await BeaconProcess.run(
                ["range", "--hci", "btsnoop:" + capture, "--uuid", Self.uuid], timeout: .seconds(20))
            #expect(replay.termination == .exited(0), "\(replay.failure("exit status"))")

            let liveLines = try BeaconOutputLine.decode(live.stdoutLines)
            let replayLines = try BeaconOutputLine.decode(replay.stdoutLines)
            try Self.expectStateEnterRange(liveLines)
            let liveEnters = liveLines.filter { $0.event == "enter" }.map(Self.signature)
            let replayEnters = replayLines.filter { $0.event == "enter" }.map(Self.signature)
            #expect(replayEnters == liveEnters)
            // Range lines come from ticks at the capture's times, so replay gives
            // the live lines again; only the live run's last tick, after the last
            // recorded packet, may have no counterpart.
            let liveRanges = liveLines.filter { $0.event == "range" }.map(Self.signature)
            let replayRanges = replayLines.filter { $0.event == "range" }.map(Self.signature)
            #expect(!replayRanges.isEmpty)
            #expect(replayRanges == liveRanges || replayRanges == Array(liveRanges.dropLast()),
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
                                                 timeout: .seconds(10))
        #expect(beacon.termination != .exited(0))
        #expect(beacon.stderrLines.count == 1, "stderr: \(beacon.stderrLines)")
        let line = try #require(beacon.stderrLines.first)
        #expect(line.hasPrefix("Error: "))
        #expect(line.lowercased().contains("bluetooth"), "should mention Bluetooth support: \(line)")
        try await expectValidOutput(beacon.stdoutLines)
    }

    // MARK: - Helpers

    /// The first line is a state line for the region, an enter line follows,
    /// and after it come range lines that all show the advertiser as bumble sent it.
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
        #expect(!ranges.isEmpty, "no range line after enter", sourceLocation: sourceLocation)
        for line in ranges {
            let beacons = line.beacons ?? []
            #expect(beacons.count == 1, "\(beacons)", sourceLocation: sourceLocation)
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
