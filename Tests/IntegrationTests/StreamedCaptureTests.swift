import BeaconCore
import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// `--hci btsnoop:` reading a FIFO: a capture streamed as it is written (`btmon -w - | beacon range
/// --hci btsnoop:/dev/stdin`), with signals working while nothing arrives.
@Suite("beacon range over a streamed capture", .enabled(if: IntegrationGate.isEnabled, IntegrationGate.reason))
struct StreamedCaptureTests {
    static let uuid = "E2C56DB5-DFFB-48D2-B060-D0F5A71096E0"

    /// Header and 3 s of one iBeacon heard every 100 ms.
    static func capture() throws -> (header: [UInt8], records: [UInt8]) {
        let writer = BtsnoopWriter(datalink: .h4)
        let identity = IBeaconID(uuid: try #require(BeaconUUID(uuid)), major: 1, minor: 2)
        let data = IBeacon(identity: identity, measuredPower: -59).advertisingData
        let report = AdvertisingReport(eventType: 0x0010, isExtended: true, addressType: .publicDevice,
                                       address: DeviceAddress(value: 0xF0F1F2F3F401), rssi: -60, data: data[...])
        let packet = HCIEvent.leMeta(.extendedAdvertisingReport([report])).packet
        var records: [UInt8] = []
        for n in 0..<30 {
            writer.appendRecord(packet, direction: .received, timestamp: Timestamp(microseconds: 1_800_000_000_000_000 + Int64(n) * 100_000),
                                to: &records)
        }
        return (writer.header, records)
    }

    static func fifo() throws -> (directory: URL, path: String) {
        let directory = try ProjectPaths.makeScratchDirectory()
        let path = directory.appendingPathComponent("capture").path
        #expect(mkfifo(path, 0o600) == 0)
        return (directory, path)
    }

    @Test("a FIFO with no writer yet: SIGTERM ends the wait, exit 0")
    func noWriter() async throws {
        let (directory, path) = try Self.fifo()
        defer { try? FileManager.default.removeItem(at: directory) }
        let beacon = try BeaconProcess.start(["range", "--hci", "btsnoop:\(path)", "--uuid", Self.uuid], limit: HangGuard.processLimit)
        try await Task.sleep(for: .milliseconds(500))
        #expect(beacon.isRunning)
        beacon.send(SIGTERM)
        #expect(try await beacon.waitForExit(within: HangGuard.step) == .exited(0), "\(beacon.failure("exit status"))")
        #expect(beacon.stderrLines.isEmpty, "stderr: \(beacon.stderrLines)")
    }

    @Test("a writer that stalls mid-capture: the lines so far are printed, and SIGINT ends the run, exit 0")
    func stallingWriter() async throws {
        let (directory, path) = try Self.fifo()
        defer { try? FileManager.default.removeItem(at: directory) }
        let beacon = try BeaconProcess.start(["range", "--hci", "btsnoop:\(path)", "--uuid", Self.uuid], limit: HangGuard.processLimit)
        // Opening for writing succeeds once beacon has the FIFO open for reading.
        var writer: Int32 = -1
        let opened = ContinuousClock.now + .seconds(10)
        while writer < 0 {
            try #require(ContinuousClock.now < opened, "beacon never opened the FIFO")
            writer = open(path, O_WRONLY | O_NONBLOCK | O_CLOEXEC)
            if writer < 0 { try await Task.sleep(for: .milliseconds(20)) }
        }
        defer { close(writer) }
        let (header, records) = try Self.capture()
        let half = header + records.prefix(records.count / 2)
        #expect(half.withUnsafeBytes { write(writer, $0.baseAddress, $0.count) } == half.count)
        try await beacon.waitForLine(within: HangGuard.step, "enter line") { $0.contains(#""event":"enter""#) }
        beacon.send(SIGINT)
        #expect(try await beacon.waitForExit(within: HangGuard.step) == .exited(0), "\(beacon.failure("exit status"))")
        #expect(beacon.stderrLines.isEmpty, "stderr: \(beacon.stderrLines)")
    }

    @Test("a whole capture streamed through a FIFO gives the lines the file gives")
    func streamedLikeAFile() async throws {
        let (directory, path) = try Self.fifo()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (header, records) = try Self.capture()
        let file = directory.appendingPathComponent("capture.btsnoop").path
        try Data(header + records).write(to: URL(fileURLWithPath: file))
        let fromFile = try BeaconProcess.start(["range", "--hci", "btsnoop:\(file)", "--uuid", Self.uuid], limit: HangGuard.processLimit)
        #expect(try await fromFile.waitForExit(within: HangGuard.step) == .exited(0))
        let script = "cat '\(file)' > '\(path)' & exec '\(BeaconProcess.binaryPath)' range --hci 'btsnoop:\(path)' --uuid \(Self.uuid)"
        let streamed = try ChildProcess(name: "cat | beacon range", executable: "/bin/sh", arguments: ["-c", script], limit: HangGuard.processLimit)
        #expect(try await streamed.waitForExit(within: HangGuard.step) == .exited(0), "\(streamed.failure("exit status"))")
        #expect(streamed.stdoutLines == fromFile.stdoutLines)
        #expect(streamed.stdoutLines.count >= 4)
        #expect(streamed.stderrLines.isEmpty, "stderr: \(streamed.stderrLines)")
    }
}
