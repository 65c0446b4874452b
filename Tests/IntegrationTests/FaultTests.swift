import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Which beacon command a fault case runs.
enum BeaconCommand: String, Sendable {
    case range, advertise

    /// beacon's arguments against `spec`, plus `extra`.
    func arguments(spec: String, _ extra: [String] = []) -> [String] {
        switch self {
        case .range: ["range", "--hci", spec, "--uuid", TestBeacon.uuid] + extra
        case .advertise: ["advertise", "--hci", spec, "--uuid", TestBeacon.uuid, "--major", "1", "--minor", "2"] + extra
        }
    }
}

/// One scripted controller fault and what beacon must do about it.
struct FaultCase: CustomTestStringConvertible, Sendable {
    let label: String
    let command: BeaconCommand
    /// fault_controller.py arguments.
    let fault: [String]
    /// Extra beacon arguments.
    var beaconArguments: [String] = ["--duration", "6"]
    /// The documented exit code.
    let exit: Int32
    /// What the one `Error:` line must contain; nil when no error line is allowed.
    let error: [String]?
    /// Whether beacon must turn scanning or advertising off after the fault (it had chosen its commands).
    var disablesAfterFault = false
    /// Output lines that must have been printed before the fault.
    var outputBefore: [String] = []

    var testDescription: String { "\(command.rawValue): \(label)" }
}

/// A bring-up command beacon sends, in order, and whether a failure there leaves cleanup to do.
struct BringUpStep: Sendable {
    let command: BeaconCommand
    let commands: String
    let name: String
    let when: String
    let cleansUp: Bool

    var faultArguments: [String] { ["--commands", commands, "--opcode", name, "--when", when] }
    var label: String { "\(commands) \(name)\(when == "any" ? "" : " (\(when))")" }

    static func sequence(_ command: BeaconCommand, _ commands: String) -> [BringUpStep] {
        var steps = ["Reset", "Read_Local_Supported_Commands", "Set_Event_Mask", "LE_Set_Event_Mask"]
            .map { BringUpStep(command: command, commands: commands, name: $0, when: "any", cleansUp: false) }
        func add(_ name: String, _ when: String = "any") {
            steps.append(BringUpStep(command: command, commands: commands, name: name, when: when, cleansUp: true))
        }
        switch (command, commands) {
        case (.range, "extended"):
            add("LE_Set_Extended_Scan_Enable", "disable")
            add("LE_Set_Extended_Scan_Parameters")
            add("LE_Set_Extended_Scan_Enable", "enable")
        case (.range, _):
            add("LE_Set_Scan_Enable", "disable")
            add("LE_Set_Scan_Parameters")
            add("LE_Set_Scan_Enable", "enable")
        case (.advertise, "extended"):
            add("LE_Set_Extended_Advertising_Enable", "disable")
            add("LE_Set_Extended_Advertising_Parameters")
            add("LE_Set_Extended_Advertising_Data")
            add("LE_Set_Extended_Advertising_Enable", "enable")
        case (.advertise, _):
            steps.append(BringUpStep(command: command, commands: commands, name: "Read_Local_Version_Information",
                                     when: "any", cleansUp: false))
            add("LE_Set_Advertising_Enable", "disable")
            add("LE_Set_Advertising_Parameters")
            add("LE_Read_Advertising_Physical_Channel_Tx_Power")
            add("LE_Set_Advertising_Data")
            add("LE_Set_Advertising_Enable", "enable")
        }
        return steps
    }

    static let all = sequence(.range, "extended") + sequence(.range, "legacy")
        + sequence(.advertise, "extended") + sequence(.advertise, "legacy")
}

/// beacon against tools/fault_controller.py: every bring-up command failing, timing out or answered
/// wrongly, faults while running, signals and closed or stalled stdout. Each case has its own
/// controller, so the cases run in parallel (as many at once as `EmulatorSlots` allows).
///
/// Nothing here times beacon with the test's own clock: that clock also counts the test process
/// waiting for a CPU. Causes are shown by order instead (what the controller had logged when beacon
/// exited), and the one bound that is the point of a test, beacon giving up an unanswered command at
/// its timeout, is measured between two lines of the controller's own log.
@Suite(
    "beacon against a fault-injecting controller",
    .enabled(if: IntegrationGate.isEnabled, IntegrationGate.reason),
    // A hang guard for each case, waiting for its emulator slot included.
    .timeLimit(.minutes(5)))
