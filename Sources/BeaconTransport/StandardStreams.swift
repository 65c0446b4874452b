import BeaconCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The process's standard streams, written with write(2) so each line reaches the reader at once.
public enum StandardStreams {
    /// Writes `line` and a newline to `descriptor` (see `write(lines:following:to:waiting:)`): short texts, such as
    /// help, a version or a diagnostic.
    public static func writeLine(_ line: String, to descriptor: Int32, waiting wait: WriteWait? = nil) -> LineWrite {
        withLine(line) { write(lines: $0, to: descriptor, waiting: wait) }
    }

    /// Calls `body` with the bytes of `text` and a newline.
    public static func withLine<Result>(_ text: String, _ body: (UnsafeRawBufferPointer) -> Result) -> Result {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count + 1)
        bytes.append(contentsOf: text.utf8)
        bytes.append(UInt8(ascii: "\n"))
        return bytes.withUnsafeBytes(body)
    }

    /// Writes `lines`, one or more lines each ending with its newline, to `descriptor`: `.stopped` when the
    /// reader has gone (EPIPE, or a terminal that hung up), `.failed` for any other write error. The bytes are written where they are,
    /// never copied. A line too long to hold (thousands of ranged beacons) comes in pieces, the last one
    /// ending with the newline; `following` counts the bytes of it that earlier calls wrote, taken back
    /// with the rest when a piece fails on a file.
    ///
    /// With `wait` the write waits for room with poll(2) instead of blocking in write(2), and gives up
    /// (`.stopped`) when a signal or the deadline comes first: a reader that stopped reading must not keep
    /// SIGINT, SIGTERM or the end of a `--duration` run from ending it. Each write is then at most
    /// `PIPE_BUF` bytes, which a pipe that polls writable takes without blocking.
    public static func write(lines: UnsafeRawBufferPointer, following: Int = 0, to descriptor: Int32,
                             waiting wait: WriteWait? = nil) -> LineWrite {
        // Without a wait, write(2) blocks until there is room: the wait never ends and the lines go out whole.
        let waiting = wait ?? WriteWait(interrupt: nil)
        let (end, written) = waiting.write(lines, to: descriptor, chunk: wait == nil ? lines.count : Int(PIPE_BUF))
        switch end {
        case .written: return .written
        case .interrupted: return .stopped
        case .failed(let failure):
            if written + following > 0 { removePartialLine(descriptor, written: written + following) }
            return readerHasGone(failure, descriptor) ? .stopped : .failed(SystemError(call: "write", errno: failure))
        }
    }

    /// EPIPE: the pipe's reader has gone. EIO on a character device: a terminal that hung up (the ssh
    /// session or window closed, as SIGHUP says; isatty no longer says it is one), which ends output as
    /// a closed pipe does.
    static func readerHasGone(_ failure: Int32, _ descriptor: Int32) -> Bool {
        if failure == EPIPE { return true }
        var info = stat()
        return failure == EIO && fstat(descriptor, &info) == 0 && info.st_mode & S_IFMT == S_IFCHR
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
