import Glibc

/// A file written front to back through a buffer, created (or emptied, or with `appending` added to)
/// when opened. Writes reach the file when the buffer fills and on `close()`; a failure names the call
/// and the file.
public final class OutputFile {
    public let path: String
    private var descriptor: Int32
    private var buffer: [UInt8] = []
    private static let bufferLimit = 256 * 1024

    /// Creates or empties `path` (with `appending`, creates it or keeps what it holds, every write going
    /// to its end); a FIFO nobody reads fails at once (see `openWithoutWaitingForAReader`). Errors name
    /// the file by the command-line option that gave it (`--out /x.btsnoop`), when there is one.
    public init(path: String, option: String? = nil, appending: Bool = false) throws(TransportError) {
        self.path = path
        let name = option.map { "\($0) \(path)" } ?? "writing \(path)"
        descriptor = try Self.openWithoutWaitingForAReader(path, flags: appending ? O_APPEND : O_TRUNC, name: name)
        // Writes wait for a FIFO's reader to take them, as they would to a file that took its time.
        let fd = descriptor
        do throws(SystemError) {
            let flags = try syscall("fcntl") { fcntl(fd, F_GETFL) }
            try syscall("fcntl") { fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) }
        } catch {
            throw TransportError.from(error, transport: name)
        }
        buffer.reserveCapacity(Self.bufferLimit + 4096)
    }

    /// Opens `path` for writing, created (mode 0644) when missing, with `flags` added. A FIFO without a
    /// reader fails at once (ENXIO) instead of blocking the open where no signal can end it. The
    /// descriptor is non-blocking. Every failure is an output that cannot be created, named `name`.
    static func openWithoutWaitingForAReader(_ path: String, flags: Int32, name: String) throws(TransportError) -> Int32 {
        do throws(SystemError) {
            return try syscall("open") { open(path, O_WRONLY | O_CREAT | O_CLOEXEC | O_NONBLOCK | flags, 0o644) }
        } catch {
            var failure = error.errno == ENXIO
                ? TransportError(.io, "\(name): a FIFO with no reader", systemError: error)
                : TransportError.from(error, transport: name)
            failure.category = .cannotCreate
            throw failure
        }
    }

    deinit { closeDescriptor(descriptor) }

    /// Lets `body` append to the buffer in place (an encoder writing straight into it), then writes the
    /// buffer out if it is full.
    public func append(_ body: (inout [UInt8]) -> Void) throws(SystemError) {
        body(&buffer)
        if buffer.count >= Self.bufferLimit { try flush() }
    }

    /// Writes everything buffered and closes the file.
    public func close() throws(SystemError) {
        guard descriptor >= 0 else { return }
        defer {
            closeDescriptor(descriptor)
            descriptor = -1
        }
        try flush()
    }

    /// Removes the regular file at `path`, an output left unfinished: true when it removed one. A
    /// missing file, a FIFO or a device holds nothing unfinished and is left alone.
    public static func remove(_ path: String) throws(SystemError) -> Bool {
        var info = stat()
        guard (try? syscall("stat") { stat(path, &info) }) != nil, info.st_mode & S_IFMT == S_IFREG else { return false }
        try syscall("unlink(\(path))") { unlink(path) }
        return true
    }

    private func flush() throws(SystemError) {
        try writeAll(descriptor, &buffer, call: "write(\(path))")
    }
}
