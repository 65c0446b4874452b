import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A failure of a child process the tests started: it did not start, did not
/// say what was expected in time, or did not exit in time (and was killed).
struct ChildProcessError: Error, CustomStringConvertible {
    let description: String
}

/// How a child process ended.
enum Termination: Equatable, CustomStringConvertible {
    case exited(Int32)
    case signalled(Int32)

    var description: String {
        switch self {
        case .exited(let status): "exit status \(status)"
        case .signalled(let signal): "killed by signal \(signal)"
        }
    }
}

/// What a child process reads on stdin.
enum ChildInput {
    /// /dev/null.
    case null
    /// These bytes, then end of file.
    case bytes(Data)
    /// A pipe the test process keeps open for the child's whole life: the rig
    /// helpers exit at its end of file, so a test run that dies never leaves
    /// them behind.
    case heldOpen
}

/// Lines of one output stream, collected by a reader thread as they arrive.
private final class LineCollector: Sendable {
    private struct State {
        var lines: [String] = []
        var partial: [UInt8] = []
        var closed = false
    }

    private let state = Mutex(State())

    func append(_ bytes: UnsafeRawBufferPointer) {
        state.withLock { state in
            for byte in bytes {
                if byte == UInt8(ascii: "\n") {
                    state.lines.append(String(decoding: state.partial, as: UTF8.self))
                    state.partial.removeAll(keepingCapacity: true)
                } else {
                    state.partial.append(byte)
                }
            }
        }
    }

    func finish() {
        state.withLock { state in
            if !state.partial.isEmpty {
                state.lines.append(String(decoding: state.partial, as: UTF8.self))
                state.partial.removeAll()
            }
            state.closed = true
        }
    }

    var lines: [String] { state.withLock { $0.lines } }
    var isClosed: Bool { state.withLock { $0.closed } }

    /// Reads `fd` on a thread of its own until end of file, then closes it.
    func drain(_ fd: Int32) {
        let thread = Thread { [self] in
            var buffer = [UInt8](repeating: 0, count: 16 * 1024)
            while true {
                let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
                if count > 0 {
                    buffer.withUnsafeBytes { append(UnsafeRawBufferPointer(rebasing: $0[0..<count])) }
                } else if count < 0 && errno == EINTR {
                    continue
                } else {
                    break
                }
            }
            close(fd)
            finish()
        }
        thread.start()
    }
}

/// A program started by a test, with its stdout and stderr collected line by
/// line, signals on demand and a hard time limit after which it is killed.
final class ChildProcess: @unchecked Sendable {
    // @unchecked: `Process` is only touched through its thread-safe accessors
    // (isRunning, processIdentifier, termination*), and the rest is immutable
    // or behind a Mutex.

    /// Short name used in failure messages.
    let name: String
    private let process = Process()
    private let stdout = LineCollector()
    private let stderr = LineCollector()
    private let heldInput = Mutex<FileHandle?>(nil)
    private let killedAtLimit = Mutex(false)

    /// Starts `executable` with `arguments`. The child is killed with SIGKILL
    /// if it is still running after `limit`, whatever the test is doing.
    init(
        name: String,
        executable: String,
        arguments: [String],
        input: ChildInput = .null,
        environment: [String: String] = [:],
        currentDirectory: URL? = nil,
        limit: Duration = HangGuard.processLimit
    ) throws {
        self.name = name
        guard FileManager.default.isExecutableFile(atPath: executable) else {
            throw ChildProcessError(description: "\(name): no executable at \(executable)")
        }
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        }
        if let currentDirectory { process.currentDirectoryURL = currentDirectory }

        let outPipe = Pipe()
        let errPipe = Pipe()
        process.standardOutput = outPipe
        process.standardError = errPipe
        var inPipe: Pipe?
        switch input {
        case .null:
            process.standardInput = FileHandle.nullDevice
        case .bytes, .heldOpen:
            let pipe = Pipe()
            process.standardInput = pipe
            inPipe = pipe
        }

        // A child inherits the signal mask of the thread that spawns it, and
        // the test runner's threads block SIGINT and SIGTERM: unblock them for
        // the spawn so the child reacts to the signals the tests send.
        var unblocked = sigset_t()
        var saved = sigset_t()
        sigemptyset(&unblocked)
        pthread_sigmask(SIG_SETMASK, &unblocked, &saved)
        defer { pthread_sigmask(SIG_SETMASK, &saved, nil) }
        try process.run()

        // Our copies of the child's ends: without closing them we would never
        // see end of file on its output.
        try outPipe.fileHandleForWriting.close()
        try errPipe.fileHandleForWriting.close()
        stdout.drain(dup(outPipe.fileHandleForReading.fileDescriptor))
        stderr.drain(dup(errPipe.fileHandleForReading.fileDescriptor))
        try outPipe.fileHandleForReading.close()
        try errPipe.fileHandleForReading.close()

        if let inPipe {
            try inPipe.fileHandleForReading.close()
            switch input {
            case .bytes(let data):
                // Written from another thread so a child that does not read
                // cannot block the test on a full pipe.
                let writer = inPipe.fileHandleForWriting
                Thread {
                    do {
                        try writer.write(contentsOf: data)
                        try writer.close()
                    } catch {
                        // The child exited without reading everything (EPIPE);
                        // its exit status and stderr report why.
                    }
                }.start()
            case .heldOpen:
                heldInput.withLock { $0 = inPipe.fileHandleForWriting }
            case .null:
                break
            }
        }

