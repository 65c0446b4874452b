import BeaconCore
import Glibc

/// Records HCI packets to a btsnoop file (H4 datalink 1002). Writes are buffered, flushed when
/// the buffer fills, when a record arrives a second or more after the last flush, on `flushIfDue()`
/// (call it from the loop's tick so a quiet period still reaches the disk) and on `close()`.
public final class BtsnoopRecorder {
    public let path: String
    /// Longest time buffered records wait for a write.
    public static let flushInterval = Micros.seconds(1)

    private var descriptor: Int32
    private let writer = BtsnoopWriter(datalink: .h4)
    private var pending: [UInt8] = []
    private var lastFlush: Micros
    private let bufferLimit = 64 * 1024

    /// Creates (or truncates) `path` and writes the file header. A FIFO without a reader fails at once
    /// (ENXIO) instead of blocking the open where no signal can end it.
    public init(path: String) throws(TransportError) {
        self.path = path
        do throws(SystemError) {
            descriptor = try syscall("open") { open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NONBLOCK, 0o644) }
            let fd = descriptor
            let flags = try syscall("fcntl(F_GETFL)") { fcntl(fd, F_GETFL) }
            try syscall("fcntl(F_SETFL)") { fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) }
        } catch {
            var failure = error.errno == ENXIO
                ? TransportError(.io, "recording \(path): a FIFO with no reader", systemError: error)
                : TransportError.from(error, transport: "recording \(path)")
            failure.category = .cannotCreate
            throw failure
        }
        lastFlush = Clock.monotonic()
        pending.reserveCapacity(bufferLimit + 1024)
        pending.append(contentsOf: writer.header)
        try flush()
    }

    deinit { closeDescriptor(descriptor) }

    /// Appends one packet.
    public func record(_ packet: HCIPacket, direction: PacketDirection, timestamp: Timestamp) throws(TransportError) {
        guard descriptor >= 0 else { throw TransportError(.io, "recording \(path): record after close") }
        writer.appendRecord(packet, direction: direction, timestamp: timestamp, to: &pending)
        if pending.count >= bufferLimit {
            try flush()
        } else {
            try flushIfDue()
        }
    }

    /// Writes buffered records if the last flush was a second or more ago.
    public func flushIfDue() throws(TransportError) {
        guard !pending.isEmpty, Clock.monotonic().value - lastFlush.value >= Self.flushInterval.value else { return }
        try flush()
    }

    /// Writes every buffered byte.
    public func flush() throws(TransportError) {
        lastFlush = Clock.monotonic()
        guard !pending.isEmpty, descriptor >= 0 else { return }
        do throws(SystemError) {
            try writeAll(descriptor, &pending, call: "write")
        } catch {
            throw TransportError.from(error, transport: "recording \(path)")
        }
    }

    /// Flushes and closes the file.
    public func close() throws(TransportError) {
        guard descriptor >= 0 else { return }
        defer {
            closeDescriptor(descriptor)
            descriptor = -1
        }
        try flush()
    }
}
