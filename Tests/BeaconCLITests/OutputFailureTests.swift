import BeaconCLI
import BeaconTransport
import Foundation
import Glibc
import Testing

@Suite("stdout that cannot be written")
struct OutputFailureTests {
    /// What a run of `beacon range` (or another listening command) over a good capture did with a
    /// console whose `writeLines` answers `answer` for the nth attempt (1-based).
    /// With `batching`, the console is one that takes several lines per write (the process's stdout).
    final class Run: @unchecked Sendable {
        var attempts = 0
        /// What each attempt was given: a line, or lines joined by newlines.
        var texts: [String] = []
        var errors: [String] = []
        var code: Int32 = -1

        init(_ command: String = "range", batching: LineBatching? = nil, capture bytes: [UInt8] = BadCaptureTests.goodH4,
             _ answer: @escaping (Int) -> LineWrite) throws {
            let directory = try TemporaryDirectory()
            let capture = directory.path("x.snoop")
            try Data(bytes).write(to: URL(fileURLWithPath: capture))
            let console = Console(writeLines: { [unowned self] lines, _ in
                attempts += 1
                texts.append(String(decoding: lines.dropLast(), as: UTF8.self))
                return answer(attempts)
            }, diagnose: { [unowned self] in errors.append($0) }, lineBatching: batching)
            let filter = command == "range" ? ["--uuid", BadCaptureTests.uuid.description] : ["--each"]
            code = BeaconTool.run(arguments: [command, "--hci", "btsnoop:\(capture)"] + filter,
                                  environment: [:], console: console, signals: nil)
        }
    }

    @Test("a failed stdout write ends the run with one Error line and exit 74, and nothing is written after it",
          arguments: ["range", "scan"])
    func failedWriteIsAnError(command: String) throws {
        // The first line is written; the second hits a full disk.
        let run = try Run(command) { $0 == 1 ? .written : .failed(SystemError(call: "write", errno: ENOSPC)) }
        #expect(run.code == 74)
        #expect(run.errors == ["Error: stdout: No space left on device"])
        #expect(run.attempts == 2)
    }

    @Test("a reader that went away (EPIPE) ends the run quietly with exit 0", arguments: ["range", "scan"])
    func readerGoneIsSuccess(command: String) throws {
        let run = try Run(command) { _ in .stopped }
        #expect(run.code == 0)
        #expect(run.errors.isEmpty)
        #expect(run.attempts == 1)
    }

    /// The lines an unbatched run writes, for comparison.
    private func linesWrittenOneByOne() throws -> [String] {
        let run = try Run { _ in .written }
        #expect(run.code == 0 && run.attempts > 2, "the capture must give several lines")
        return run.texts
    }

    @Test("a replayed capture file's lines reach a batching stdout in one write, the same lines in the same order")
    func replayLinesAreBatched() throws {
        let oneByOne = try linesWrittenOneByOne()
        let run = try Run(batching: LineBatching(retriesLineByLine: true)) { _ in .written }
        #expect(run.code == 0)
        #expect(run.texts == [oneByOne.joined(separator: "\n")])
    }

    @Test("a batch that fails on a file is written again line by line: the output ends after the same line as unbatched")
    func failedBatchOnFileEndsWhereLinesWould() throws {
        let oneByOne = try linesWrittenOneByOne()
        // The batch fails (and was taken back); line by line, the first fits and the second hits the full disk.
        let run = try Run(batching: LineBatching(retriesLineByLine: true)) { $0 == 2 ? .written : .failed(SystemError(call: "write", errno: ENOSPC)) }
        #expect(run.code == 74)
        #expect(run.errors == ["Error: stdout: No space left on device"])
        #expect(run.texts == [oneByOne.joined(separator: "\n"), oneByOne[0], oneByOne[1]])
    }

