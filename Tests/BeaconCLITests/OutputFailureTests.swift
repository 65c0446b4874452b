import BeaconCLI
import BeaconTransport
import Foundation
import Glibc
import Testing

@Suite("stdout that cannot be written")
struct OutputFailureTests {
    @Test("a failed stdout write ends the run with one Error line and exit 74, and nothing is written after it")
    func failedWriteIsAnError() throws {
        let directory = try TemporaryDirectory()
        let capture = directory.path("x.snoop")
        try Data(BadCaptureTests.goodH4).write(to: URL(fileURLWithPath: capture))
        final class Sink: @unchecked Sendable {
            var attempts = 0
            var errors: [String] = []
        }
        let sink = Sink()
        // The first line is written; the second hits a full disk.
        let console = Console(
            writeLine: { _ in
                sink.attempts += 1
                return sink.attempts == 1 ? .written : .failed(SystemError(call: "write", errno: ENOSPC))
            },
            diagnose: { sink.errors.append($0) })
        let code = BeaconTool.run(arguments: ["range", "--hci", "btsnoop:\(capture)", "--uuid", BadCaptureTests.uuid.description],
                                  environment: [:], console: console, signals: nil)
        #expect(code == 74)
        #expect(sink.errors == ["Error: stdout: No space left on device"])
        #expect(sink.attempts == 2)
    }

    @Test("a reader that went away (EPIPE) ends the run quietly with exit 0")
    func readerGoneIsSuccess() throws {
        let directory = try TemporaryDirectory()
        let capture = directory.path("x.snoop")
        try Data(BadCaptureTests.goodH4).write(to: URL(fileURLWithPath: capture))
        final class Sink: @unchecked Sendable {
            var attempts = 0
            var errors: [String] = []
        }
        let sink = Sink()
        let console = Console(writeLine: { _ in sink.attempts += 1; return .stopped }, diagnose: { sink.errors.append($0) })
        let code = BeaconTool.run(arguments: ["range", "--hci", "btsnoop:\(capture)", "--uuid", BadCaptureTests.uuid.description],
                                  environment: [:], console: console, signals: nil)
        #expect(code == 0)
        #expect(sink.errors.isEmpty)
        #expect(sink.attempts == 1)
    }
}
