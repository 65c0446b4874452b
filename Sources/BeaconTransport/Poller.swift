import BeaconCore
import Glibc

/// Waits for descriptors to become readable (poll(2)). Hang-ups and errors count as readable so the
/// following read reports end of stream or the error.
public final class Poller {
    private var entries: [pollfd] = []

    public init() {}

    /// The descriptors of `fds` that are readable, waiting at most `timeout` (nil: forever).
    /// An empty result means the timeout passed.
    public func wait(_ fds: [Int32], timeout: Micros?) throws(SystemError) -> [Int32] {
        entries.removeAll(keepingCapacity: true)
        for fd in fds { entries.append(pollfd(fd: fd, events: Int16(POLLIN), revents: 0)) }
        // Round up so a wait never ends before its deadline.
        let milliseconds: Int32 = timeout.map { Int32(clamping: max(0, ($0.value + 999) / 1000)) } ?? -1
        let count = entries.count
        let ready = try syscall("poll") {
            entries.withUnsafeMutableBufferPointer { poll($0.baseAddress, nfds_t(count), milliseconds) }
        }
        guard ready > 0 else { return [] }
        let readableEvents = Int16(POLLIN | POLLHUP | POLLERR | POLLNVAL)
        return entries.filter { $0.revents & readableEvents != 0 }.map(\.fd)
    }
}