    @Test("a batch that fails on a pipe is not written again (the pipe kept what it took)")
    func failedBatchOnPipeIsNotRetried() throws {
        let run = try Run(batching: LineBatching(retriesLineByLine: false)) { _ in .failed(SystemError(call: "write", errno: EIO)) }
        #expect(run.code == 74)
        #expect(run.attempts == 1)
    }

    @Test("a reader gone at the first batch ends the run quietly, as it does line by line")
    func stoppedBatchIsSuccess() throws {
        let run = try Run(batching: LineBatching(retriesLineByLine: true)) { _ in .stopped }
        #expect(run.code == 0)
        #expect(run.errors.isEmpty)
        #expect(run.attempts == 1)
    }
}

@Suite("stdout that cannot be written, for the commands that print text")
struct TextOutputFailureTests {
    /// Runs `arguments` with a stdout whose every write fails as a full disk does.
    func runOnFullDisk(_ arguments: [String]) -> (code: Int32, errors: [String]) {
        var errors: [String] = []
        let console = Console(writeLines: { _, _ in .failed(SystemError(call: "write", errno: ENOSPC)) },
                              diagnose: { errors.append($0) })
        let code = BeaconTool.run(arguments: arguments, environment: [:], console: console, signals: nil)
        return (code, errors)
    }

    @Test("help, version, the generators and simulate's listings end with one Error line and exit 74 on a full disk",
          arguments: [["--help"], ["help"], ["help", "range"], ["range", "--help"], ["version"], ["--version"],
                      ["generate-manpage"], ["generate-completion", "bash"], ["generate-completion", "zsh"],
                      ["generate-completion", "fish"], ["simulate", "--list"], ["simulate", "--scene", "walk-away", "--print-scene"]])
    func textOnFullDiskIsAnError(arguments: [String]) {
        let run = runOnFullDisk(arguments)
        #expect(run.code == 74)
        #expect(run.errors == ["Error: stdout: No space left on device"])
    }

    @Test("simulate --truth - on a full disk ends with one Error line and exit 74, and writes no line after the failure")
    func truthOnFullDiskIsAnError() throws {
        let directory = try TemporaryDirectory()
        var attempts = 0
        var errors: [String] = []
        let console = Console(writeLines: { _, _ in
            attempts += 1
            return attempts == 1 ? .written : .failed(SystemError(call: "write", errno: ENOSPC))
        }, diagnose: { errors.append($0) })
        let code = BeaconTool.run(arguments: ["simulate", "--scene", "walk-away", "--out", directory.path("c.snoop"), "--truth", "-"],
                                  environment: [:], console: console, signals: nil)
        #expect(code == 74)
        #expect(errors == ["Error: stdout: No space left on device"])
        #expect(attempts == 2)
    }

    @Test("simulate --truth - whose reader went away stops at once and exits 0, as range does")
    func truthReaderGoneStops() throws {
        let directory = try TemporaryDirectory()
        let whole = CapturedConsole()
        #expect(whole.run(["simulate", "--scene", "walk-away", "--out", directory.path("whole.snoop"), "--truth", "-"]) == 0)
        let wholeSize = try FileManager.default.attributesOfItem(atPath: directory.path("whole.snoop"))[.size] as? Int ?? 0
        var attempts = 0
        var errors: [String] = []
        let console = Console(writeLines: { _, _ in
            attempts += 1
            return .stopped
        }, diagnose: { errors.append($0) })
        let code = BeaconTool.run(arguments: ["simulate", "--scene", "walk-away", "--out", directory.path("c.snoop"), "--truth", "-"],
                                  environment: [:], console: console, signals: nil)
        #expect(code == 0)
        #expect(errors.isEmpty)
        #expect(attempts == 1)
        // The simulation stopped with the output: its capture holds only the start of the scene.
        let size = try FileManager.default.attributesOfItem(atPath: directory.path("c.snoop"))[.size] as? Int ?? 0
        #expect(size > 0 && size < wholeSize / 2)
    }
}
