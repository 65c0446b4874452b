import BeaconCore
import Foundation
import Glibc
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

extension RecordingPathTests {
    @Test("a --record file that cannot be created is exit 73, before anything is replayed")
    func recordingCannotBeCreated() throws {
        let directory = try TemporaryDirectory()
        let capture = directory.path("x.snoop")
        try Data(BadCaptureTests.goodH4).write(to: URL(fileURLWithPath: capture))
        var paths = [directory.path("missing/rec.snoop"), directory.path("x.snoop/rec.snoop")]
        if getuid() != 0 {
            let readOnly = directory.path("read-only.snoop")
            try Data().write(to: URL(fileURLWithPath: readOnly))
            try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: readOnly)
            paths.append(readOnly)
        }
        for record in paths {
            let io = CapturedConsole()
            #expect(io.run(["range", "--hci", "btsnoop:\(capture)", "--uuid", BadCaptureTests.uuid.description,
                            "--record", record]) == 73, "\(record)")
            #expect(io.stderr.count == 1 && io.stderr.first?.hasPrefix("Error: --record \(record): ") == true, "\(io.stderr)")
            #expect(io.stdout.isEmpty)
        }
    }

    @Test("--hci btsnoop: naming a directory is missing input, exit 66")
    func captureIsADirectory() throws {
        let directory = try TemporaryDirectory()
        let io = CapturedConsole()
        #expect(io.run(["range", "--hci", "btsnoop:\(directory.path(""))", "--uuid", BadCaptureTests.uuid.description]) == 66)
        #expect(io.stderr.count == 1 && io.stderr.first?.contains("Is a directory") == true, "\(io.stderr)")
    }
}

extension RecordingPathTests {
    @Test("--record into a FIFO that nobody reads fails at once with exit 73 instead of blocking", .timeLimit(.minutes(1)))
    func recordingIntoAnUnreadFIFO() throws {
        let directory = try TemporaryDirectory()
        let capture = directory.path("x.snoop")
        try Data(BadCaptureTests.goodH4).write(to: URL(fileURLWithPath: capture))
        let fifo = directory.path("fifo")
        #expect(mkfifo(fifo, 0o600) == 0)
        let io = CapturedConsole()
        #expect(io.run(["range", "--hci", "btsnoop:\(capture)", "--uuid", BadCaptureTests.uuid.description, "--record", fifo]) == 73)
        #expect(io.stderr == ["Error: --record \(fifo): a FIFO with no reader"])
        #expect(io.stdout.isEmpty)
    }
}

extension RecordingPathTests {
    static let magic: [UInt8] = Array("btsnoop\0".utf8)
    static let badMagic: [UInt8] = Array("btsnooX\0".utf8) + [0, 0, 0, 1, 0, 0, 0x03, 0xEA]
    static let truncatedHeader: [UInt8] = magic + [0, 0]
    static let unknownDatalink: [UInt8] = magic + [0, 0, 0, 1, 0, 0, 0x0F, 0xFF]
    static let refusedHeaders: [(String, [UInt8])] = [
        ("bad magic", badMagic), ("truncated header", truncatedHeader), ("unknown datalink", unknownDatalink),
    ]

    @Test("a replayed capture refused at its header leaves an existing --record file as it was",
          arguments: refusedHeaders)
    func refusedInputKeepsRecording(what: String, header: [UInt8]) throws {
        let directory = try TemporaryDirectory()
        let capture = directory.path("bad.snoop"), record = directory.path("existing.snoop")
        try Data(header).write(to: URL(fileURLWithPath: capture))
        let earlier = BadCaptureTests.goodH4
        try Data(earlier).write(to: URL(fileURLWithPath: record))
        let io = CapturedConsole()
        #expect(io.run(["range", "--hci", "btsnoop:\(capture)", "--uuid", "E2C56DB5-DFFB-48D2-B060-D0F5A71096E0",
                        "--record", record]) == 65, "\(what): \(io.stderr)")
        #expect(try Array(Data(contentsOf: URL(fileURLWithPath: record))) == earlier, "\(what)")
    }

    @Test("a replay that records replaces an existing --record file with the new capture")
    func goodInputReplacesRecording() throws {
        let directory = try TemporaryDirectory()
        let capture = directory.path("x.snoop"), record = directory.path("existing.snoop")
        try Data(BadCaptureTests.goodH4).write(to: URL(fileURLWithPath: capture))
        try Data(repeating: 0xAA, count: 100_000).write(to: URL(fileURLWithPath: record))
        let io = CapturedConsole()
        #expect(io.run(["range", "--hci", "btsnoop:\(capture)", "--uuid", "E2C56DB5-DFFB-48D2-B060-D0F5A71096E0",
                        "--record", record]) == 0, "\(io.stderr)")
        let recorded = try Array(Data(contentsOf: URL(fileURLWithPath: record)))
        #expect(Array(recorded.prefix(8)) == Self.magic)
        #expect(recorded.count < 100_000, "the earlier file's bytes are gone")
    }
}
