import BeaconCore
import CHCI
import Glibc

/// A management command that the kernel refused, with the remedy for the statuses users meet.
public struct ManagementCommandError: Error, CustomStringConvertible, Hashable, Sendable {
    public var controller: UInt16
    public var command: UInt16
    public var status: ManagementStatus

    public init(controller: UInt16, command: UInt16, status: ManagementStatus) {
        self.controller = controller
        self.command = command
        self.status = status
    }

    public var description: String {
        let device = "hci\(controller)"
        let head = "mgmt:\(controller): \(ManagementCommand.name(of: command)) failed: \(status)"
        switch status {
        case .permissionDenied:
            return "\(head); the management interface needs CAP_NET_ADMIN: run as root or `\(KernelHCIFailure.setcapCommand)`"
        case .unknownCommand where command == 0x0051 || command == 0x0052:
            return "\(head); this kernel has no advertisement monitors (Linux 5.9); use monitor:\(controller) or hci\(controller)"
        case .unknownCommand:
            return "\(head); this kernel does not have it (Add Advertising needs Linux 4.1, the interval Linux 5.11); use hci\(controller)"
        case .notPowered, .rejected:
            return "\(head); \(device) is off or has LE disabled: `bluetoothctl power on` or `sudo btmgmt --index \(controller) power on`"
        case .invalidIndex:
            return "\(head); there is no controller \(device)"
        case .notSupported where command == 0x0023 || command == 0x0051 || command == 0x0052:
            return "\(head); \(device) cannot scan through the kernel (no LE)"
        case .notSupported:
            return "\(head); \(device) cannot advertise through the kernel (no LE advertising)"
        case .busy:
            return "\(head); the kernel is busy reconfiguring \(device), try again"
        default:
            return head
        }
    }
}

extension ManagementCommandError {
    /// The same failure where a transport's is expected, in the category of its exit code.
    public var transportError: TransportError {
        let category: TransportError.Category = switch status {
        case .permissionDenied: .permission
        case .unknownCommand, .notSupported, .notPowered, .rejected, .invalidIndex: .unavailable
        case .busy: .busy
        default: .badStream
        }
        return TransportError(category, description)
    }
}

/// Why the wait between commands ended.
public enum ManagementWaitEnd: Equatable, Sendable {
    case signal(Int32)
    case deadline
    case outputGone
    /// Advertising Removed for the instance waited on: another program removed it, or the controller went off.
    case instanceRemoved
    /// Index Removed: the controller is gone.
    case controllerRemoved
}

/// A socket on the kernel's management interface (HCI_CHANNEL_CONTROL; BlueZ doc/mgmt-api.txt), the
/// one bluetoothd and btmgmt use: the kernel arbitrates between its users. Commands run one at a time,
/// each answered by Command Complete or Command Status for its code and controller; events for others
/// are passed over.
public final class ManagementSocket {
    public let controller: UInt16
    public var description: String { TransportSpec.kernelManagement(controller).description }
    /// Set once a signal arrived; interruptible commands then fail at once, cleanup commands still run.
    public private(set) var receivedSignal: Int32?

    private var descriptor: Int32
    private let signals: SignalWatcher?
    private let poller = Poller()
    private var buffer = [UInt8](repeating: 0, count: 4096)
    public static let commandTimeout = Micros.seconds(5)

    /// Signals end a command's wait (unless it is cleanup) and `wait(until:)`.
    public init(controller: UInt16, signals: SignalWatcher?) throws(TransportError) {
        self.controller = controller
        self.signals = signals
        var fd: Int32 = -1
        var stage = KernelHCIFailure.Stage.socket
        do throws(SystemError) {
            fd = try KernelHCITransport.openSocket()
            stage = .bind
            try syscall("bind") { chci_bind(fd, chci_hci_dev_none, chci_hci_channel_control) }
        } catch {
            closeDescriptor(fd)
            throw KernelHCIFailure.classify(error, stage: stage, controller: controller, channel: .raw, present: nil,
                                            listener: .kernelManagement(controller))
        }
        descriptor = fd
    }

    deinit { closeDescriptor(descriptor) }

    /// The socket, for a poll that waits for events; nil once closed.
    public var readDescriptor: Int32? { descriptor >= 0 ? descriptor : nil }