struct FaultTests {
    /// beacon's command timeout (docs/troubleshooting.md, exit code 76: "did not answer (3 s per command)").
    static let commandTimeout = 3.0

    // MARK: - Tables

    /// Every bring-up command answered with Invalid HCI Command Parameters.
    static let errorCases = BringUpStep.all.map { step in
        FaultCase(label: "error on \(step.label)", command: step.command,
                  fault: ["--scenario", "error", "--status", "0x12"] + step.faultArguments,
                  exit: 76, error: ["HCI_\(step.name) failed", "Invalid HCI Command Parameters (0x12)"],
                  disablesAfterFault: step.cleansUp)
    }

    /// A few commands of each sequence never answered (3 s each, so not all of them).
    static let timeoutCases = BringUpStep.all
        .filter { ["Reset", "LE_Set_Scan_Enable", "LE_Set_Extended_Scan_Parameters",
                   "LE_Set_Extended_Advertising_Enable", "LE_Read_Advertising_Physical_Channel_Tx_Power"].contains($0.name)
            && $0.when != "disable" }
        .map { step in
            FaultCase(label: "no answer to \(step.label)", command: step.command,
                      fault: ["--scenario", "silent"] + step.faultArguments,
                      exit: 76, error: ["HCI_\(step.name): no answer from the controller within 3s"],
                      disablesAfterFault: step.cleansUp)
        }

    /// Answers of the wrong kind or shape, and withheld credits.
    static let answerCases: [FaultCase] = [
        FaultCase(label: "Command Status for Read Local Supported Commands", command: .range,
                  fault: ["--scenario", "status", "--opcode", "Read_Local_Supported_Commands"],
                  exit: 76, error: ["HCI_Read_Local_Supported_Commands", "Command Status instead of Command Complete"]),
        FaultCase(label: "Command Status for Read Local Version", command: .advertise,
                  fault: ["--scenario", "status", "--commands", "legacy", "--opcode", "Read_Local_Version_Information"],
                  exit: 76, error: ["HCI_Read_Local_Version_Information", "Command Status instead of Command Complete"]),
        FaultCase(label: "Command Status for LE Set Extended Advertising Parameters", command: .advertise,
                  fault: ["--scenario", "status", "--opcode", "LE_Set_Extended_Advertising_Parameters"],
                  exit: 76, error: ["HCI_LE_Set_Extended_Advertising_Parameters", "Command Status instead of Command Complete"],
                  disablesAfterFault: true),
        // A successful Command Status for a command without return parameters is accepted as success.
        FaultCase(label: "Command Status for LE Set Scan Parameters", command: .range,
                  fault: ["--scenario", "status", "--commands", "legacy", "--opcode", "LE_Set_Scan_Parameters"],
                  beaconArguments: ["--duration", "2"], exit: 0, error: nil, outputBefore: ["state", "enter"]),
        FaultCase(label: "Command Complete without return parameters for Read Local Supported Commands", command: .range,
                  fault: ["--scenario", "bare-complete", "--opcode", "Read_Local_Supported_Commands"],
                  exit: 76, error: ["HCI_Read_Local_Supported_Commands", "malformed"]),
        FaultCase(label: "Command Complete without return parameters for Read Local Version", command: .advertise,
                  fault: ["--scenario", "bare-complete", "--commands", "legacy", "--opcode", "Read_Local_Version_Information"],
                  exit: 76, error: ["HCI_Read_Local_Version_Information", "malformed"]),
        FaultCase(label: "truncated Command Complete for Reset", command: .range,
                  fault: ["--scenario", "truncated-complete", "--opcode", "Reset"],
                  exit: 76, error: ["HCI_Reset", "malformed"]),
        FaultCase(label: "truncated Command Complete for LE Set Extended Scan Enable", command: .range,
                  fault: ["--scenario", "truncated-complete", "--opcode", "LE_Set_Extended_Scan_Enable", "--when", "enable"],
                  exit: 76, error: ["HCI_LE_Set_Extended_Scan_Enable", "malformed"], disablesAfterFault: true),
        FaultCase(label: "no credits after Reset until a NOP", command: .range,
                  fault: ["--scenario", "no-credits", "--opcode", "Reset", "--delay", "0.5"],
                  beaconArguments: ["--duration", "2"], exit: 0, error: nil, outputBefore: ["state", "enter"]),
        FaultCase(label: "no credits after LE Set Advertising Parameters until a NOP", command: .advertise,
                  fault: ["--scenario", "no-credits", "--commands", "legacy", "--opcode", "LE_Set_Advertising_Parameters",
                          "--delay", "0.5"],
                  beaconArguments: ["--duration", "1"], exit: 0, error: nil, outputBefore: ["advertising", "stopped"]),
        FaultCase(label: "no credits after Reset, ever", command: .range,
                  fault: ["--scenario", "no-credits", "--opcode", "Reset", "--delay", "-1"],
                  exit: 76, error: ["HCI_Read_Local_Supported_Commands: no answer from the controller within 3s"]),
    ]

