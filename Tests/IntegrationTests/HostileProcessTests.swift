import BeaconCore
import Foundation
import Testing

/// beacon started or run in a hostile process environment: file-size limits, closed standard
/// descriptors, outputs that cannot be written. Each run must end with the controller left as found.
@Suite("beacon in a hostile process environment", .enabled(if: IntegrationGate.isEnabled, IntegrationGate.reason))
struct HostileProcessTests {
    /// Runs `arguments` under `/bin/sh -c` with `prefix` before and `redirections` after the command,
    /// and reports beacon's exit status on stderr as `beacon-exit=N`.
    static func shell(_ name: String, _ arguments: [String], prefix: String = "", redirections: String = "",
                      limit: Duration = HangGuard.processLimit) throws -> ChildProcess {
        let quoted = ([BeaconProcess.binaryPath] + arguments).map { "'\($0)'" }.joined(separator: " ")
        let script = "\(prefix) \(quoted) \(redirections); echo \"beacon-exit=$?\" >&2"
        return try ChildProcess(name: name, executable: "/bin/sh", arguments: ["-c", script], limit: limit)
    }

    static func expectControllerOff(_ log: [FaultController.Entry]) throws {
        FaultTests.expectRestored(log)
        let lastEnable = try #require(log.lastIndex { $0.name?.hasSuffix("_Enable") == true && !$0.isDisable })
        #expect(log[(lastEnable + 1)...].contains { $0.isDisable }, "no disable after the last enable:\n\(log)")
    }

    @Test("a file-size limit reached by --record is a write error (EFBIG, exit 74) after scanning is turned off, not SIGXFSZ")
    func fileSizeLimit() async throws {
        try await FaultController.with([]) { controller in
            let directory = try ProjectPaths.makeScratchDirectory()
            defer { try? FileManager.default.removeItem(at: directory) }
            let record = directory.appendingPathComponent("x.snoop").path
            let beacon = try Self.shell("beacon range --record under ulimit -f 1",
                                        BeaconCommand.range.arguments(spec: controller.spec, ["--record", record, "--duration", "10s"]),
                                        prefix: "ulimit -f 1;", redirections: "> /dev/null")
            #expect(try await beacon.waitForExit(within: HangGuard.step) == .exited(0), "\(beacon.failure("exit status"))")
            #expect(beacon.stderrLines.last == "beacon-exit=74", "stderr: \(beacon.stderrLines)")
            #expect(beacon.stderrLines.first?.hasPrefix("Error: ") == true)
            #expect(beacon.stderrLines.first?.contains("File too large") == true, "stderr: \(beacon.stderrLines)")
            try Self.expectControllerOff(try await controller.finalLog())
        }
    }
}

extension HostileProcessTests {
    @Test("started with stdin and stdout closed: no output reaches the controller's stream, --duration ends the run, controller off",
          arguments: ["<&- >&-", ">&-", "<&- >&- 2>&-"])
    func closedStandardDescriptors(_ redirections: String) async throws {
        try await FaultController.with([]) { controller in
            let beacon = try Self.shell("beacon range \(redirections)",
                                        BeaconCommand.range.arguments(spec: controller.spec, ["--interval", "100ms", "--duration", "1s"]),
                                        redirections: redirections)
            #expect(try await beacon.waitForExit(within: HangGuard.step) == .exited(0), "\(beacon.failure("exit status"))")
            #expect(beacon.stderrLines == ["beacon-exit=0"], "stderr: \(beacon.stderrLines)")
            let log = try await controller.finalLog()
            #expect(!log.contains { $0.event == "unexpected" }, "the controller got bytes that are no command:\n\(log)")
            try Self.expectControllerOff(log)
        }
    }
}

extension HostileProcessTests {
    @Test("stdout on /dev/full: an Error line and exit 74 after the controller is turned off", arguments: [BeaconCommand.range, .advertise])
    func fullStdout(_ command: BeaconCommand) async throws {
        try await FaultController.with([]) { controller in
            let beacon = try Self.shell("beacon \(command) > /dev/full", command.arguments(spec: controller.spec, ["--duration", "5s"]),
                                        redirections: "> /dev/full")
            #expect(try await beacon.waitForExit(within: HangGuard.step) == .exited(0), "\(beacon.failure("exit status"))")
            #expect(beacon.stderrLines == ["Error: stdout: No space left on device", "beacon-exit=74"], "stderr: \(beacon.stderrLines)")
            try Self.expectControllerOff(try await controller.finalLog())
        }
    }
}

