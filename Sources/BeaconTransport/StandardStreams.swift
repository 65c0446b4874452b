import BeaconCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The process's standard streams, written with write(2) so each line reaches the reader at once.
public enum StandardStreams {
    /// Writes `line` and a newline to `descriptor`: `.stopped` when the reader has gone (EPIPE), `.failed`
    /// for any other write error.
    ///
    /// With `interrupt` (the signal descriptor) the write waits for room with poll(2) instead of
    /// blocking in write(2), and gives up (false) once `interrupt` is readable, or at once when there is
    /// no room and `alreadyInterrupted` says a signal was taken already: a reader that stopped reading
    /// must not keep SIGINT or SIGTERM from ending the run (`.stopped`); nor `deadline` (monotonic, the
    /// end of a `--duration` run) once it has passed. Each write is at most `PIPE_BUF` bytes,
    /// which a pipe that polls writable takes without blocking.
    public static func writeLine(_ line: String, to descriptor: Int32, interruptedBy interrupt: Int32? = nil,
                                 alreadyInterrupted: () -> Bool = { false }, deadline: Micros? = nil) -> LineWrite {
        // Sized for the newline up front: a line can be megabytes (thousands of ranged beacons), and
        // growing the copy for one more byte would hold it twice over for a moment.
        var bytes: [UInt8] = []
        bytes.reserveCapacity(line.utf8.count + 1)
        bytes.append(contentsOf: line.utf8)
        bytes.append(UInt8(ascii: "\n"))
        var offset = 0
        while offset < bytes.count {
            if let interrupt, !waitForRoom(descriptor, interrupt: interrupt, wait: !alreadyInterrupted(), deadline: deadline) {
                return .stopped
            }
            let chunk = interrupt == nil ? bytes.count - offset : min(bytes.count - offset, Int(PIPE_BUF))
            let written = bytes.withUnsafeBytes { buffer in
                Glibc.write(descriptor, buffer.baseAddress.map { $0 + offset }, chunk)
            }
            if written < 0 {
                if errno == EINTR || errno == EAGAIN { continue }
                let failure = errno
                if offset > 0 { removePartialLine(descriptor, written: offset) }
                return failure == EPIPE ? .stopped : .failed(SystemError(call: "write", errno: failure))
            }
            offset += written
        }
        return .written
    }

    /// Takes back the `written` bytes of a line that could not be written whole, where the output is a
    /// file (a full disk, a file-size limit): a line is there whole or not at all. On a pipe or terminal
    /// nothing can be taken back; lines of up to `PIPE_BUF` bytes reach a pipe whole anyway.
    private static func removePartialLine(_ descriptor: Int32, written: Int) {
        do throws(SystemError) {
            var info = stat()
            try syscall("fstat") { fstat(descriptor, &info) }
            guard info.st_mode & S_IFMT == S_IFREG else { return }
            let start = try syscall("lseek") { lseek(descriptor, 0, SEEK_CUR) } - written
            guard start >= 0 else { return }
            try syscall("ftruncate") { ftruncate(descriptor, start) }
            try syscall("lseek") { lseek(descriptor, start, SEEK_SET) }
        } catch {
            // The write error is what gets reported; the partial line then stays.
        }
    }

    /// Waits until `descriptor` can be written (or has failed, which the write then reports).
    /// False when `interrupt` became readable first, or, without `wait`, when there is no room now.
    private static func waitForRoom(_ descriptor: Int32, interrupt: Int32, wait: Bool, deadline: Micros?) -> Bool {
        var entries = [pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0),
                       pollfd(fd: interrupt, events: Int16(POLLIN), revents: 0)]
        while true {
            var timeout: Int32 = wait ? -1 : 0
            if wait, let deadline {
                let left = deadline.value - Clock.monotonic().value
                timeout = left <= 0 ? 0 : Int32(min((left + 999) / 1000, Int64(Int32.max)))
            }
            let ready = entries.withUnsafeMutableBufferPointer { poll($0.baseAddress, 2, timeout) }
            if ready < 0 {
                if errno == EINTR { continue }
                return true // let the write report the failure
            }
            if entries[1].revents & Int16(POLLIN) != 0 { return false }
            if entries[0].revents != 0 { return true }
            if timeout >= 0 { return false }
        }
    }

    /// Opens /dev/null on whichever of descriptors 0, 1 and 2 the process was started without
    /// (`beacon … <&- >&-`). Call it before opening anything else: otherwise the next descriptor opened
    /// (the signal descriptor, the controller's socket) would become stdin or stdout, and output lines
    /// would be written into it.
    public static func openMissing() throws(SystemError) {
        for descriptor: Int32 in 0...2 where fcntl(descriptor, F_GETFD) == -1 && errno == EBADF {
            let opened = try syscall("open(/dev/null)") { open("/dev/null", O_RDWR) }
            // The lowest free descriptor is this one, unless something opened the lower ones meanwhile.
            if opened != descriptor {
                _ = try syscall("dup2") { dup2(opened, descriptor) }
                closeDescriptor(opened)
            }
        }
    }

    /// The process environment as a dictionary.
    public static func environment() -> [String: String] {
        var result: [String: String] = [:]
        var pointer = environ
        while let entry = pointer.pointee {
            let text = String(cString: entry)
            if let eq = text.firstIndex(of: "=") {
                result[String(text[..<eq])] = String(text[text.index(after: eq)...])
            }
            pointer += 1
        }
        return result
    }
}
