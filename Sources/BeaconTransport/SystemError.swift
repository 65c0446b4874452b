import Glibc

/// A failed system call: its name and errno.
public struct SystemError: Error, CustomStringConvertible, Hashable, Sendable {
    /// The call, e.g. "connect" or "read(tcp:127.0.0.1:9001)".
    public let call: String
    public let errno: Int32

    public init(call: String, errno: Int32) {
        self.call = call
        self.errno = errno
    }

    /// The C library's text for `errno`, e.g. "Connection refused".
    public var message: String { String(cString: strerror(errno)) }

    public var description: String { "\(call): \(message)" }
}

/// Runs a system call that returns -1 and sets errno on failure, retrying when a signal interrupted it.
/// Every syscall in this target goes through here so failures name their call; `Result` is `Int32`
/// for most calls and `Int` (`ssize_t`) for read, write, send and recv.
@discardableResult
public func syscall<Result: FixedWidthInteger & SignedInteger>(_ name: String, _ body: () -> Result) throws(SystemError) -> Result {
    while true {
        let result = body()
        if result != -1 { return result }
        let code = Glibc.errno
        if code == EINTR { continue }
        throw SystemError(call: name, errno: code)
    }
}

/// `syscall` for the calls that return a null pointer and set errno on failure (opendir).
func pointerSyscall<Pointer>(_ name: String, _ body: () -> Pointer?) throws(SystemError) -> Pointer {
    while true {
        if let result = body() { return result }
        let code = Glibc.errno
        if code == EINTR { continue }
        throw SystemError(call: name, errno: code)
    }
}

/// One read(2) into the whole of `buffer`: the byte count, 0 at the end of the stream.
func readOnce(_ fd: Int32, into buffer: inout [UInt8]) throws(SystemError) -> Int {
    try syscall("read") { buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) } }
}

/// Writes all of `buffer` to `fd`, with as many write(2) calls as it takes, and empties it (keeping its
/// storage). When a call fails, only the bytes not yet written stay in `buffer`.
func writeAll(_ fd: Int32, _ buffer: inout [UInt8], call: String) throws(SystemError) {
    var offset = 0
    do throws(SystemError) {
        while offset < buffer.count {
            offset += try syscall(call) {
                buffer.withUnsafeBytes { raw in
                    let rest = UnsafeRawBufferPointer(rebasing: raw[offset...])
                    return Glibc.write(fd, rest.baseAddress, rest.count)
                }
            }
        }
    } catch {
        buffer.removeSubrange(0..<offset)
        throw error
    }
    buffer.removeAll(keepingCapacity: true)
}

/// Releases a descriptor. Linux frees it even when close reports an error, and retrying after
/// EINTR could close a descriptor another thread just received, so it is called exactly once.
func closeDescriptor(_ fd: Int32) {
    guard fd >= 0 else { return }
    _ = Glibc.close(fd)
}
