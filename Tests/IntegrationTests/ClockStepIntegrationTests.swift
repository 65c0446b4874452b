import BeaconCore
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A live `beacon range` whose wall clock steps back 30 s and then forward 1 h while it ranges
/// bumble's iBeacon. The test cannot set the system clock: beacon's clock wrapper adds the offset in
/// the file named by BEACON_TEST_WALL_CLOCK_SHIFT_FILE to its wall-clock readings, and the test rewrites
/// that file mid-run.
@Suite(
    "live wall-clock steps against emulated controllers",
    .enabled(if: IntegrationGate.isEnabled, IntegrationGate.reason),
    .timeLimit(.minutes(10)))
struct ClockStepIntegrationTests {
    @Test("steps back and forward: range lines keep coming every interval, no exit, one warning per step")
    func wallClockSteps() async throws {
        try await BumbleRig.with { rig in
            let shiftFile = rig.scratch.appendingPathComponent("wall-shift").path
            try Self.writeShift(0, to: shiftFile)
            let advertiser = try await rig.advertise(
                on: 0, uuid: TestBeacon.uuid, major: TestBeacon.major, minor: TestBeacon.minor)
            let beacon = try ChildProcess(
                name: "beacon range (wall clock stepped)", executable: BeaconProcess.binaryPath,
                arguments: ["range", "--hci", rig.specs[1], "--uuid", TestBeacon.uuid, "--exit-after", "2s"],
                environment: ["BEACON_TEST_WALL_CLOCK_SHIFT_FILE": shiftFile], limit: HangGuard.processLimit)

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
            try Self.writeShift(-30_000_000, to: shiftFile)
            // A backward step must not freeze the output for its length.
            last = try await waitForRanges(after: last, count: 3)
            try Self.writeShift(3_570_000_000, to: shiftFile)
            last = try await waitForRanges(after: last, count: 3)
            beacon.send(SIGINT)
            #expect(try await beacon.waitForExit(within: HangGuard.step) == .exited(0))
            await advertiser.stop()

            #expect(beacon.stderrLines.count == 2, "\(beacon.stderrLines)")
            #expect(beacon.stderrLines.first?.hasPrefix("Warning: the wall clock stepped back 30.000s") == true)
            #expect(beacon.stderrLines.last?.hasPrefix("Warning: the wall clock stepped forward 3600.000s") == true)
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

    static func writeShift(_ microseconds: Int64, to path: String) throws {
        // Renamed into place, so beacon never reads a half-written file.
        let temporary = path + ".new"
        try Data("\(microseconds)\n".utf8).write(to: URL(fileURLWithPath: temporary))
        guard rename(temporary, path) == 0 else { throw ChildProcessError(description: "rename \(temporary): errno \(errno)") }
    }

    /// `2026-11-30T12:00:00.123Z` as Unix microseconds.
    static func microseconds(_ iso: String) throws -> Int64 {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        guard let date = formatter.date(from: iso) else { throw ChildProcessError(description: "not a time: \(iso)") }
        return Int64((date.timeIntervalSince1970 * 1000).rounded()) * 1000
    }
}
