import BeaconCore
import Glibc

/// Wakes a background thread that waits on a socket (a self-pipe): for new work, or to stop.
public final class Wakeup: Sendable {
    private let descriptor: Int32
    private let writeEnd: Int32

    /// What a wait found.
    public struct Ready: Equatable, Sendable {
        public var readable = false
        public var writable = false
        public var woken = false
    }

    public init() throws(SystemError) {
        var ends: [Int32] = [-1, -1]
        try syscall("pipe") { pipe(&ends) }
        for fd in ends {
            do throws(SystemError) {
                try syscall("fcntl") { fcntl(fd, F_SETFL, O_NONBLOCK) }
                try syscall("fcntl") { fcntl(fd, F_SETFD, FD_CLOEXEC) }
            } catch {
                ends.forEach(closeDescriptor)
                throw error
            }
        }
        descriptor = ends[0]
        writeEnd = ends[1]
    }

    deinit {
        closeDescriptor(descriptor)
        closeDescriptor(writeEnd)
    }

    /// Wakes the waiting thread, or makes its next wait return at once.
    public func signal() {
        var one: UInt8 = 1
        // Fails only when the pipe is full, and then the waiter is awake already.
        _ = Glibc.write(writeEnd, &one, 1)
    }

    /// Waits at most `timeout` for a wake-up, or for `socket` to be readable (or writable, when
    /// `wantWrite`). A wake-up is consumed by the wait that sees it.
    public func wait(socket: Int32?, wantWrite: Bool, timeout: Micros) -> Ready {
        var entries = [pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)]
        if let socket, socket >= 0 {
            entries.append(pollfd(fd: socket, events: Int16(POLLIN) | (wantWrite ? Int16(POLLOUT) : 0), revents: 0))
        }
        let milliseconds = Int32(clamping: max(0, (timeout.value + 999) / 1000))
        let count = entries.count
        var ready = Ready()
        do {
            let found = try syscall("poll") { entries.withUnsafeMutableBufferPointer { poll($0.baseAddress, nfds_t(count), milliseconds) } }
            guard found > 0 else { return ready }
        } catch {
            // poll fails only on bad arguments or no memory; the caller's next attempt will tell.
            return ready
        }
        if entries[0].revents != 0 {
            var drained = [UInt8](repeating: 0, count: 64)
            while Glibc.read(descriptor, &drained, drained.count) > 0 {}
            ready.woken = true
        }
        if count == 2 {
            let revents = entries[1].revents
            ready.readable = revents & Int16(POLLIN | POLLHUP | POLLERR) != 0
            ready.writable = revents & Int16(POLLOUT | POLLERR) != 0
        }
        return ready
    }
}
