import BeaconCore
import CHCI
import Glibc

/// HCI through the Linux kernel's Bluetooth HCI socket. Datagrams: each read is one packet
/// with its H4 indicator as the first byte, so no framer is needed.
public final class KernelHCITransport: PacketTransport {
    public enum Channel: Sendable {
        /// HCI_CHANNEL_RAW: shared with the kernel's own Bluetooth stack; receives every event.
        case raw
        /// HCI_CHANNEL_USER: exclusive; the controller must be down, and this program initialises it.
        case user
    }

    public let controller: UInt16
    public let channel: Channel
    public var readDescriptor: Int32? { descriptor >= 0 ? descriptor : nil }
    public var isLive: Bool { true }
    public var ownsController: Bool { channel == .user }
    public var description: String {
        (channel == .raw ? TransportSpec.kernelRaw(controller) : TransportSpec.kernelUser(controller)).description
    }

    private var descriptor: Int32
    /// The datagram the last read returned, until `nextPacket()` hands it on.
    private var datagram = ReadBuffer()
    /// Larger than any HCI packet (ACL and ISO lengths are 16-bit).
    static let readSize = 65536 + 8

    /// Opens and binds a socket to controller `controller` on `channel`. On the raw channel a controller
    /// that is down is brought up (HCIDEVUP, which needs CAP_NET_ADMIN), as `hciconfig hciN up` would.
    public init(controller: UInt16, channel: Channel) throws(TransportError) {
        self.controller = controller
        self.channel = channel
        var stage = KernelHCIFailure.Stage.socket
        var fd: Int32 = -1
        do throws(SystemError) {
            fd = try Self.openSocket()
            stage = .bind
            try syscall("bind") {
                chci_bind(fd, controller, channel == .raw ? chci_hci_channel_raw : chci_hci_channel_user)
            }
            if channel == .raw {
                // A fresh raw-channel socket receives nothing until its filter lets events through: every event, nothing else.
                try syscall("setsockopt(HCI_FILTER)") {
                    chci_set_filter(fd, 1 << UInt32(HCIPacketKind.event.rawValue), .max, .max)
                }
                stage = .bringUp
                try Self.bringUpIfDown(fd, controller: controller)
            }
        } catch {
            closeDescriptor(fd)
            let present = error.errno == ENODEV ? KernelControllers.listForMessage() : nil
            throw KernelHCIFailure.classify(error, stage: stage, controller: controller, channel: channel, present: present)
        }
        self.descriptor = fd
    }

    /// HCIDEVUP unless HCIGETDEVINFO says the controller is up already; EALREADY means someone was quicker.
    static func bringUpIfDown(_ fd: Int32, controller: UInt16) throws(SystemError) {
        var info = chci_dev_info()
        try syscall("ioctl(HCIGETDEVINFO)") { chci_get_dev_info(fd, controller, &info) }
        guard info.flags & chci_hci_flag_up == 0 else { return }
        do {
            try syscall("ioctl(HCIDEVUP)") { chci_dev_up(fd, controller) }
        } catch where error.errno == EALREADY {
            return
        }
    }

    deinit { closeDescriptor(descriptor) }

    /// Reads one datagram from a kernel Bluetooth socket into `buffer`, in place of the one before it (a
    /// datagram not taken is dropped: each read is one packet); the bytes read, 0 at the end.
    static func readDatagram(_ fd: Int32, into buffer: inout ReadBuffer) throws(SystemError) -> Int {
        buffer.consume(buffer.count)
        return try syscall("read") { buffer.fill(upTo: readSize) { room in Glibc.read(fd, room.baseAddress, room.count) } }
    }

    static func openSocket() throws(SystemError) -> Int32 {
        try syscall("socket(AF_BLUETOOTH)") {
            socket(chci_af_bluetooth, Int32(SOCK_RAW.rawValue | SOCK_CLOEXEC.rawValue), chci_btproto_hci)
        }
    }

