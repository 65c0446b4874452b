import BeaconCore
import CSystem
import Glibc

/// How listening through the management interface runs.
public enum ManagementListening: Hashable, Sendable {
    /// An advertisement monitor of beacon's own (Linux 5.9): the kernel scans passively, without
    /// duplicate filtering, and reports every advertisement.
    case monitor(handle: UInt16)
    /// Discovery (LE only), on a kernel without monitors: active scanning, restarted whenever it ends.
    case discovery
}

/// `beacon range` and `beacon scan` through the kernel's management interface (`--hci mgmt:N`),
/// beside bluetoothd: an advertisement monitor (or, without monitors, discovery) makes the kernel
/// scan, and each advertisement it reports (Device Found, Advertisement Monitor Device Found) is
/// handed on as the LE Advertising Report event the controller sent, so it takes the raw channel's
/// path from the decoder on; those are heard, never recorded. With `--record` it also reads the kernel's
/// monitor channel (as btmon does) and hands on the controller's own HCI traffic to be recorded only,
/// so the capture holds what btmon would have written for the controller. It sends no HCI packets; the
/// advertisement monitor is the only state it leaves, and `stop` (or, failing that, `close`) removes it.
public final class ManagementScanTransport: PacketTransport {
    public let controller: UInt16
    /// The management socket; with a monitor channel, an epoll descriptor readable while either is.
    public var readDescriptor: Int32? { copy == nil ? socket.readDescriptor : (waitDescriptor >= 0 ? waitDescriptor : nil) }
    public var isLive: Bool { true }
    public var ownsController: Bool { false }
    public var isReadOnly: Bool { true }
    public var description: String { TransportSpec.kernelManagement(controller).description }
    /// Set by `start`, cleared by `stop`.
    public private(set) var listening: ManagementListening?

    private let socket: ManagementSocket
    /// The monitor channel's copy of the controller's traffic, for `--record`.
    private let copy: KernelMonitorTransport?
    private var waitDescriptor: Int32 = -1
    private let poller = Poller()
    private let warn: (String) -> Void
    /// The event the last read brought, as an LE Advertising Report event, until `nextPacket` hands it on.
    private var pending: [UInt8]?
    /// The advertisement of the latest management event, to drop the kernel's second copy of it.
    private var lastFound: ManagementDeviceFound?
    /// The packet handed on last, in place until the next read.
    private let packetBytes = UnsafeMutableRawBufferPointer.allocate(byteCount: 256, alignment: 1)
    /// Whether the discovery running now is beacon's (Stop Discovery would end anyone's).
    private var ownsDiscovery = false
    private var malformedEvents = 0

    /// Opens a management socket and, when `recording`, the monitor channel beside it (CAP_NET_RAW).
    /// Signals are left to the host loop: commands are answered in milliseconds, and a signal that
    /// arrives meanwhile ends the loop at its first wait.
    public init(controller: UInt16, recording: Bool = false, warn: @escaping (String) -> Void) throws(TransportError) {
        self.controller = controller
        self.warn = warn
        socket = try ManagementSocket(controller: controller, signals: nil)
        guard recording else {
            copy = nil
            return
        }
        do {
            copy = try KernelMonitorTransport(controller: controller)
        } catch {
            socket.close()
            throw Self.recordingFailure(error, controller: controller)
        }
        do throws(SystemError) {
            let wait = try syscall("epoll_create1") { csystem_epoll_create() }
            waitDescriptor = wait
            for fd in [socket.readDescriptor, copy?.readDescriptor].compactMap({ $0 }) {
                try syscall("epoll_ctl") { csystem_epoll_watch(wait, fd) }
            }
        } catch {
            close()
            throw TransportError.from(error, transport: "\(description) --record")
        }
    }

    /// A failure of the monitor channel, as mgmt:N's with `--record`; the missing capability named
    /// with its remedy (the exit code stays that of the category).
    static func recordingFailure(_ error: TransportError, controller: UInt16) -> TransportError {
        let name = "\(TransportSpec.kernelManagement(controller)) --record"
        guard error.category == .permission else {
            return TransportError(error.category, "\(name): \(error.message)", systemError: error.systemError)
        }
        return TransportError(.permission, "\(name): recording reads hci\(controller)'s traffic from the kernel's monitor channel, "
            + "which needs CAP_NET_RAW: run as root or `\(KernelHCIFailure.setcapCommand)`", systemError: error.systemError)
    }

    deinit {
        packetBytes.deallocate()
        closeDescriptor(waitDescriptor)
    }

    /// Makes the kernel scan: an advertisement monitor with `patterns`, or discovery where the kernel
    /// has no monitors.
    public func start(patterns: [ManagementAdvertisementPattern]) throws(TransportError) -> ManagementListening {
        try commands { try startListening(patterns: patterns) }
    }

