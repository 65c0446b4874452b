import BeaconCore
import Foundation
import Testing

/// Capture dates checked against btsnoop readers and writers that are not beacon's: `btmon -T -r` and
/// Wireshark's `tshark` read beacon's recordings, bumble's btsnoop writer makes a capture beacon reads.
@Suite(
    "capture dates against btmon, tshark and bumble",
    .enabled(if: IntegrationGate.isEnabled, IntegrationGate.reason),
    .timeLimit(.minutes(10)))
struct CaptureDateTests {
    private static let uuid = TestBeacon.uuid

    @Test("--record: btmon -T and tshark read every record's date as beacon's clock had it, to the microsecond")
    func recordingDatesAgreeWithIndependentReaders() async throws {
        try await BumbleRig.with { rig in
            let capture = rig.scratch.appendingPathComponent("dated.btsnoop").path
            let advertiser = try await rig.advertise(
                on: 0, uuid: Self.uuid, major: TestBeacon.major, minor: TestBeacon.minor)
            let before = Self.unixMicroseconds(Date())
            let live = try await BeaconProcess.run(
                ["range", "--hci", rig.specs[1], "--uuid", Self.uuid, "--duration", "2", "--record", capture],
                timeout: HangGuard.step)
            let after = Self.unixMicroseconds(Date())
            await advertiser.stop()
            #expect(live.termination == .exited(0), "\(live.failure("exit status"))")

            let records = try Self.records(capture)
            try #require(records.count > 10, "too few records: \(records.count)")
            let stamped = records.map(\.timestamp.microseconds)
            // Every date lies within the run, as the test's own clock saw it. beacon's dates follow the
            // monotonic clock from its first reading on, and a correction of the machine's wall clock
            // below the step threshold (a virtual machine's host makes them) is not followed: by the
            // end they may run ahead of the test's clock by up to that threshold.
            let latest = after + Timeline.defaultStepThreshold.value
            #expect(stamped.allSatisfy { before <= $0 && $0 <= latest },
                    "dates \(stamped.first ?? 0)…\(stamped.last ?? 0) outside the run \(before)…\(latest)")

            let tshark = try await Self.run("tshark", ["-r", capture, "-T", "fields", "-e", "frame.time_epoch"])
            let tsharkDates = try tshark.stdoutLines.filter { !$0.isEmpty }.map(Self.epochMicroseconds)
            #expect(tsharkDates == stamped, "tshark's dates differ from the recorded ones")

            let btmon = try await Self.run("btmon", ["-T", "-r", capture], environment: ["TZ": "UTC"])
            let btmonDates = btmon.stdoutLines.compactMap(Self.btmonDate)
            #expect(btmonDates == stamped.map { Timestamp(microseconds: $0) }.map(Self.btmonFormat),
                    "btmon's dates differ from the recorded ones")

