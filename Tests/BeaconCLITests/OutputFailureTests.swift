import BeaconCLI
import BeaconTransport
import Foundation
import Glibc
import Testing

@Suite("stdout that cannot be written")
struct OutputFailureTests {
    /// What a run of `beacon range` (or another listening command) over a good capture did with a
    /// console whose `writeLine` answers `answer` for the nth attempt (1-based).
    final class Run: @unchecked Sendable {
        var attempts = 0
        var errors: [String] = []
        var code: Int32 = -1

        init(_ command: String = "range", _ answer: @escaping (Int) -> LineWrite) throws {
            let directory = try TemporaryDirectory()
            let capture = directory.path("x.snoop")
            try Data(BadCaptureTests.goodH4).write(to: URL(fileURLWithPath: capture))
            let console = Console(writeLine: { [unowned self] _ in
                attempts += 1
                return answer(attempts)
            }, diagnose: { [unowned self] in errors.append($0) })
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
}
