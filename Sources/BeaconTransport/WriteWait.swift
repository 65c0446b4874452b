import BeaconCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// What ends a wait for room to write into a pipe whose reader does not read: a pending signal (the
/// signal descriptor readable) and a deadline (for a signal taken already, a short one). Standard output and the `--record`
/// file both wait through it, so a reader that stopped reading never keeps SIGINT, SIGTERM or the end
/// of a `--duration` run from ending the run.
public struct WriteWait {
    /// The signal descriptor, readable while a signal is pending; nil: only `deadline` ends a wait.
    public var interrupt: Int32?
    /// Monotonic time after which there is no waiting (the end of a live `--duration` run); nil: none.
    public var deadline: () -> Micros?

    public init(interrupt: Int32?, deadline: @escaping () -> Micros? = { nil }) {
        self.interrupt = interrupt
        self.deadline = deadline
    }

    /// The same wait, but ending `limit` from now at the latest and no sooner for a signal taken already
    /// (a pending one still ends it): the last chance of a file's reader at the end of a run.
    public func bounded(by limit: Micros) -> WriteWait {
        let end = Micros(Clock.monotonic().value &+ limit.value)
        return WriteWait(interrupt: interrupt, deadline: { end })
    }

    /// How a `write` ended.
    public enum End: Equatable {
        case written
        /// A signal or the deadline came before there was room for the rest.
        case interrupted
        /// write(2) failed with this errno (EPIPE: the reader has gone).
        case failed(Int32)
    }

    /// Writes `bytes` to `descriptor`, each write(2) at most `chunk` bytes and preceded by a wait for
    /// room. Returns how it ended and how many bytes were written.
    public func write(_ bytes: UnsafeRawBufferPointer, to descriptor: Int32, chunk: Int) -> (end: End, written: Int) {
        var offset = 0
        while offset < bytes.count {
            guard room(in: descriptor) else { return (.interrupted, offset) }
            let written = Glibc.write(descriptor, bytes.baseAddress.map { $0 + offset }, min(bytes.count - offset, chunk))
            if written < 0 {
                if errno == EINTR || errno == EAGAIN { continue }
                return (.failed(errno), offset)
            }
            offset += written
        }
        return (.written, offset)
    }

    /// Waits until `descriptor` can be written (or has failed, which the write then reports). False when
    /// there is no room and the signal descriptor became readable or the deadline passed first.
    func room(in descriptor: Int32) -> Bool {
        let deadline = deadline()
        var entries = [pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0),
                       pollfd(fd: interrupt ?? -1, events: Int16(POLLIN), revents: 0)]
        while true {
            var timeout: Int32 = -1
            if let deadline {
                let left = deadline.value - Clock.monotonic().value
                timeout = left <= 0 ? 0 : Int32(min((left + 999) / 1000, Int64(Int32.max)))
            }
            let ready = entries.withUnsafeMutableBufferPointer { poll($0.baseAddress, 2, timeout) }
            if ready < 0 {
                if errno == EINTR { continue }
                return true // let the write report the failure
            }
            // Room now is taken even with a signal pending: only waiting gives way to a signal.
            if entries[0].revents != 0 { return true }
            if entries[1].revents & Int16(POLLIN) != 0 { return false }
            if timeout >= 0 { return false }
        }
    }
}