    private func startListening(patterns: [ManagementAdvertisementPattern]) throws -> ManagementListening {
        let settings = try decode(ManagementControllerSettings.init, try socket.execute(.readControllerInformation),
                                  "Read Controller Information")
        guard settings.isPowered, settings.hasLowEnergy else {
            throw TransportError(.unavailable, "\(description): hci\(controller) is off or has LE disabled: "
                + "`bluetoothctl power on` or `sudo btmgmt --index \(controller) power on`")
        }
        let chosen: ManagementListening
        do {
            let features = try decode(ManagementAdvertisementMonitorFeatures.init,
                                      try socket.execute(.readAdvertisementMonitorFeatures), "Read Advertisement Monitor Features")
            guard features.handles.count < Int(features.maxHandles) else {
                throw TransportError(.busy, "\(description): all \(features.maxHandles) advertisement monitors of hci\(controller) "
                    + "are in use (by bluetoothd's clients); free one, or use monitor:\(controller)")
            }
            let answer = try socket.execute(.addAdvertisementPatternsMonitor(patterns))
            chosen = .monitor(handle: try decode(ManagementMonitorHandle.init, answer, "Add Advertisement Patterns Monitor").handle)
        } catch let error as ManagementCommandError where error.status == .unknownCommand || error.status == .notSupported {
            try startDiscovery()
            chosen = .discovery
        }
        listening = chosen
        pending = ManagementDeviceFound.listeningStartedEvent
        return chosen
    }

    /// Removes the monitor, or stops the discovery beacon started; a no-op when nothing runs.
    public func stop() throws(TransportError) {
        try commands { try stopListening() }
    }

    private func stopListening() throws {
        guard let running = listening else { return }
        listening = nil
        switch running {
        case .monitor(let handle):
            _ = try socket.execute(.removeAdvertisementMonitor(handle: handle), interruptible: false)
        case .discovery:
            guard ownsDiscovery else { return }
            ownsDiscovery = false
            do {
                _ = try socket.execute(.stopDiscovery, interruptible: false)
            } catch let error as ManagementCommandError where error.status == .rejected {
                // It had just ended by itself.
            }
        }
    }

    /// Starts discovery; another program's running already (Busy) serves as well, and beacon starts
    /// its own when that one ends.
    private func startDiscovery() throws {
        do {
            _ = try socket.execute(.startDiscovery)
            ownsDiscovery = true
        } catch let error as ManagementCommandError where error.status == .busy {
            ownsDiscovery = false
        }
    }

    public func read() throws(TransportError) -> Bool {
        guard let copy, let managementDescriptor = socket.readDescriptor, let copyDescriptor = copy.readDescriptor else {
            return try readManagement()
        }
        let ready: [Int32]
        do {
            ready = try poller.wait([managementDescriptor, copyDescriptor], timeout: nil)
        } catch {
            throw TransportError.from(error, transport: description)
        }
        if ready.contains(copyDescriptor) {
            do {
                guard try copy.read() else { return false }
            } catch {
                throw Self.recordingFailure(error, controller: controller)
            }
        }
        return ready.contains(managementDescriptor) ? try readManagement() : true
    }

    /// One management event: an advertisement becomes the pending report.
    private func readManagement() throws(TransportError) -> Bool {
        guard let packet = try socket.receivePacket(), packet.index == controller else { return true }
        let event: ManagementEvent
        do {
            event = try ManagementEvent.decode(packet)
        } catch {
            malformedEvents += 1
            if malformedEvents <= 3 { warn("Warning: \(description): skipped a malformed event: \(error)") }
            return true
        }
        switch event {
        case .deviceFound(let found):
            if let last = lastFound, found.repeats(last) {
                lastFound = nil
                break
            }
            lastFound = found
            pending = found.advertisingReportEvent
        case .discovering(false) where listening == .discovery:
            // Discovery ends by itself (about 10 s for LE): started again for as long as the run lasts.
            ownsDiscovery = false
            try commands { try startDiscovery() }
        case .indexRemoved:
            listening = nil
            throw TransportError(.io, "\(description): hci\(controller) went away: unplugged, or its driver detached")
        default:
            break
        }
        return true
    }

    public func nextPacket() throws(TransportError) -> TransportPacket? {
        guard let bytes = pending else {
            let traffic: TransportPacket?
            do {
                traffic = try copy?.nextPacket()
            } catch {
                throw Self.recordingFailure(error, controller: controller)
            }
            guard var traffic else { return nil }
            traffic.use = .recorded
            return traffic
        }
        pending = nil
        let count = min(bytes.count, packetBytes.count)
        bytes.withUnsafeBytes { packetBytes.copyMemory(from: UnsafeRawBufferPointer(rebasing: $0[..<count])) }
        return TransportPacket(HCIPacketView(kind: .event, payload: UnsafeRawBufferPointer(rebasing: packetBytes[..<count])), .received,
                               use: .heard)
    }

    public func send(_ packet: HCIPacket) throws(TransportError) {
        throw TransportError(.unavailable, "\(description) listens through the kernel: it cannot send \(packet.kind) packets; "
            + "use hci\(controller) or hci-user:\(controller)")
    }

    /// Closes the socket, removing the monitor first if `stop` did not (a run that ended where the
    /// controller seemed unreachable): the kernel keeps a monitor after its socket closes.
    public func close() {
        if listening != nil { try? stop() }
        socket.close()
        copy?.close()
        closeDescriptor(waitDescriptor)
        waitDescriptor = -1
    }

    /// Runs management commands, their failures as the transport's, in the category of their exit code.
    private func commands<T>(_ body: () throws -> T) throws(TransportError) -> T {
        do {
            return try body()
        } catch let error as ManagementCommandError {
            throw error.transportError
        } catch let error as TransportError {
            throw error
        } catch {
            throw TransportError(.io, "\(description): \(error)")
        }
    }

    private func decode<T>(_ make: ([UInt8]) throws(DecodeError) -> T, _ bytes: [UInt8], _ name: String) throws(TransportError) -> T {
        do {
            return try make(bytes)
        } catch {
            throw TransportError(.badStream, "\(description): malformed answer to \(name): \(error)")
        }
    }
}