    /// Faults once scanning or advertising is on.
    static let runCases: [FaultCase] = [
        FaultCase(label: "Hardware Error (extended)", command: .range, fault: ["--scenario", "hardware-error"],
                  exit: 76, error: ["hardware error", "0x42"], disablesAfterFault: true, outputBefore: ["state", "enter"]),
        FaultCase(label: "Hardware Error (legacy)", command: .range,
                  fault: ["--scenario", "hardware-error", "--commands", "legacy"],
                  exit: 76, error: ["hardware error", "0x42"], disablesAfterFault: true, outputBefore: ["state", "enter"]),
        FaultCase(label: "Hardware Error (extended)", command: .advertise, fault: ["--scenario", "hardware-error"],
                  exit: 76, error: ["hardware error", "0x42"], disablesAfterFault: true, outputBefore: ["advertising"]),
        FaultCase(label: "Hardware Error (legacy)", command: .advertise,
                  fault: ["--scenario", "hardware-error", "--commands", "legacy"],
                  exit: 76, error: ["hardware error", "0x42"], disablesAfterFault: true, outputBefore: ["advertising"]),
        FaultCase(label: "connection dropped", command: .range, fault: ["--scenario", "drop"],
                  exit: 74, error: ["connection closed"], outputBefore: ["state", "enter"]),
        FaultCase(label: "connection dropped", command: .advertise, fault: ["--scenario", "drop"],
                  exit: 74, error: ["connection closed"], outputBefore: ["advertising"]),
        FaultCase(label: "unknown H4 indicator", command: .range, fault: ["--scenario", "garbage"],
                  exit: 76, error: ["not an H4 stream", "0xFF"], disablesAfterFault: true, outputBefore: ["state", "enter"]),
        FaultCase(label: "unknown H4 indicator", command: .advertise, fault: ["--scenario", "garbage", "--commands", "legacy"],
                  exit: 76, error: ["not an H4 stream", "0xFF"], disablesAfterFault: true, outputBefore: ["advertising"]),
        FaultCase(label: "event longer than its bytes, then close", command: .range, fault: ["--scenario", "long-event-close"],
                  exit: 74, error: ["connection closed"], outputBefore: ["state", "enter"]),
        // The default --duration: the fault (1.2 s in) and its missing bytes (0.5 s later) come well before the end.
        FaultCase(label: "event longer than its bytes, then more bytes", command: .range,
                  fault: ["--scenario", "long-event-more", "--commands", "legacy"],
                  exit: 0, error: nil, outputBefore: ["state", "enter"]),
    ]

    // MARK: - Faults

    @Test("every bring-up command failing", arguments: errorCases)
    func bringUpError(_ fault: FaultCase) async throws { try await Self.check(fault) }

    @Test("bring-up commands never answered", arguments: timeoutCases)
    func bringUpTimeout(_ fault: FaultCase) async throws { try await Self.check(fault) }

