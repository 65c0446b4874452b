import Foundation

/// One test's tools/fault_controller.py: a scripted H4 controller on a free TCP port that injects one
/// fault and logs every command it received, with the scanning and advertising state after it.
final class FaultController: Sendable {
    /// One line of the controller's command log.
    struct Entry: Decodable, Equatable {
        /// `0x200C` for a command; nil for `fault` and `closed` lines.
        let opcode: String?
        let name: String?
        /// The command's parameters in hex.
        let params: String?
        /// How the controller answered: `complete`, `error`, `silent`, `delay`, ...
        let answer: String?
        /// `fault` (a run fault happened here) or `closed` (the last line).
        let event: String?
        /// Who closed the connection (`host` or `controller`), on the `closed` line.
        let by: String?
        let scanning: Bool
        let advertising: Bool
        /// When the controller logged the line: CLOCK_MONOTONIC seconds, as Python's time.monotonic().
        let time: Double
        /// The command a `late-answer` line answers.
        let of: String?

        /// An enable command (scan or advertising) that turns the feature off.
        var isDisable: Bool {
            guard let name, name.hasSuffix("Scan_Enable") || name.hasSuffix("Advertising_Enable") else { return false }
            return params?.hasPrefix("00") == true
        }
    }

    /// Beacon's `--hci` spec for this controller.
    let spec: String
    let logPath: String
    /// Where the host's process id goes for `--signal-host` (`BeaconProcess.start(_:limit:pidFile:)`).
    let hostPidFile: String
    private let process: ChildProcess
    private let scratch: URL

    private init(spec: String, logPath: String, hostPidFile: String, process: ChildProcess, scratch: URL) {
        self.spec = spec
        self.logPath = logPath
        self.hostPidFile = hostPidFile
        self.process = process
        self.scratch = scratch
    }

    /// Starts the controller with `arguments` (`--scenario ...`) and waits for its port.
    static func start(_ arguments: [String]) async throws -> FaultController {
        guard FileManager.default.isExecutableFile(atPath: ProjectPaths.python) else {
            throw ChildProcessError(description: "no \(ProjectPaths.python); run `make deps`")
        }
        let scratch = try ProjectPaths.makeScratchDirectory()
        let logPath = scratch.appendingPathComponent("commands.jsonl").path
        let hostPidFile = scratch.appendingPathComponent("host.pid").path
        let process = try ChildProcess(
            name: "fault_controller " + arguments.joined(separator: " "),
            executable: ProjectPaths.python,
            arguments: [ProjectPaths.tool("fault_controller.py"), "--log", logPath, "--limit", "\(Self.limitSeconds)",
                        "--host-pid-file", hostPidFile] + arguments,
            input: .heldOpen,
            limit: HangGuard.processLimit)
        do {
            let line = try await process.waitForLine(within: HangGuard.startUp, "LISTENING") { $0.hasPrefix("LISTENING ") }
            return FaultController(spec: String(line.line.dropFirst("LISTENING ".count)), logPath: logPath,
                                   hostPidFile: hostPidFile, process: process, scratch: scratch)
        } catch {
            await process.stop()
            throw error
        }
    }

    /// The controller closes the connection itself after this long (`--limit`): a host still connected
    /// then did not end the conversation by itself, which `closed` by `controller` in the log shows.
    static let limitSeconds = 100

    /// Runs `body` with a fresh controller (holding an emulator slot) and always stops it afterwards.
    static func with<T>(_ arguments: [String], _ body: (FaultController) async throws -> T) async throws -> T {
        try await EmulatorSlots.shared.run {
            let controller = try await start(arguments)
            do {
                let result = try await body(controller)
                await controller.stop()
                return result
            } catch {
                await controller.stop()
                throw error
            }
        }
    }

    /// The log so far.
    func entries() throws -> [Entry] {
        guard FileManager.default.fileExists(atPath: logPath) else { return [] }
        let text = try String(contentsOfFile: logPath, encoding: .utf8)
        let decoder = JSONDecoder()
        return try text.split(separator: "\n").map { try decoder.decode(Entry.self, from: Data($0.utf8)) }
    }

    /// Waits until the log satisfies `condition` (the controller saw what the test waits for).
    @discardableResult
    func waitForLog(within timeout: Duration, _ what: String, where condition: ([Entry]) -> Bool) async throws -> [Entry] {
        let deadline = ContinuousClock.now + timeout
        while true {
            let entries = try entries()
            if condition(entries) { return entries }
            if ContinuousClock.now >= deadline {
                throw ChildProcessError(description: "fault controller: no \(what) within \(timeout); log:\n"
                    + entries.map { "\($0)" }.joined(separator: "\n"))
            }
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    /// The log once the host closed the connection (bounded wait).
    func finalLog() async throws -> [Entry] {
        try await waitForLog(within: HangGuard.step, "closed line") { $0.last?.event == "closed" }
    }

    func stop() async {
        await process.stop()
        do {
            try FileManager.default.removeItem(at: scratch)
        } catch {
            // Left in /tmp; harmless.
        }
    }
}