    /// One event, read when the socket is readable; nil for a datagram too short to be a packet.
    public func receivePacket() throws(TransportError) -> ManagementPacket? {
        try receive()
    }

    public func close() {
        closeDescriptor(descriptor)
        descriptor = -1
    }

    /// Sends `command` and returns its return parameters; a status other than success throws
    /// `ManagementCommandError`, a signal (when `interruptible`) `ManagementInterruption`.
    public func execute(_ command: ManagementCommand, interruptible: Bool = true) throws -> [UInt8] {
        if interruptible, let signal = receivedSignal { throw ManagementInterruption(signal: signal) }
        let bytes = command.packet(controller: controller).bytes
        let fd = descriptor
        do throws(SystemError) {
            _ = try syscall("write") { bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) } }
        } catch {
            throw transferFailure(error)
        }
        let target = command.packet(controller: controller).index
        let due = Clock.monotonic().value + Self.commandTimeout.value
        while true {
            let left = due - Clock.monotonic().value
            guard left > 0 else {
                throw TransportError(.io, "\(description): \(command.name) was not answered within \(Self.commandTimeout)")
            }
            let ready = try waitReadable(timeout: Micros(left), output: nil)
            if ready.signal, interruptible { throw ManagementInterruption(signal: receivedSignal ?? SIGINT) }
            guard ready.socket, let packet = try receive() else { continue }
            // Only the answers: what else arrives meanwhile (advertisements found) is not this command's.
            guard packet.index == target, packet.code == 0x0001 || packet.code == 0x0002 else { continue }
            let event: ManagementEvent
            do {
                event = try ManagementEvent.decode(packet)
            } catch {
                throw TransportError(.badStream, "\(description): malformed answer to \(command.name): \(error)")
            }
            switch event {
            case .commandComplete(command.code, .success, let parameters):
                return parameters
            case .commandComplete(command.code, let status, _), .commandStatus(command.code, let status):
                throw ManagementCommandError(controller: controller, command: command.code, status: status)
            default:
                continue
            }
        }
    }

    /// Waits for a signal, `deadline` (monotonic; nil: none), the reader of `output` going away, or
    /// `instance` or the controller being removed.
    public func wait(until deadline: Micros?, output: Int32?, instance: UInt8) throws -> ManagementWaitEnd {
        while true {
            if let signal = receivedSignal { return .signal(signal) }
            let now = Clock.monotonic().value
            if let deadline, deadline.value <= now { return .deadline }
            let ready = try waitReadable(timeout: deadline.map { Micros($0.value - now) }, output: output)
            if ready.signal, let signal = receivedSignal { return .signal(signal) }
            if ready.outputGone { return .outputGone }
            guard ready.socket, let packet = try receive(), packet.index == controller,
                  let event = try? ManagementEvent.decode(packet) else { continue }
            switch event {
            case .advertisingRemoved(instance): return .instanceRemoved
            case .indexRemoved: return .controllerRemoved
            default: continue
            }
        }
    }

    private func waitReadable(timeout: Micros?, output: Int32?) throws(TransportError) -> (socket: Bool, signal: Bool, outputGone: Bool) {
        var fds = [descriptor]
        if let signals { fds.append(signals.descriptor) }
        let ready: Poller.Ready
        do {
            ready = try poller.wait(fds, hangUpOf: output, timeout: timeout)
        } catch {
            throw TransportError.from(error, transport: description)
        }
        var signal = false
        if let signals, ready.readable.contains(signals.descriptor), let received = signals.pendingSignal() {
            receivedSignal = received
            signal = true
        }
        return (ready.readable.contains(descriptor), signal, ready.hungUp)
    }

    /// One datagram, as a packet; nil for one too short to be a packet (skipped).
    private func receive() throws(TransportError) -> ManagementPacket? {
        let fd = descriptor
        let count: Int
        do throws(SystemError) {
            count = try syscall("read") { buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) } }
        } catch {
            throw transferFailure(error)
        }
        return try? ManagementPacket.decode(buffer[..<count])
    }

    private func transferFailure(_ error: SystemError) -> TransportError {
        KernelHCIFailure.classify(error, stage: .transfer, controller: controller, channel: .raw, present: nil,
                                  listener: .kernelManagement(controller))
    }
}

/// A signal ended a management command's wait.
public struct ManagementInterruption: Error, Sendable {
    public var signal: Int32
}