extension HostileProcessTests {
    @Test("malformed Command Status events that answer no command: skipped with a warning each, ranging carries on, exit 0")
    func malformedUnsolicitedEvents() async throws {
        try await FaultController.with(["--scenario", "malformed-status", "--after", "0.5"]) { controller in
            let beacon = try BeaconProcess.start(BeaconCommand.range.arguments(spec: controller.spec, ["--interval", "200ms", "--duration", "2"]),
                                                 limit: HangGuard.processLimit)
            #expect(try await beacon.waitForExit(within: HangGuard.step) == .exited(0), "\(beacon.failure("exit status"))")
            #expect(beacon.stderrLines.count == 3, "stderr: \(beacon.stderrLines)")
            #expect(beacon.stderrLines.allSatisfy { $0.hasPrefix("Warning: skipped a malformed controller event that answers no command") },
                    "stderr: \(beacon.stderrLines)")
            // Ranging went on past the fault at 0.5 s: range lines every 200 ms until --duration's end.
            let ranges = try BeaconOutputLine.decode(beacon.stdoutLines).filter { $0.event == "range" }
            #expect(ranges.count >= 8, "\(beacon.stdoutLines)")
            let log = try await controller.finalLog()
            #expect(log.contains { $0.event == "fault" })
            try Self.expectControllerOff(log)
        }
    }
}

extension HostileProcessTests {
    @Test("an answer to a command never sent that withholds credits: the disable is still sent at the end, the warning names the cause",
          arguments: [BeaconCommand.range, .advertise])
    func creditsWithheldByAForeignAnswer(_ command: BeaconCommand) async throws {
        try await FaultController.with(["--scenario", "foreign-no-credits", "--after", "0.3"]) { controller in
            let beacon = try BeaconProcess.start(command.arguments(spec: controller.spec, ["--duration", "1"]), limit: HangGuard.processLimit)
            #expect(try await beacon.waitForExit(within: HangGuard.step) == .exited(0), "\(beacon.failure("exit status"))")
            #expect(beacon.stderrLines.count == 1, "stderr: \(beacon.stderrLines)")
            let warning = beacon.stderrLines.first ?? ""
            #expect(warning.hasPrefix("Warning: the controller gave no command credit for 3s after its answer to "), "\(warning)")
            #expect(warning.contains("a command beacon had not sent"), "\(warning)")
            #expect(warning.hasSuffix("_Enable anyway"), "\(warning)")
            let log = try await controller.finalLog()
            let fault = try #require(log.firstIndex { $0.event == "fault" })
            #expect(log[fault...].contains { $0.isDisable }, "no disable after the fault:\n\(log)")
            try Self.expectControllerOff(log)
        }
    }
}

extension HostileProcessTests {
    @Test("a fragment chain whose continuation looks like an iBeacon: no enter for that beacon")
    func fragmentChain() async throws {
        try await FaultController.with(["--scenario", "fragment-chain", "--after", "0.2"]) { controller in
            let beacon = try BeaconProcess.start(["range", "--hci", controller.spec, "--uuid", "11111111-1111-1111-1111-111111111111",
                                                  "--exit-after", "1s", "--duration", "1.5"], limit: HangGuard.processLimit)
            #expect(try await beacon.waitForExit(within: HangGuard.step) == .exited(0), "\(beacon.failure("exit status"))")
            #expect(beacon.stderrLines.isEmpty, "stderr: \(beacon.stderrLines)")
            let events = try BeaconOutputLine.decode(beacon.stdoutLines).map(\.event)
            #expect(!events.contains("enter"), "\(beacon.stdoutLines)")
            #expect(events.first == "state")
            let log = try await controller.finalLog()
            #expect(log.contains { $0.event == "fault" })
            try Self.expectControllerOff(log)
        }
    }
}

