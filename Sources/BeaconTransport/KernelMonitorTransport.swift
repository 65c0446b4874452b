import BeaconCore
import CHCI
import Glibc

/// A read-only listener on the kernel's monitor channel (HCI_CHANNEL_MONITOR, what btmon reads): every
/// HCI packet of one controller, whoever sent it, and nothing sent by this program. Needs CAP_NET_RAW.
public final class KernelMonitorTransport: PacketTransport {
    public let controller: UInt16
    public var readDescriptor: Int32? { descriptor >= 0 ? descriptor : nil }
    public var isLive: Bool { true }
    public var ownsController: Bool { false }
    public var isReadOnly: Bool { true }
    public var description: String { TransportSpec.kernelMonitor(controller).description }

    private var descriptor: Int32
    /// The datagram the last read returned, until `nextPacket()` hands it on.
    private var datagram = ReadBuffer()

    /// Checks that controller `controller` exists and binds a socket to the monitor channel.
    public init(controller: UInt16) throws(TransportError) {
        self.controller = controller
        let spec = TransportSpec.kernelMonitor(controller)
        var stage = KernelHCIFailure.Stage.socket
        var fd: Int32 = -1
        do throws(SystemError) {
            fd = try KernelHCITransport.openSocket()
            // The monitor channel takes no controller: whether this one exists is asked first.
            var info = chci_dev_info()
            stage = .bind
            try syscall("ioctl(HCIGETDEVINFO)") { chci_get_dev_info(fd, controller, &info) }
            try syscall("bind") { chci_bind(fd, chci_hci_dev_none, chci_hci_channel_monitor) }
        } catch {
            closeDescriptor(fd)
            let present = error.errno == ENODEV ? KernelControllers.listForMessage() : nil
            throw KernelHCIFailure.classify(error, stage: stage, controller: controller, channel: .raw, present: present,
                                            listener: spec)
        }
        self.descriptor = fd
    }

    deinit { closeDescriptor(descriptor) }

    public func read() throws(TransportError) -> Bool {
        guard descriptor >= 0 else { return false }
        let count: Int
        do throws(SystemError) {
            count = try KernelHCITransport.readDatagram(descriptor, into: &datagram)
        } catch {
            throw KernelHCIFailure.classify(error, stage: .transfer, controller: controller, channel: .raw, present: nil,
                                            listener: .kernelMonitor(controller))
        }
        return count > 0
    }

    /// The controller's packet in the last datagram, once; nil for everything else the channel carries.
    public func nextPacket() throws(TransportError) -> TransportPacket? {
        let bytes = datagram.unconsumedBytes
        guard !bytes.isEmpty else { return nil }
        datagram.consume(bytes.count)
        let meaning: MonitorDatagram
        do {
            meaning = try MonitorDatagram.classify(bytes, controller: controller)
        } catch {
            throw TransportError(.badStream, "\(description): malformed monitor packet: \(error)")
        }
        switch meaning {
        case .packet(let kind, let direction, let payload):
            return TransportPacket(HCIPacketView(kind: kind, payload: UnsafeRawBufferPointer(rebasing: bytes[payload])), direction)
        case .controllerRemoved:
            throw TransportError(.io, "\(description): hci\(controller) went away: unplugged, or its driver detached")
        case .other:
            return nil
        }
    }

    public func send(_ packet: HCIPacket) throws(TransportError) {
        throw TransportError(.unavailable, "\(description) only listens: it cannot send \(packet.kind) packets; "
            + "use hci\(controller), hci-user:\(controller) or mgmt:\(controller)")
    }

    public func close() {
        closeDescriptor(descriptor)
        descriptor = -1
    }
}
