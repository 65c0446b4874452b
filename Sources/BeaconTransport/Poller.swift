import BeaconCore
import Glibc

/// Waits for descriptors to become readable (poll(2)). Hang-ups and errors count as readable so the
/// following read reports end of stream or the error.
public final class Poller {
    /// What a wait found.
    public struct Ready: Equatable {
        /// The descriptors that can be read (or whose read will report the end or an error).
        public var readable: [Int32]
        /// The descriptor watched for hang-up lost its peer: the reader of a pipe or terminal is gone.
        public var hungUp: Bool
    }

    private var entries: [pollfd] = []

    public init() {}

    /// The descriptors of `fds` that are readable, waiting at most `timeout` (nil: forever).
    /// An empty result means the timeout passed.
    public func wait(_ fds: [Int32], timeout: Micros?) throws(SystemError) -> [Int32] {
        try wait(fds, hangUpOf: nil, timeout: timeout).readable
    }

    /// Like `wait(_:timeout:)`, also watching `output` (an output descriptor) for its reader going away.
    /// Only hang-up and error conditions are asked for on it, so a terminal with typed input does not count.
    public func wait(_ fds: [Int32], hangUpOf output: Int32?, timeout: Micros?) throws(SystemError) -> Ready {
        entries.removeAll(keepingCapacity: true)
        for fd in fds { entries.append(pollfd(fd: fd, events: Int16(POLLIN), revents: 0)) }
        if let output { entries.append(pollfd(fd: output, events: 0, revents: 0)) }
        // Round up so a wait never ends before its deadline.
        let milliseconds: Int32 = timeout.map { Int32(clamping: max(0, ($0.value + 999) / 1000)) } ?? -1
        let count = entries.count
        let ready = try syscall("poll") {
            entries.withUnsafeMutableBufferPointer { poll($0.baseAddress, nfds_t(count), milliseconds) }
        }
        guard ready > 0 else { return Ready(readable: [], hungUp: false) }
        let readableEvents = Int16(POLLIN | POLLHUP | POLLERR | POLLNVAL)
        let gone = Int16(POLLHUP | POLLERR)
        return Ready(readable: entries.prefix(fds.count).filter { $0.revents & readableEvents != 0 }.map(\.fd),
                     hungUp: output != nil && entries[fds.count].revents & gone != 0)
    }
}