extension HostileProcessTests {
    @Test("stdout that nobody reads, under a flood of reports: --duration still ends the run, and cleanup reaches the controller")
    func durationWinsOverAStalledStdout() async throws {
        try await FaultController.with(["--scenario", "flood", "--after", "0"]) { controller in
            let stdout = try UnreadFIFO("stdout")
            let beacon = try Self.shell("beacon range --duration 2 > stalled fifo",
                                        BeaconCommand.range.arguments(spec: controller.spec, ["--interval", "20ms", "--duration", "2"]),
                                        redirections: "> '\(stdout.path)'", limit: HangGuard.processLimit)
            // The pipe filled (beacon is blocked on it) before the run ended by itself.
            #expect(try await stdout.waitUntilFull(while: beacon) > 4000, "stdout never filled before beacon ended")
            #expect(try await beacon.waitForExit(within: HangGuard.step) == .exited(0), "\(beacon.failure("exit status"))")
            // A flood can outrun the 1 MiB held back while cleanup's commands await their answers: those
            // reports are dropped and counted in one warning, on a slow machine as a matter of course.
            let backlog = /Warning: dropped \d+ advertising reports that arrived while a command awaited its answer/
            #expect(beacon.stderrLines.filter { $0.wholeMatch(of: backlog) == nil } == ["beacon-exit=0"],
                    "stderr: \(beacon.stderrLines)")
            try Self.expectControllerOff(try await controller.finalLog())
        }
    }
}

extension HostileProcessTests {
    static let otherEndingSignals: [(BeaconCommand, String, Int32)] = [
        (.range, "extended", SIGHUP), (.advertise, "legacy", SIGHUP),
        (.range, "legacy", SIGUSR1), (.advertise, "extended", SIGUSR2),
        (.range, "extended", SIGALRM), (.advertise, "legacy", SIGVTALRM), (.range, "legacy", SIGPROF),
    ]

    /// One at a time: the point is what happens after the signal, not how fast under load.
    @Test("SIGHUP (a dropped ssh session) and the other signals that would kill beacon: exit 0, controller off",
          .serialized, arguments: otherEndingSignals)
    func otherEndingSignal(_ command: BeaconCommand, _ commands: String, _ signal: Int32) async throws {
        try await FaultController.with(["--commands", commands]) { controller in
            let beacon = try BeaconProcess.start(command.arguments(spec: controller.spec), limit: HangGuard.processLimit)
            let expected = command == .range ? "range" : "advertising"
            try await beacon.waitForLine(within: HangGuard.step, "\(expected) line") { BeaconOutputLine.event(of: $0) == expected }
            beacon.send(signal)
            #expect(try await beacon.waitForExit(within: HangGuard.step) == .exited(0), "\(beacon.failure("exit status"))")
            #expect(beacon.stderrLines.isEmpty, "stderr: \(beacon.stderrLines)")
            if command == .advertise {
                #expect(try BeaconOutputLine.decode(beacon.stdoutLines).map(\.event) == ["advertising", "stopped"])
            }
            try Self.expectControllerOff(try await controller.finalLog())
        }
    }
}

extension HostileProcessTests {
    /// Replays `capture` through `beacon range` with stdout on a file under `ulimit -f blocks`: the run must
    /// end with exit 74 and File too large, the file with a whole line. Its lines.
    static func rangeIntoFile(capture bytes: [UInt8], blocks: Int) async throws -> [String] {
        let directory = try ProjectPaths.makeScratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let capture = directory.appendingPathComponent("capture.btsnoop").path
        try Data(bytes).write(to: URL(fileURLWithPath: capture))
        let out = directory.appendingPathComponent("out.jsonl").path
        let beacon = try Self.shell("beacon range > file under ulimit -f \(blocks)",
                                    ["range", "--hci", "btsnoop:\(capture)", "--uuid", StreamedCaptureTests.uuid],
                                    prefix: "ulimit -f \(blocks);", redirections: "> '\(out)'")
        #expect(try await beacon.waitForExit(within: HangGuard.step) == .exited(0), "\(beacon.failure("exit status"))")
        #expect(beacon.stderrLines == ["Error: stdout: File too large", "beacon-exit=74"], "stderr: \(beacon.stderrLines)")
        let text = try String(contentsOfFile: out, encoding: .utf8)
        #expect(!text.isEmpty && text.hasSuffix("\n"), "\(text.suffix(200).debugDescription)")
        return text.split(separator: "\n").map(String.init)
    }

    @Test("stdout on a file that reaches its size limit: exit 74, and the file holds whole lines only")
    func stdoutLinesWholeOrNotAtAll() async throws {
        let (header, records) = try StreamedCaptureTests.capture()
        // 512 bytes: the state and enter lines fit, a range line crosses the limit.
        let lines = try await Self.rangeIntoFile(capture: header + records, blocks: 1)
        #expect(lines.allSatisfy { $0.hasPrefix("{") && $0.hasSuffix("}") }, "\(lines)")
        try await expectValidOutput(lines)
    }

