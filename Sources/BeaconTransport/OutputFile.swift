import Glibc

/// A file written front to back through a buffer, created (or emptied) when opened. Writes reach the
/// file when the buffer fills and on `close()`; a failure names the call and the file.
public final class OutputFile {
    public let path: String
    private var descriptor: Int32
    private var buffer: [UInt8] = []
    private static let bufferLimit = 256 * 1024

    public init(path: String) throws(SystemError) {
        self.path = path
        descriptor = try syscall("open(\(path))") { open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644) }
        buffer.reserveCapacity(Self.bufferLimit + 4096)
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

    /// Removes the file at `path`, if it is there: an output left unfinished.
    public static func remove(_ path: String) {
        _ = unlink(path)
    }

    private func flush() throws(SystemError) {
        try writeAll(descriptor, &buffer, call: "write(\(path))")
    }
}