        let seconds = Double(limit.components.seconds) + Double(limit.components.attoseconds) / 1e18
        DispatchQueue.global().asyncAfter(deadline: .now() + seconds) { [self] in
            if process.isRunning {
                killedAtLimit.withLock { $0 = true }
                kill(process.processIdentifier, SIGKILL)
            }
        }
    }

    /// The process id.
    var pid: Int32 { process.processIdentifier }

    /// Whether the process has not yet exited.
    var isRunning: Bool { process.isRunning }

    /// Stdout lines received so far (without their newlines).
    var stdoutLines: [String] { stdout.lines }

    /// Stderr lines received so far.
    var stderrLines: [String] { stderr.lines }

    /// Sends `signal` (SIGINT, SIGTERM, ...) if the process is still running.
    func send(_ signal: Int32) {
        if process.isRunning { kill(process.processIdentifier, signal) }
    }

    /// Closes a `.heldOpen` stdin: the rig helpers take that as "stop now".
    func closeInput() {
        heldInput.withLock { handle in
            do {
                try handle?.close()
            } catch {
                // The child already exited and the pipe is broken: nothing left to tell it.
            }
            handle = nil
        }
    }

    /// Waits for the first stdout line at index `from` or later that satisfies
    /// `matches`. Throws if none arrives within `timeout`, stdout ends first or `matches` throws.
    @discardableResult
    func waitForLine(
        from: Int = 0,
        within timeout: Duration,
        _ what: String,
        where matches: (String) throws -> Bool
    ) async throws -> (index: Int, line: String) {
        let deadline = ContinuousClock.now + timeout
        var next = from
        while true {
            let lines = stdout.lines
            while next < lines.count {
                if try matches(lines[next]) { return (next, lines[next]) }
                next += 1
            }
            if stdout.isClosed && next >= stdout.lines.count {
                throw failure("stdout ended without \(what)")
            }
            if ContinuousClock.now >= deadline {
                throw failure("no \(what) within \(timeout)")
            }
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    /// Waits until the stdout lines so far satisfy `condition` (which may throw to fail the wait).
    /// Throws if that does not happen within `timeout` or stdout ends first.
    func waitForOutput(within timeout: Duration, _ what: String, until condition: ([String]) throws -> Bool) async throws {
        let deadline = ContinuousClock.now + timeout
        while true {
            let closed = stdout.isClosed
            if try condition(stdout.lines) { return }
            if closed { throw failure("stdout ended without \(what)") }
            if ContinuousClock.now >= deadline { throw failure("no \(what) within \(timeout)") }
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    /// Polls `condition` every 50 ms until it holds; throws with this process's output if it does not
    /// within `timeout`.
    func waitUntil(_ what: String, within timeout: Duration = HangGuard.step, _ condition: () -> Bool) async throws {
        let deadline = ContinuousClock.now + timeout
        while !condition() {
            if ContinuousClock.now >= deadline { throw failure("no \(what) within \(timeout)") }
            try await Task.sleep(for: .milliseconds(50))
        }
    }

    /// Waits for the process to exit and its output to be fully read. If it
    /// has not exited within `timeout`, kills it and throws.
    @discardableResult
    func waitForExit(within timeout: Duration) async throws -> Termination {
        let deadline = ContinuousClock.now + timeout
        while process.isRunning || !stdout.isClosed || !stderr.isClosed {
            if ContinuousClock.now >= deadline {
                let state = "running: \(process.isRunning), stdout open: \(!stdout.isClosed), stderr open: \(!stderr.isClosed)"
                kill(process.processIdentifier, SIGKILL)
                throw failure("did not exit within \(timeout) (\(state)); killed")
            }
            try await Task.sleep(for: .milliseconds(20))
        }
        if killedAtLimit.withLock({ $0 }) {
            throw failure("ran past its time limit; killed")
        }
        return termination
    }

    /// Asks the process to stop with `signal`, closes a held stdin and waits
    /// a bounded time; kills it if that was not enough. For clean-up paths.
    func stop(with signal: Int32 = SIGTERM, within timeout: Duration = HangGuard.step) async {
        send(signal)
        closeInput()
        do {
            try await waitForExit(within: timeout)
        } catch {
            // Already killed by waitForExit; nothing more to do while cleaning up.
        }
    }

    /// How the process ended; valid once `isRunning` is false.
    var termination: Termination {
        switch process.terminationReason {
        case .exit: .exited(process.terminationStatus)
        case .uncaughtSignal: .signalled(process.terminationStatus)
        @unknown default: .exited(process.terminationStatus)
        }
    }

    /// An error naming the process, with its stderr, for test failure messages.
    func failure(_ what: String) -> ChildProcessError {
        let errors = stderr.lines.suffix(20).joined(separator: "\n  ")
        let outputs = stdout.lines.suffix(10).joined(separator: "\n  ")
        return ChildProcessError(description: """
            \(name): \(what)
            last stdout:
              \(outputs)
            last stderr:
              \(errors)
            """)
    }
}