    public func read() throws(TransportError) -> Bool {
        guard descriptor >= 0 else { return false }
        let count: Int
        do throws(SystemError) {
            count = try Self.readDatagram(descriptor, into: &datagram)
        } catch {
            throw KernelHCIFailure.classify(error, stage: .transfer, controller: controller, channel: channel, present: nil)
        }
        return count > 0
    }

    /// The datagram the last read returned, once.
    public func nextPacket() throws(TransportError) -> TransportPacket? {
        let bytes = datagram.unconsumedBytes
        guard let indicator = bytes.first else { return nil }
        datagram.consume(bytes.count)
        guard let kind = HCIPacketKind(rawValue: indicator) else {
            throw TransportError(.badStream, "\(description): unknown packet indicator 0x\(Hex.encode([indicator]))")
        }
        // The raw-channel filter passes events only; the user channel carries the controller's packets.
        return TransportPacket(HCIPacketView(kind: kind, payload: UnsafeRawBufferPointer(rebasing: bytes.dropFirst())), .received)
    }

    public func send(_ packet: HCIPacket) throws(TransportError) {
        guard descriptor >= 0 else { throw TransportError(.io, "\(description): send after close") }
        let bytes = packet.h4Bytes
        let fd = descriptor
        let written: Int
        do throws(SystemError) {
            written = try syscall("write") { bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) } }
        } catch {
            throw KernelHCIFailure.classify(error, stage: .transfer, controller: controller, channel: channel, present: nil)
        }
        guard written == bytes.count else {
            throw TransportError(.io, "\(description): short write (\(written) of \(bytes.count) bytes)")
        }
    }

    public func close() {
        closeDescriptor(descriptor)
        descriptor = -1
    }
}

/// The kernel's controller list (HCIGETDEVLIST, then HCIGETDEVINFO for each).
public enum KernelControllers {
    /// Every controller, by index. Fails with `.unavailable` on a kernel without Bluetooth.
    public static func list() throws(TransportError) -> [ControllerListing] {
        do throws(SystemError) {
            return try listOrFail()
        } catch {
            throw KernelHCIFailure.classify(error, stage: .list, controller: chci_hci_dev_none, channel: .raw, present: nil)
        }
    }

    static func listOrFail() throws(SystemError) -> [ControllerListing] {
        let fd = try KernelHCITransport.openSocket()
        defer { closeDescriptor(fd) }
        var ids = [UInt16](repeating: 0, count: Int(chci_hci_max_dev))
        let count = try syscall("ioctl(HCIGETDEVLIST)") { chci_get_dev_list(fd, &ids, Int32(ids.count)) }
        var controllers: [ControllerListing] = []
        for id in ids.prefix(min(Int(count), ids.count)) {
            var info = chci_dev_info()
            do {
                try syscall("ioctl(HCIGETDEVINFO)") { chci_get_dev_info(fd, id, &info) }
            } catch where error.errno == ENODEV {
                continue  // unplugged between the two calls
            }
            controllers.append(ControllerListing(info))
        }
        // The kernel lists the newest first; print in index order.
        return controllers.sorted { $0.index < $1.index }
    }

    /// The list for an error message that names the controllers present; nil when it cannot be had,
    /// since the message is then still complete without it.
    static func listForMessage() -> [ControllerListing]? {
        do {
            return try listOrFail()
        } catch {
            return nil
        }
    }
}

extension ControllerListing {
    init(_ info: chci_dev_info) {
        let name = withUnsafeBytes(of: info.name) { raw in
            String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
        let address = withUnsafeBytes(of: info.bdaddr) { raw in
            DeviceAddress(value: raw.reversed().reduce(UInt64(0)) { $0 << 8 | UInt64($1) })
        }
        // The kernel packs the bus (low nibble) and the device type (bits 4-5) into one byte.
        self.init(index: info.id, name: name, address: address, isUp: info.flags & chci_hci_flag_up != 0,
                  bus: info.type & 0x0F, deviceType: (info.type >> 4) & 0x03)
    }
}
