import Glibc
import Testing
@testable import BeaconTransport

@Suite("how writing an output line ends")
struct LineWriteTests {
    @Test("a write error other than EPIPE is a failure naming errno, not a reader that went away")
    func fullDeviceIsAFailure() throws {
        let full = try syscall("open(/dev/full)") { open("/dev/full", O_WRONLY | O_CLOEXEC) }
        defer { _ = Glibc.close(full) }
        #expect(StandardStreams.writeLine("{\"event\":\"state\"}", to: full) == .failed(SystemError(call: "write", errno: ENOSPC)))
    }

    @Test("a reader that closed the pipe (EPIPE) stops the output without a failure")
    func closedPipeStops() throws {
        var fds: [Int32] = [0, 0]
        try syscall("pipe") { pipe(&fds) }
        _ = Glibc.close(fds[0])
        defer { _ = Glibc.close(fds[1]) }
        let previous = signal(SIGPIPE, SIG_IGN)
        defer { _ = signal(SIGPIPE, previous) }
        #expect(StandardStreams.writeLine("{\"event\":\"state\"}", to: fds[1]) == .stopped)
    }

    @Test("a terminal that hung up (EIO once its other side closed) stops the output without a failure")
    func hungUpTerminalStops() throws {
        let master = try syscall("open(/dev/ptmx)") { open("/dev/ptmx", O_RDWR | O_NOCTTY | O_CLOEXEC) }
        var masterOpen = true
        defer { if masterOpen { _ = Glibc.close(master) } }
        // unlockpt and ptsname, by their ioctls (TIOCSPTLCK, TIOCGPTN), which Glibc's module leaves out.
        var unlock: Int32 = 0
        try syscall("ioctl(TIOCSPTLCK)") { ioctl(master, 0x4004_5431, &unlock) }
        var number: UInt32 = 0
        try syscall("ioctl(TIOCGPTN)") { ioctl(master, 0x8004_5430, &number) }
        let name = "/dev/pts/\(number)"
        let terminal = try syscall("open(pts)") { open(name, O_WRONLY | O_NOCTTY | O_CLOEXEC) }
        defer { _ = Glibc.close(terminal) }
        #expect(StandardStreams.writeLine("{\"event\":\"state\"}", to: terminal) == .written)
        _ = Glibc.close(master)
        masterOpen = false
        #expect(StandardStreams.writeLine("{\"event\":\"state\"}", to: terminal) == .stopped)
    }
}

@Suite("writing lines from the caller's bytes")
struct LinesFromBytesTests {
    /// What `write(lines:)` left in a new regular file.
    private func written(_ bytes: [UInt8]) throws -> (LineWrite, [UInt8]) {
        let path = temporaryPath("lines.jsonl")
        let fd = try syscall("open") { open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600) }
        defer {
            _ = Glibc.close(fd)
            unlink(path)
        }
        let outcome = bytes.withUnsafeBytes { StandardStreams.write(lines: $0, to: fd) }
        let size = Int(try syscall("lseek") { lseek(fd, 0, SEEK_END) })
        var back = [UInt8](repeating: 0, count: size)
        let read = try syscall("pread") { back.withUnsafeMutableBytes { pread(fd, $0.baseAddress, size, 0) } }
        return (outcome, Array(back.prefix(read)))
    }

    @Test("a line, a batch of lines, and a line of megabytes reach a file exactly as given", arguments: [
        Array("{\"event\":\"enter\"}\n".utf8),
        Array("{\"n\":1}\n{\"n\":2}\n{\"n\":3}\n".utf8),
        [UInt8](repeating: UInt8(ascii: "x"), count: 3 << 20) + [0x0A],
    ])
    func reachFileWhole(lines: [UInt8]) throws {
        let (outcome, file) = try written(lines)
        #expect(outcome == .written)
        #expect(file == lines)
    }
}
