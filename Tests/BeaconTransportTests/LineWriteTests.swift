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
}
