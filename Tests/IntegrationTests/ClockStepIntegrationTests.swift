import BeaconCore
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A live `beacon range` whose wall clock steps back 30 s and then forward 1 h while it ranges
/// bumble's iBeacon. The test cannot set the system clock: beacon's clock wrapper reads the wall clock
/// as its monotonic clock plus the offset in the file named by BEACON_TEST_WALL_CLOCK_FILE, and the
/// test rewrites that file mid-run. The machine's own wall clock, which its host may correct by a few
/// milliseconds at any time, plays no part.
@Suite(
    "live wall-clock steps against emulated controllers",
    .enabled(if: IntegrationGate.isEnabled, IntegrationGate.reason),
    .timeLimit(.minutes(10)))
struct ClockStepIntegrationTests {
    @Test("steps back and forward: range lines keep coming every interval, no exit, one warning per step")
    func wallClockSteps() async throws {
        try await BumbleRig.with { rig in
            let offsetFile = rig.scratch.appendingPathComponent("wall-clock-offset").path
            // Today's time to start with, so the printed times are plausible.
            let today = Self.read(CLOCK_REALTIME) - Self.read(CLOCK_MONOTONIC)
            try Self.writeOffset(today, to: offsetFile)
            let advertiser = try await rig.advertise(
                on: 0, uuid: TestBeacon.uuid, major: TestBeacon.major, minor: TestBeacon.minor)
            let beacon = try ChildProcess(
                name: "beacon range (wall clock stepped)", executable: BeaconProcess.binaryPath,
                arguments: ["range", "--hci", rig.specs[1], "--uuid", TestBeacon.uuid, "--exit-after", "2s"],
                environment: ["BEACON_TEST_WALL_CLOCK_FILE": offsetFile], limit: HangGuard.processLimit)

            func waitForRanges(after index: Int, count: Int) async throws -> Int {
                var last = index
                for _ in 0..<count {
                    last = try await beacon.waitForLine(from: last + 1, within: HangGuard.step, "range line") {
                        BeaconOutputLine.event(of: $0) == "range"
                    }.index
                }
                return last
            }
            let enter = try await beacon.waitForLine(within: HangGuard.step, "enter line") {
                BeaconOutputLine.event(of: $0) == "enter"
            }
            var last = try await waitForRanges(after: enter.index, count: 2)
            try Self.writeOffset(today - 30_000_000, to: offsetFile)
            // A backward step must not freeze the output for its length.
            last = try await waitForRanges(after: last, count: 3)
            try Self.writeOffset(today + 3_570_000_000, to: offsetFile)
            last = try await waitForRanges(after: last, count: 3)
            beacon.send(SIGINT)
            #expect(try await beacon.waitForExit(within: HangGuard.step) == .exited(0))
            await advertiser.stop()

            #expect(beacon.stderrLines.count == 2, "\(beacon.stderrLines)")
            // A step is measured from two clocks read microseconds apart: it may be told one
            // millisecond more or less than it was set to.
            let told = beacon.stderrLines.map(Self.toldStep)
            #expect(told.count == 2 && abs((told[0] ?? 0) + 30_000) <= 1 && abs((told[1] ?? 0) - 3_600_000) <= 1,
                    "\(beacon.stderrLines)")
            let lines = try BeaconOutputLine.decode(beacon.stdoutLines)
            #expect(lines.filter { $0.event == "enter" }.count == 1)
            #expect(lines.filter { $0.event == "exit" }.isEmpty)
            // Range lines are one interval apart in printed time, except for the two steps. A step is
            // measured from two clocks read microseconds apart, so in millisecond times it may move by
            // one millisecond more or less than it was set to.
            let times = try lines.filter { $0.event == "range" }.map { try Self.microseconds($0.time) }
            let gaps = zip(times, times.dropFirst()).map { $1 - $0 }
            let stepGaps = gaps.filter { $0 != 1_000_000 }
            #expect(stepGaps.count == 2, "\(gaps)")
            for (gap, expected) in zip(stepGaps, [Int64(-29_000_000), 3_601_000_000]) {
                #expect(abs(gap - expected) <= 1000, "\(gaps)")
            }
            #expect(lines.filter { $0.event == "range" }.allSatisfy { $0.beacons?.count == 1 })
            try await expectValidOutput(beacon.stdoutLines)
        }
    }

    static func writeOffset(_ microseconds: Int64, to path: String) throws {
        // Renamed into place, so beacon never reads a half-written file.
        let temporary = path + ".new"
        try Data("\(microseconds)\n".utf8).write(to: URL(fileURLWithPath: temporary))
        guard rename(temporary, path) == 0 else { throw ChildProcessError(description: "rename \(temporary): errno \(errno)") }
    }

    /// The step a warning tells, in milliseconds (negative: back): `Warning: the wall clock stepped
    /// back 30.000s (now …)` is -30000.
    static func toldStep(_ line: String) -> Int64? {
        let prefix = "Warning: the wall clock stepped "
        guard line.hasPrefix(prefix) else { return nil }
        let words = line.dropFirst(prefix.count).split(separator: " ")
        guard words.count >= 2, words[0] == "back" || words[0] == "forward", words[1].hasSuffix("s") else { return nil }
        let parts = words[1].dropLast().split(separator: ".")
        guard parts.count == 2, parts[1].count == 3, let seconds = Int64(parts[0]), let millis = Int64(parts[1]) else {
            return nil
        }
        let magnitude = seconds * 1000 + millis
        return words[0] == "back" ? -magnitude : magnitude
    }

    static func read(_ clock: clockid_t) -> Int64 {
        var spec = timespec()
        _ = clock_gettime(clock, &spec)
        return Int64(spec.tv_sec) * 1_000_000 + Int64(spec.tv_nsec) / 1000
    }

    /// `2026-11-30T12:00:00.123Z` as Unix microseconds.
    static func microseconds(_ iso: String) throws -> Int64 {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        guard let date = formatter.date(from: iso) else { throw ChildProcessError(description: "not a time: \(iso)") }
        return Int64((date.timeIntervalSince1970 * 1000).rounded()) * 1000
    }
}
