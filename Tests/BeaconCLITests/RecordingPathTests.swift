import BeaconCore
import Foundation
import Testing

/// Where `--record` may write: never over the capture being replayed, and a path that cannot be
/// created is the exit code for an output that cannot be created.
@Suite("beacon range --record paths")
struct RecordingPathTests {
    @Test("--record naming the capture being replayed, by any path, is a usage error that leaves the capture whole")
    func recordingOverTheInput() throws {
        let directory = try TemporaryDirectory()
        let capture = directory.path("x.snoop")
        let original = BadCaptureTests.goodH4
        try Data(original).write(to: URL(fileURLWithPath: capture))
        try FileManager.default.createSymbolicLink(atPath: directory.path("link.snoop"), withDestinationPath: capture)
        try FileManager.default.linkItem(atPath: capture, toPath: directory.path("hard.snoop"))
        for record in [capture, directory.path("link.snoop"), directory.path("hard.snoop"), directory.path("./x.snoop")] {
            let io = CapturedConsole()
            #expect(io.run(["range", "--hci", "btsnoop:\(capture)", "--record", record]) == 64, "\(record)")
            #expect(io.stderr.first == "Error: '--record' would overwrite the capture being replayed '\(capture)'", "\(io.stderr)")
            #expect(io.stderr.last?.hasPrefix("Usage: beacon range") == true)
            #expect(io.stdout.isEmpty)
            #expect(try Array(Data(contentsOf: URL(fileURLWithPath: capture))) == original)
        }
    }
}