            // The state line is stamped with the scan enable's Command Complete: the printed time is that
            // record's date, as tshark read it.
            let lines = try BeaconOutputLine.decode(live.stdoutLines)
            let state = try #require(lines.first { $0.event == "state" })
            let enable = try #require(records.firstIndex(where: Self.isScanEnable), "no scan enable")
            let scanEnabled = try #require(records[enable...].firstIndex(where: Self.isScanEnableComplete), "no answer")
            #expect(Timestamp(microseconds: tsharkDates[scanEnabled]).iso8601 == state.time)
        }
    }

    @Test("bumble's btsnoop writer: beacon reads its dates to the microsecond")
    func bumbleWrittenCaptureDates() async throws {
        let scratch = try ProjectPaths.makeScratchDirectory()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let capture = scratch.appendingPathComponent("bumble.btsnoop").path
        // 2026-11-30T12:00:00.123456Z, then microseconds and milliseconds later.
        let start: Int64 = 1_796_040_000_123_456
        let instants = [start, start + 1, start + 100_999, start + 200_000, start + 300_001]
        let writer = try ChildProcess(name: "bumble_snoop_capture.py", executable: ProjectPaths.python,
                                      arguments: [ProjectPaths.tool("bumble_snoop_capture.py"), capture] + instants.map(String.init),
                                      limit: HangGuard.processLimit)
        #expect(try await writer.waitForExit(within: HangGuard.step) == .exited(0), "\(writer.failure("exit status"))")

        #expect(try Self.records(capture).map(\.timestamp.microseconds) == instants)
        let replay = try await BeaconProcess.run(["range", "--hci", "btsnoop:" + capture, "--uuid", Self.uuid])
        #expect(replay.termination == .exited(0), "\(replay.failure("exit status"))")
        let lines = try BeaconOutputLine.decode(replay.stdoutLines)
        #expect(lines.map(\.event).prefix(2) == ["state", "enter"])
        #expect(lines.map(\.time).prefix(2) == ["2026-11-30T12:00:00.123Z", "2026-11-30T12:00:00.224Z"])
    }

    // MARK: - Helpers

    static func records(_ path: String) throws -> [BtsnoopRecord] {
        var reader = BtsnoopReader()
        reader.append(try Data(contentsOf: URL(fileURLWithPath: path)))
        var records: [BtsnoopRecord] = []
        while let record = try reader.next() { records.append(record) }
        try reader.finish()
        return records
    }

    /// LE Set Scan Enable (0x200C) or LE Set Extended Scan Enable (0x2042) turning scanning on.
    static func isScanEnable(_ record: BtsnoopRecord) -> Bool {
        let payload = Array(record.packet.payload)
        return record.packet.kind == .command && payload.count >= 4
            && (payload[0] == 0x0C || payload[0] == 0x42) && payload[1] == 0x20 && payload[3] == 0x01
    }

    static func isScanEnableComplete(_ record: BtsnoopRecord) -> Bool {
        let payload = Array(record.packet.payload)
        // Command Complete for LE Set Scan Enable (0x200C) or LE Set Extended Scan Enable (0x2042).
        return record.packet.kind == .event && payload.count >= 5 && payload[0] == 0x0E
            && (payload[3] == 0x0C || payload[3] == 0x42) && payload[4] == 0x20
    }

    static func unixMicroseconds(_ date: Date) -> Int64 {
        Int64((date.timeIntervalSince1970 * 1_000_000).rounded(.down))
    }

    /// tshark's `frame.time_epoch`, `1764538888.123456000`, in microseconds (no floating point).
    static func epochMicroseconds(_ text: String) throws -> Int64 {
        let parts = text.split(separator: ".")
        guard parts.count == 2, let seconds = Int64(parts[0]), parts[1].count >= 6, let micros = Int64(parts[1].prefix(6)) else {
            throw ChildProcessError(description: "tshark printed an unexpected time: \(text)")
        }
        return seconds * 1_000_000 + micros
    }

    /// The `YYYY-MM-DD HH:MM:SS.ffffff` at the end of a btmon -T packet header line.
    static func btmonDate(_ line: String) -> String? {
        guard line.hasPrefix("<") || line.hasPrefix(">") else { return nil }
        let pattern = /\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\.\d{6}$/
        return line.firstMatch(of: pattern).map { String($0.output) }
    }

    static func btmonFormat(_ time: Timestamp) -> String {
        // 2026-11-30T12:00:00.123Z plus the microseconds, in btmon's layout.
        let iso = time.iso8601
        let micros = ((time.microseconds % 1_000_000) + 1_000_000) % 1_000_000
        let digits = String(micros)
        return iso.prefix(10) + " " + iso.dropFirst(11).prefix(8) + "." + String(repeating: "0", count: 6 - digits.count) + digits
    }

    static func run(_ tool: String, _ arguments: [String], environment: [String: String] = [:]) async throws -> ChildProcess {
        let path = try #require(RangeIntegrationTests.executableInPath(tool), "\(tool) not installed (make deps)")
        let child = try ChildProcess(name: tool, executable: path, arguments: arguments, environment: environment,
                                     limit: HangGuard.processLimit)
        #expect(try await child.waitForExit(within: HangGuard.step) == .exited(0), "\(child.failure("exit status"))")
        return child
    }
}