    @Test("answers of the wrong kind, malformed answers, withheld credits", arguments: answerCases)
    func wrongAnswers(_ fault: FaultCase) async throws { try await Self.check(fault) }

    @Test("faults while scanning or advertising", arguments: runCases)
    func runFaults(_ fault: FaultCase) async throws { try await Self.check(fault) }

    /// Runs one case: beacon ends the conversation by itself, the documented exit code, one clear error
    /// line, intact output before the fault, the controller left off whenever beacon could still reach
    /// it, and an unanswered command given up at its timeout.
    static func check(_ fault: FaultCase) async throws {
        try await FaultController.with(fault.fault + ["--after", "1.2"]) { controller in
            // A hang guard, shorter than the controller's own --limit: a beacon that never gave up would be
            // killed here, rather than set free by the controller closing the connection.
            let beacon = try await BeaconProcess.run(fault.command.arguments(spec: controller.spec, fault.beaconArguments),
                                                     timeout: HangGuard.step)
            #expect(beacon.termination == .exited(fault.exit), "\(beacon.failure("exit status"))")
            expectDiagnostics(beacon, error: fault.error)

            let lines = try BeaconOutputLine.decode(beacon.stdoutLines)
            let events = lines.map(\.event)
            for event in fault.outputBefore {
                #expect(events.contains(event), "no \(event) line before the fault: \(events)")
            }
            if fault.exit != 0 {
                #expect(!events.contains("stopped"), "a failed run must not claim advertising stopped")
            }
            try await expectValidOutput(beacon.stdoutLines)

            let log = try await controller.finalLog()
            let faultIndex = log.firstIndex { $0.event == "fault" || ($0.answer.map { $0 != "complete" } ?? false) }
            if fault.exit == 74 {
                #expect(log.last?.by == "controller", "the controller closed the connection")
            } else {
                Self.expectRestored(log)
            }
            if fault.error?.contains(where: { $0.contains("no answer") }) == true {
                // The unanswered command was given up at beacon's command timeout, not a timeout later: the
                // controller heard from the host again (the cleanup, or the close) less than two timeouts
                // after the command. Measured between two lines of the controller's log, so neither the
                // start of beacon nor the test process waiting for a CPU counts; beacon idles in poll(2)
                // until its deadline, and the second timeout of margin is all scheduling slack.
                let index = try #require(faultIndex, "no unanswered command in the log:\n\(log)")
                let next = try #require(log.indices.contains(index + 1) ? log[index + 1] : nil, "nothing after the fault:\n\(log)")
                let waited = next.time - log[index].time
                #expect(waited < 2 * Self.commandTimeout,
                        "\(log[index].name ?? "?") unanswered, then \(waited) s until the host's next packet:\n\(log)")
            }
            if fault.disablesAfterFault {
                let index = try #require(faultIndex, "no fault in the log")
                #expect(log[(index + 1)...].contains { $0.isDisable }, "no disable command after the fault:\n\(log)")
            } else if fault.exit == 76, let index = faultIndex, log[index].event == nil {
                // A failure before beacon chose its commands: nothing was turned on, so nothing follows.
                #expect(log[(index + 1)...].allSatisfy { $0.event == "closed" }, "commands after the failure:\n\(log)")
            }
        }
    }

    // MARK: - Signals

    /// (command, controller commands, delayed command, signal, cleanup expected).
    static let bringUpSignals: [(BeaconCommand, String, String, Int32, Bool)] = [
        (.range, "extended", "LE_Set_Extended_Scan_Parameters", SIGINT, true),
        (.range, "legacy", "Reset", SIGTERM, false),
        (.advertise, "extended", "LE_Set_Extended_Advertising_Data", SIGTERM, true),
        (.advertise, "legacy", "LE_Set_Advertising_Parameters", SIGINT, true),
    ]

    /// Seconds the controller holds the late answer back: longer than any wait in the test, so an answer
    /// in the log before the host closed the connection means beacon waited for it.
    static let lateAnswerSeconds = 60

    @Test("SIGINT or SIGTERM while a bring-up answer is late: exit 0, controller off", arguments: bringUpSignals)
    func signalDuringBringUp(_ command: BeaconCommand, _ commands: String, _ delayed: String, _ signal: Int32,
                             _ cleansUp: Bool) async throws {
        // The controller itself signals beacon as the delayed command arrives, so the signal is there while
        // the command is pending, however late this test process would have got round to sending it.
        try await FaultController.with(["--scenario", "delay", "--delay", "\(Self.lateAnswerSeconds)", "--commands", commands,
                                        "--opcode", delayed, "--signal-host", signal == SIGINT ? "INT" : "TERM"]) { controller in
            let beacon = try BeaconProcess.start(command.arguments(spec: controller.spec), limit: HangGuard.processLimit,
                                                 pidFile: controller.hostPidFile)
            #expect(try await beacon.waitForExit(within: HangGuard.step) == .exited(0), "\(beacon.failure("exit status"))")
            #expect(beacon.stderrLines.isEmpty, "stderr: \(beacon.stderrLines)")
            #expect(beacon.stdoutLines.isEmpty, "nothing started, nothing to report: \(beacon.stdoutLines)")
            let log = try await controller.finalLog()
            Self.expectRestored(log)
            let delayedIndex = try #require(log.firstIndex { $0.name == delayed }, "\(delayed) never arrived:\n\(log)")
            #expect(log[delayedIndex].answer == "delay")
            #expect(log.indices.contains(delayedIndex + 1) && log[delayedIndex + 1].event == "signalled",
                    "the controller did not signal beacon as \(delayed) arrived:\n\(log)")
            // beacon left without the late answer: the host closed the connection before it was sent.
            #expect(!log.contains { $0.event == "late-answer" }, "beacon waited for the late answer:\n\(log)")
            // At most the late command's own timeout, then the cleanup (answered at once): in the controller's
            // clock, from the delayed command to the host's close. The margin is one more command timeout of
            // pure scheduling slack, as in `check`.
            let closed = try #require(log.last)
            #expect(closed.time - log[delayedIndex].time < 2 * Self.commandTimeout,
                    "\(closed.time - log[delayedIndex].time) s from \(delayed) to the close:\n\(log)")
            let after = log[(delayedIndex + 2)...]
            if cleansUp {
                #expect(after.contains { $0.isDisable }, "no disable command after the signal:\n\(log)")
            } else {
                #expect(after.allSatisfy { $0.event == "closed" }, "commands after the signal:\n\(log)")
            }
        }
    }

    static let runningSignals: [(BeaconCommand, String, Int32)] = [
        (.range, "extended", SIGINT), (.range, "legacy", SIGTERM),
        (.advertise, "extended", SIGINT), (.advertise, "legacy", SIGTERM),
    ]

    @Test("SIGINT or SIGTERM while scanning or advertising: exit 0, controller off", arguments: runningSignals)
    func signalWhileRunning(_ command: BeaconCommand, _ commands: String, _ signal: Int32) async throws {
        try await FaultController.with(["--commands", commands]) { controller in
            let beacon = try BeaconProcess.start(command.arguments(spec: controller.spec), limit: HangGuard.processLimit)
            let expected = command == .range ? "range" : "advertising"
            try await beacon.waitForLine(within: HangGuard.startUp, "\(expected) line") { BeaconOutputLine.event(of: $0) == expected }
            beacon.send(signal)
            // No --duration: only the signal can end this run, so a beacon that ignored it hits the hang guard.
            #expect(try await beacon.waitForExit(within: HangGuard.step) == .exited(0), "\(beacon.failure("exit status"))")
            // Read once beacon has exited: the controller logs a command before it answers it, and beacon
            // waits for that answer, so the disable is in the log already if beacon turned the controller
            // off before exiting rather than after (or never).
            let atExit = try controller.entries()
            let lastEnable = try #require(atExit.lastIndex { $0.name?.hasSuffix("_Enable") == true && !$0.isDisable })
            #expect(atExit[(lastEnable + 1)...].contains { $0.isDisable && $0.answer == "complete" },
                    "beacon exited before the controller had received and answered the disable:\n\(atExit)")
            // Every command answered, none timed out: an error line and a non-zero exit would say otherwise.
            #expect(beacon.stderrLines.isEmpty, "stderr: \(beacon.stderrLines)")
            let lines = try BeaconOutputLine.decode(beacon.stdoutLines)
            if command == .advertise {
                #expect(lines.map(\.event) == ["advertising", "stopped"])
                #expect(beacon.stdoutLines.last?.contains(#""reason":"signal""#) == true)
            }
            try await expectValidOutput(beacon.stdoutLines)
            let log = try await controller.finalLog()
            Self.expectRestored(log)
        }
    }

    // MARK: - Pipes

    /// `advertise` prints nothing after its first line, so it must notice the reader going away without writing.
    @Test("stdout closed by the reader (| head -1): exit 0 quietly, controller off", arguments: [BeaconCommand.range, .advertise])
    func closedStdout(command: BeaconCommand) async throws {
        try await FaultController.with([]) { controller in
            let extra = command == .range ? ["--interval", "50ms"] : []
            let arguments = command.arguments(spec: controller.spec, extra)
            let script = "{ '\(BeaconProcess.binaryPath)' \(arguments.map { "'\($0)'" }.joined(separator: " ")); "
                + "echo \"beacon-exit=$?\" >&2; } | head -1"
            let shell = try ChildProcess(name: "beacon \(command) | head -1", executable: "/bin/sh", arguments: ["-c", script],
                                         limit: HangGuard.processLimit)
            #expect(try await shell.waitForExit(within: HangGuard.startUp) == .exited(0), "\(shell.failure("exit status"))")
            #expect(shell.stderrLines == ["beacon-exit=0"], "stderr: \(shell.stderrLines)")
            #expect(shell.stdoutLines.count == 1)
            #expect(try BeaconOutputLine.decode(shell.stdoutLines).first?.event == (command == .range ? "state" : "advertising"))
            try await expectValidOutput(shell.stdoutLines)
            let log = try await controller.finalLog()
            Self.expectRestored(log)
            let lastEnable = try #require(log.lastIndex { $0.name?.hasSuffix("_Enable") == true && !$0.isDisable })
            #expect(log[(lastEnable + 1)...].contains { $0.isDisable }, "no disable after the last enable:\n\(log)")
        }
    }

    @Test("stdout that nobody reads, under a flood of reports: SIGTERM still ends the run")
    func stalledStdout() async throws {
        try await FaultController.with(["--scenario", "flood", "--after", "0"]) { controller in
            let stdout = try UnreadFIFO("stdout")
            let path = stdout.path
            let arguments = BeaconCommand.range.arguments(spec: controller.spec, ["--interval", "20ms"])
            let script = "exec '\(BeaconProcess.binaryPath)' \(arguments.map { "'\($0)'" }.joined(separator: " ")) > '\(path)'"
            let beacon = try ChildProcess(name: "beacon range > stalled fifo", executable: "/bin/sh", arguments: ["-c", script],
                                          limit: HangGuard.processLimit)
            // Wait until more than one page is queued: both pipe buffers are then in use, poll(2) calls the
            // pipe unwritable, and beacon, printing a line every 20 ms, is stuck on stdout from now on.
            _ = try await stdout.waitUntilFull(beyond: 4096, while: beacon, within: HangGuard.startUp)
            #expect(beacon.isRunning)
            let memory = ProcessStatus.kilobytes("VmRSS", of: beacon.pid)
            beacon.send(SIGTERM)
            #expect(try await beacon.waitForExit(within: HangGuard.step) == .exited(0), "\(beacon.failure("exit status"))")
            #expect(beacon.stderrLines.isEmpty, "stderr: \(beacon.stderrLines)")
            #expect((memory ?? 0) < 200_000, "resident memory \(memory ?? -1) kB")
            let log = try await controller.finalLog()
            Self.expectRestored(log)
            let lastEnable = try #require(log.lastIndex { $0.name?.hasSuffix("_Enable") == true && !$0.isDisable })
            #expect(log[(lastEnable + 1)...].contains { $0.isDisable }, "no disable after the last enable:\n\(log)")
        }
    }

    /// Reports beacon takes in before the first memory reading, and between the two readings. Counted
    /// from its range lines, so a slow machine takes longer but measures the same amount of work.
    static let floodWarmUpReports = 20_000
    static let floodMeasuredReports = 100_000

    @Test("a flood of advertising reports: memory stays bounded, SIGINT ends the run")
    func flood() async throws {
        try await FaultController.with(["--scenario", "flood", "--after", "0"]) { controller in
            let beacon = try BeaconProcess.start(BeaconCommand.range.arguments(spec: controller.spec, ["--interval", "100ms"]),
                                                 limit: HangGuard.processLimit)
            let warm = try await Self.waitForRangedReports(of: beacon, atLeast: Self.floodWarmUpReports)
            let early = try #require(ProcessStatus.kilobytes("VmRSS", of: beacon.pid))
            let measured = try await Self.waitForRangedReports(of: beacon, atLeast: warm + Self.floodMeasuredReports)
            let late = try #require(ProcessStatus.kilobytes("VmRSS", of: beacon.pid))
            #expect(late < early + 16_000,
                    "resident memory grew from \(early) kB to \(late) kB over \(measured - warm) reports")
            beacon.send(SIGINT)
            #expect(try await beacon.waitForExit(within: HangGuard.step) == .exited(0), "\(beacon.failure("exit status"))")
            #expect(beacon.stderrLines.isEmpty, "stderr: \(beacon.stderrLines)")
            let lines = try BeaconOutputLine.decode(beacon.stdoutLines)
            let samples = lines.compactMap { $0.beacons?.first?.samples }.max() ?? 0
            // 50 reports per second would give 5 per interval: the flood is far faster.
            #expect(samples > 100, "the flood did not reach beacon (at most \(samples) samples per interval)")
            try await expectValidOutput(beacon.stdoutLines)
            let log = try await controller.finalLog()
            Self.expectRestored(log)
        }
    }

    // MARK: - Helpers

    /// Waits until beacon's range lines account for at least `count` reports (the sum of their
    /// `samples`) and returns that sum.
    static func waitForRangedReports(of beacon: ChildProcess, atLeast count: Int) async throws -> Int {
        var total = 0
        try await beacon.waitForOutput(within: HangGuard.step, "range lines counting \(count) reports") { lines in
            let ranges = try BeaconOutputLine.decode(lines.filter { BeaconOutputLine.event(of: $0) == "range" })
            total = ranges.reduce(0) { sum, line in sum + (line.beacons ?? []).reduce(0) { $0 + ($1.samples ?? 0) } }
            return total >= count
        }
        return total
    }

    /// Exactly one `Error:` line containing every part (or none when `error` is nil); the rest are warnings.
    static func expectDiagnostics(_ beacon: ChildProcess, error parts: [String]?,
                                  sourceLocation: SourceLocation = #_sourceLocation) {
        let stderr = beacon.stderrLines
        let errors = stderr.filter { $0.hasPrefix("Error: ") }
        #expect(stderr.allSatisfy { $0.hasPrefix("Error: ") || $0.hasPrefix("Warning: ") },
                "stderr: \(stderr)", sourceLocation: sourceLocation)
        guard let parts else {
            #expect(errors.isEmpty, "stderr: \(stderr)", sourceLocation: sourceLocation)
            return
        }
        #expect(errors.count == 1, "stderr: \(stderr)", sourceLocation: sourceLocation)
        for part in parts {
            #expect(errors.first?.contains(part) == true, "no \"\(part)\" in \(errors)", sourceLocation: sourceLocation)
        }
    }

    /// The host closed the connection with scanning and advertising off.
    static func expectRestored(_ log: [FaultController.Entry], sourceLocation: SourceLocation = #_sourceLocation) {
        let last = log.last
        #expect(last?.event == "closed" && last?.by == "host", "log: \(log)", sourceLocation: sourceLocation)
        #expect(last?.scanning == false, "scanning left on:\n\(log)", sourceLocation: sourceLocation)
        #expect(last?.advertising == false, "advertising left on:\n\(log)", sourceLocation: sourceLocation)
    }
}
