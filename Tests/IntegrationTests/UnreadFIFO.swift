import Foundation
import Testing

/// A FIFO that beacon writes into (stdout, `--record`) and nobody reads: held open for reading and
/// writing (so beacon's open never blocks, and the reader never goes away), never read until the test
/// says so. Its buffer is two pages: poll(2) calls a pipe writable only while a whole page is free.
final class UnreadFIFO {
    let path: String
    let held: Int32
    private let directory: URL

    init(_ name: String) throws {
        directory = try ProjectPaths.makeScratchDirectory()
        path = directory.appendingPathComponent(name).path
        guard mkfifo(path, 0o600) == 0 else { throw ChildProcessError(description: "mkfifo \(path): errno \(errno)") }
        held = open(path, O_RDWR | O_NONBLOCK | O_CLOEXEC)
        guard held >= 0 else { throw ChildProcessError(description: "open \(path): errno \(errno)") }
        _ = fcntl(held, 1031 /* F_SETPIPE_SZ */, 8192)
    }

    deinit {
        close(held)
        try? FileManager.default.removeItem(at: directory)
    }

    /// Bytes written and not read.
    var queued: Int32 {
        var count: Int32 = 0
        _ = ioctl(held, 0x541B /* FIONREAD */, &count)
        return count
    }

    /// Waits until more than `bytes` are queued (both pages in use: the writer is stuck from then on), or
    /// `writer` has ended; the bytes queued.
    func waitUntilFull(beyond bytes: Int32 = 4000, while writer: ChildProcess, within limit: Duration = HangGuard.step) async throws -> Int32 {
        let deadline = ContinuousClock.now + limit
        var count = queued
        while count <= bytes && writer.isRunning {
            try #require(ContinuousClock.now < deadline, "\(path) never filled (\(count) bytes queued)")
            try await Task.sleep(for: .milliseconds(20))
            count = queued
        }
        return count
    }

    /// Everything queued, read at last.
    func readAll() -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: Int(queued))
        let count = read(held, &bytes, bytes.count)
        return Array(bytes.prefix(max(0, count)))
    }
}
