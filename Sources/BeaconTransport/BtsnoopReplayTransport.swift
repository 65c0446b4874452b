import BeaconCore
import Glibc

/// Replays a btsnoop capture: every HCI packet with its direction and capture time, as fast as the
/// caller pulls. Sends are dropped. Reads of a file never block, so there is no descriptor to poll; a
/// capture streamed through a FIFO or pipe (`btmon -w - | beacon range --hci btsnoop:/dev/stdin`) is
/// read without blocking, and the host waits on `streamDescriptor` together with the signals.
public final class BtsnoopReplayTransport: PacketTransport {
    public let path: String
    public var readDescriptor: Int32? { nil }
    /// The descriptor of a capture that arrives as a stream (FIFO, pipe, socket, character device): a
    /// read may find nothing yet, so the host polls it first. Nil for a regular file.
    public private(set) var streamDescriptor: Int32?
    public var isLive: Bool { false }
    /// Nothing to reset in a recording.
    public var ownsController: Bool { false }
    public var description: String { TransportSpec.btsnoop(path: path).description }

    /// The capture's datalink, once its header has been read.
    public var datalink: BtsnoopDatalink? { reader.header?.datalink }
    /// Controllers that carried HCI packets so far (Linux monitor captures), in the order first seen.
    public var controllerIndexes: [UInt16] { reader.controllerIndexes }
    /// The controller whose packets are replayed (Linux monitor captures).
    public var selectedIndex: UInt16? { reader.selectedIndex }
    /// Records passed over: monitor notes and index events, other controllers' packets.
    public var skippedRecordCount: Int { reader.skippedRecordCount }
    /// Bytes of the capture read so far, and its size when opened (0 when unknown, such as a pipe), for progress.
    public private(set) var bytesRead: Int64 = 0
    public private(set) var size: Int64 = 0

    private var descriptor: Int32
    /// Read from once per packet, only by this transport's methods, and the reader calls nothing back:
    /// the runtime's exclusivity check would cost more than taking the packet.
    @exclusivity(unchecked) private var reader: BtsnoopReader
    /// Bytes asked for by each read(2), straight into the reader's buffer: a replay makes about 1,600
    /// reads for 100 MB, and the buffer stays small enough to be in the core's cache when the kernel
    /// copies into it and the reader reads it back (reads of 128 KiB and more took a replay longer).
    static let readSize = 64 * 1024
    private var atEnd = false
    /// A capture that ends inside a record (its writer killed, or a copy still running): the records
    /// before it replay to the end, so the last lines print, and this is reported after them.
    public private(set) var cutShort: TransportError?

    /// Opens the capture; `indexFilter` picks the controller of a Linux monitor capture.
    public init(path: String, indexFilter: UInt16? = nil) throws(TransportError) {
        self.path = path
        self.reader = BtsnoopReader(indexFilter: indexFilter)
        do throws(SystemError) {
            // Non-blocking: opening a FIFO that has no writer yet must not block where no signal can end it.
            descriptor = try syscall("open") { open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK) }
            var info = stat()
            let fd = descriptor
            try syscall("fstat") { fstat(fd, &info) }
            // A directory opens for reading but is no capture: missing input, found before the first read.
            if info.st_mode & S_IFMT == S_IFDIR {
                closeDescriptor(descriptor)
                descriptor = -1
                throw SystemError(call: "open", errno: EISDIR)
            }
            if info.st_mode & S_IFMT == S_IFREG {
                size = Int64(info.st_size)
            } else {
                streamDescriptor = descriptor
            }
        } catch {
            var failure = TransportError.from(error, transport: TransportSpec.btsnoop(path: path).description)
            if error.errno == EISDIR { failure.category = .unavailable }
            throw failure
        }
    }

    deinit { closeDescriptor(descriptor) }

    public func read() throws(TransportError) -> Bool {
        guard !atEnd, descriptor >= 0 else { return false }
        let count: Int
        let fd = descriptor
        do throws(SystemError) {
            count = try syscall("read") { reader.fill(upTo: Self.readSize) { room in Glibc.read(fd, room.baseAddress, room.count) } }
        } catch {
            // A stream with nothing to read yet: the host waits on `streamDescriptor` before the next read.
            if error.errno == EAGAIN { return true }
            throw TransportError.from(error, transport: description)
        }
        if count == 0 {
            atEnd = true
            do throws(DecodeError) {
                try reader.finish()
            } catch {
                // Without a header nothing was a capture: that fails at once.
                guard reader.header != nil else { throw TransportError.badCapture(error, path: path) }
                cutShort = TransportError.badCapture(error, path: path)
            }
            return false
        }
        bytesRead += Int64(count)
        return true
    }

    public func nextPacket() throws(TransportError) -> TransportPacket? {
        var next: TransportPacket?
        try forEachPacket { packet in
            next = packet
            return false
        }
        return next
    }

    /// The records read so far, straight from the reader.
    public func forEachPacket(_ body: (TransportPacket) -> Bool) throws(TransportError) {
        do throws(DecodeError) {
            try reader.forEachPacket(body)
        } catch {
            atEnd = true
            throw TransportError.badCapture(error, path: path)
        }
    }

    /// Dropped: a recording cannot be changed.
    public func send(_ packet: HCIPacket) throws(TransportError) {}

    public func close() {
        closeDescriptor(descriptor)
        descriptor = -1
        atEnd = true
    }
}
