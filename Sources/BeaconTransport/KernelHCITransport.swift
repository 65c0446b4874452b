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
    /// Larger than any HCI packet (ACL and ISO lengths are 16-bit).
    private var readBuffer = [UInt8](repeating: 0, count: 65536 + 8)

    /// Opens and binds a socket to controller `controller` on `channel`.
    public init(controller: UInt16, channel: Channel) throws(TransportError) {
        self.controller = controller
        self.channel = channel
        let name = (channel == .raw ? TransportSpec.kernelRaw(controller) : TransportSpec.kernelUser(controller)).description
        let fd: Int32
        do throws(SystemError) {
            fd = try Self.openSocket()
        } catch {
            throw Self.classify(error, name: name, controller: controller, channel: channel)
        }
        do throws(SystemError) {
            try syscall("bind") {
                chci_bind(fd, controller, channel == .raw ? chci_hci_channel_raw : chci_hci_channel_user)
            }
            // A fresh raw-channel socket receives nothing until its filter lets events through.
            if channel == .raw {
                try syscall("setsockopt(HCI_FILTER)") { chci_set_event_filter(fd) }
            }
        } catch {
            closeDescriptor(fd)
            throw Self.classify(error, name: name, controller: controller, channel: channel)
        }
        self.descriptor = fd
    }

    deinit { closeDescriptor(descriptor) }

    static func openSocket() throws(SystemError) -> Int32 {
        try syscall("socket(AF_BLUETOOTH)") {
            socket(chci_af_bluetooth, Int32(SOCK_RAW.rawValue | SOCK_CLOEXEC.rawValue), chci_btproto_hci)
        }
    }

    public func receive(_ handle: (HCIPacket, PacketDirection, Timestamp?) throws -> Void) throws -> Bool {
        guard descriptor >= 0 else { return false }
        let fd = descriptor
        let count: Int
        do throws(SystemError) {
            count = try syscall("read") {
                readBuffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            }
        } catch {
            throw Self.classify(error, name: description, controller: controller, channel: channel)
        }
        guard count > 0 else { return false }
        guard let kind = HCIPacketKind(rawValue: readBuffer[0]) else {
            throw TransportError(.badStream, "\(description): unknown packet indicator 0x\(Hex.encode(readBuffer[0..<1]))")
        }
        // The raw-channel filter passes events only; the user channel carries the controller's packets.
        try handle(HCIPacket(kind: kind, payload: readBuffer[1..<count]), .received, nil)
        return true
    }

    public func send(_ packet: HCIPacket) throws {
        guard descriptor >= 0 else { throw TransportError(.io, "\(description): send after close") }
        let bytes = packet.h4Bytes
        let fd = descriptor
        let written: Int
        do throws(SystemError) {
            written = try syscall("write") { bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) } }
        } catch {
            throw Self.classify(error, name: description, controller: controller, channel: channel)
        }
        guard written == bytes.count else {
            throw TransportError(.io, "\(description): short write (\(written) of \(bytes.count) bytes)")
        }
    }

    public func close() {
        closeDescriptor(descriptor)
        descriptor = -1
    }

    /// Kernel-specific wording for the common failures, general classification for the rest.
    static func classify(_ error: SystemError, name: String, controller: UInt16, channel: Channel) -> TransportError {
        switch error.errno {
        case ENODEV:
            return TransportError(.unavailable, "\(name): no Bluetooth controller hci\(controller)", systemError: error)
        case EPERM, EACCES:
            return TransportError(.permission, "\(name): \(error.call): \(error.message); \(TransportError.capabilityHint)",
                                  systemError: error)
        case EBUSY where channel == .user:
            return TransportError(.busy, "\(name): hci\(controller) is in use; the user channel needs the controller down "
                + "and unused (`sudo btmgmt --index \(controller) power off` or stop bluetoothd)", systemError: error)
        case EBUSY:
            return TransportError(.busy, "\(name): hci\(controller) is busy", systemError: error)
        default:
            return TransportError.from(error, transport: name)
        }
    }
}

/// A kernel Bluetooth controller as HCIGETDEVINFO reports it.
public struct KernelController: Hashable, Sendable {
    public var index: UInt16
    /// "hci0" and so on.
    public var name: String
    public var address: DeviceAddress
    public var isUp: Bool
    /// Bus code (HCI_VIRTUAL 0, HCI_USB 1, HCI_PCCARD 2, HCI_UART 3, ...).
    public var bus: UInt8

    /// The kernel's controllers. Fails with `.unavailable` on a kernel without Bluetooth.
    public static func list() throws(TransportError) -> [KernelController] {
        do throws(SystemError) {
            let fd = try KernelHCITransport.openSocket()
            defer { closeDescriptor(fd) }
            var ids = [UInt16](repeating: 0, count: Int(chci_hci_max_dev))
            let count = try syscall("ioctl(HCIGETDEVLIST)") { chci_get_dev_list(fd, &ids, Int32(ids.count)) }
            var controllers: [KernelController] = []
            for id in ids.prefix(Int(count)) {
                var info = chci_dev_info()
                try syscall("ioctl(HCIGETDEVINFO)") { chci_get_dev_info(fd, id, &info) }
                controllers.append(KernelController(info))
            }
            return controllers
        } catch {
            throw KernelHCITransport.classify(error, name: "kernel", controller: chci_hci_dev_none, channel: .raw)
        }
    }

    init(_ info: chci_dev_info) {
        index = info.id
        name = withUnsafeBytes(of: info.name) { raw in
            String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
        address = withUnsafeBytes(of: info.bdaddr) { raw in
            DeviceAddress(value: raw.reversed().reduce(UInt64(0)) { $0 << 8 | UInt64($1) })
        }
        isUp = info.flags & chci_hci_flag_up != 0
        bus = info.bus
    }
}
