import BeaconCore
import Glibc

/// Records HCI packets to a btsnoop file (Linux monitor datalink 2001, as `btmon -w` writes, controller
/// index 0), with System Notes of the wall clock between them (`WallClockNote`). Writes are buffered, flushed when
/// the buffer fills, when a record arrives a second or more after the last flush, on `flushIfDue()`
/// (call it from the loop's tick so a quiet period still reaches the disk) and on `close()`.
///
/// The file may be a FIFO whose reader stops reading. Writes then wait for room through a `WriteWait`,
/// like standard output: a signal or the end of a `--duration` run ends the wait, the records not yet
/// taken stay buffered (none is dropped), and the run goes on to its cleanup. `close()` gives the reader
/// `finalWait` more for them, and fails if it still has not taken them all.
public final class BtsnoopRecorder {
    public let path: String
    /// Longest time buffered records wait for a write.
    public static let flushInterval = Micros.seconds(1)
    /// How long `close()` waits for a reader that does not take the last records (a further signal ends it).
    public static let finalWait = Micros.seconds(1)

    private var descriptor: Int32
    private let writer = BtsnoopWriter(datalink: .linuxMonitor)
    private var pending: [UInt8] = []
    private var lastFlush: Micros
    private let bufferLimit = 64 * 1024
    private let wait: WriteWait
    /// The monotonic clock the flush interval is counted on (tests inject their own).
    private let clock: () -> Micros

    /// An existing file with content is replaced only once the first record comes: a run that ends
    /// before recording anything (a capture refused at its header) leaves it as it was.
    private var replacesOnFirstRecord: Bool

    /// Opens (or creates) `path`; a new or empty file or a FIFO gets the file header at once. A FIFO
    /// without a reader fails at once (ENXIO) instead of blocking the open where no signal can end it.
    /// The descriptor stays non-blocking: every wait for room is a poll(2) that `wait` can end.
    public init(path: String, wait: WriteWait = WriteWait(interrupt: nil), clock: @escaping () -> Micros = Clock.monotonic) throws(TransportError) {
        self.path = path
        self.wait = wait
        self.clock = clock
        let name = "--record \(path)"
        descriptor = try OutputFile.openWithoutWaitingForAReader(path, flags: 0, name: name)
        do throws(SystemError) {
            var info = stat()
            let fd = descriptor
            try syscall("fstat") { fstat(fd, &info) }
            replacesOnFirstRecord = info.st_mode & S_IFMT == S_IFREG && info.st_size > 0
        } catch {
            var failure = TransportError.from(error, transport: name)
            failure.category = .cannotCreate
            throw failure
        }
        lastFlush = clock()
        pending.reserveCapacity(bufferLimit + 1024)
        if !replacesOnFirstRecord {
            pending.append(contentsOf: writer.header)
            try flush()
        }
    }

    deinit { closeDescriptor(descriptor) }

    /// Appends one packet.
    public func record(_ packet: HCIPacketView, direction: PacketDirection, timestamp: Timestamp) throws(TransportError) {
        try prepareRecord()
        writer.appendRecord(packet, direction: direction, timestamp: timestamp, to: &pending)
        try flushIfFull()
    }

    /// Appends a System Note (for no controller, as the kernel's notes are) whose data is `data`.
    public func recordNote(_ data: [UInt8], timestamp: Timestamp) throws(TransportError) {
        try prepareRecord()
        BtsnoopWriter.appendMonitorRecord(.systemNote, controllerIndex: Btsnoop.noControllerIndex, data: data,
                                          timestamp: timestamp, to: &pending)
        try flushIfFull()
    }

    /// Before the first record, replaces an existing file's content with the header.
    private func prepareRecord() throws(TransportError) {
        guard descriptor >= 0 else { throw TransportError(.io, "--record \(path): record after close") }
        if replacesOnFirstRecord {
            let fd = descriptor
            do throws(SystemError) { try syscall("ftruncate") { ftruncate(fd, 0) } } catch {
                throw TransportError.from(error, transport: "--record \(path)")
            }
            replacesOnFirstRecord = false
            pending.append(contentsOf: writer.header)
        }
    }

    private func flushIfFull() throws(TransportError) {
        if pending.count >= bufferLimit {
            try flush()
        } else {
            try flushIfDue()
        }
    }

    /// Writes buffered records if the last flush was a second or more ago.
    public func flushIfDue() throws(TransportError) {
        guard !pending.isEmpty, clock().value - lastFlush.value >= Self.flushInterval.value else { return }
        try flush()
    }

    /// Writes every buffered byte, or as many as the reader takes before a signal or the deadline.
    public func flush() throws(TransportError) {
        lastFlush = clock()
        try write(waiting: wait)
    }

    /// Flushes and closes the file. Records a stalled reader has not taken by then get `finalWait` more;
    /// any still left are a failure (the file misses the end of the run).
    public func close() throws(TransportError) {
        guard descriptor >= 0 else { return }
        defer {
            closeDescriptor(descriptor)
            descriptor = -1
        }
        try write(waiting: wait.bounded(by: Self.finalWait))
        guard pending.isEmpty else {
            throw TransportError(.io, "--record \(path): the reader stopped reading; the last \(pending.count.counted("byte")) were not written")
        }
    }

    /// Writes what is buffered until done or `wait` ends; what was not written stays buffered.
    private func write(waiting wait: WriteWait) throws(TransportError) {
        guard !pending.isEmpty, descriptor >= 0 else { return }
        let fd = descriptor
        let (end, written) = pending.withUnsafeBytes { wait.write($0, to: fd, chunk: $0.count) }
        if written == pending.count { pending.removeAll(keepingCapacity: true) } else { pending.removeSubrange(0..<written) }
        if case .failed(let errno) = end {
            throw TransportError.from(SystemError(call: "write", errno: errno), transport: "--record \(path)")
        }
    }
}