    /// 2,000 iBeacons heard once each in the first half second, then one of them until 2.5 s: the range
    /// lines list all 2,000 (about 580 kB each), more than a batch, so they go out in pieces.
    static func thousandsOfBeacons() throws -> [UInt8] {
        let writer = BtsnoopWriter(datalink: .h4)
        let uuid = try #require(BeaconUUID(StreamedCaptureTests.uuid))
        var records: [UInt8] = []
        func heard(minor: UInt16, at microseconds: Int64) {
            let data = IBeacon(identity: IBeaconID(uuid: uuid, major: 1, minor: minor), measuredPower: -59).advertisingData
            let report = AdvertisingReport(eventType: 0x0010, isExtended: true, addressType: .publicDevice,
                                           address: DeviceAddress(value: 0xF0F1_F2F3_0000 + UInt64(minor)), rssi: -60, data: data[...])
            writer.appendRecord(HCIEvent.leMeta(.extendedAdvertisingReport([report])).packet, direction: .received,
                                timestamp: Timestamp(microseconds: 1_800_000_000_000_000 + microseconds), to: &records)
        }
        for minor in 0..<2_000 { heard(minor: UInt16(minor), at: Int64(minor) * 250) }
        for n in 1...20 { heard(minor: 0, at: 500_000 + Int64(n) * 100_000) }
        return writer.header + records
    }

    @Test("stdout on a file that reaches its size limit in the middle of a range line written in pieces: the whole line is taken back")
    func longLineTakenBackWhole() async throws {
        // 400 blocks (200 or 400 kB, as the shell counts them): the state and enter lines fit, the range line does not.
        let lines = try await Self.rangeIntoFile(capture: try Self.thousandsOfBeacons(), blocks: 400)
        #expect(!lines.isEmpty && lines.allSatisfy { !$0.contains(#""event":"range""#) }, "\(lines.map { $0.prefix(80) })")
        try await expectValidOutput(lines)
    }
}

extension HostileProcessTests {
    /// Ended by SIGTERM (no --duration), or by --duration alone.
    @Test("--record into a FIFO whose reader stopped reading: SIGTERM or --duration ends the run, scanning is turned off, exit 74",
          arguments: ["SIGTERM", "--duration"])
    func signalWinsOverAStalledRecording(_ ending: String) async throws {
        let extra = ending == "SIGTERM" ? [] : ["--duration", "3"]
        try await FaultController.with(["--scenario", "flood", "--after", "0"]) { controller in
            let record = try UnreadFIFO("record")
            let path = record.path
            let beacon = try BeaconProcess.start(BeaconCommand.range.arguments(spec: controller.spec, ["--record", path] + extra),
                                                 limit: HangGuard.processLimit)
            // The FIFO filled under the flood: beacon's recording waits for a reader that does not read.
            #expect(try await record.waitUntilFull(while: beacon) > 4000, "the FIFO never filled before beacon ended")
            var now = timespec()
            clock_gettime(CLOCK_MONOTONIC, &now)
            let signalledAt = Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
            if ending == "SIGTERM" { beacon.send(SIGTERM) }
            #expect(try await beacon.waitForExit(within: HangGuard.step) == .exited(74), "\(beacon.failure("exit status"))")
            #expect(beacon.stderrLines.count == 1, "stderr: \(beacon.stderrLines)")
            let error = beacon.stderrLines.first ?? ""
            #expect(error.hasPrefix("Error: --record \(path): the reader stopped reading; the last "), "\(error)")
            #expect(error.hasSuffix(" bytes were not written"), "\(error)")
            let log = try await controller.finalLog()
            try Self.expectControllerOff(log)
            // The stalled recording held the run until the signal; the disable came after it.
            let disable = try #require(log.lastIndex { $0.isDisable })
            if ending == "SIGTERM" {
                #expect(log[disable].time >= signalledAt - 0.002, "the disable came before the signal:\n\(log)")
            }
            // What the FIFO took is the start of the recording, the btsnoop header first.
            #expect(Array(record.readAll().prefix(8)) == Array("btsnoop\0".utf8))
        }
    }
}
