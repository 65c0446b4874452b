import BeaconCore
import Glibc

/// One line, with the remedy, for each way a kernel HCI socket fails. The same errno means different
/// things at different steps (EBUSY from bind on the user channel is bluetoothd holding the controller
/// up; ENODEV from a read is the controller unplugged), so the step is part of the input.
public enum KernelHCIFailure {
    /// The step that failed.
    public enum Stage: Hashable, Sendable {
        /// socket(AF_BLUETOOTH, SOCK_RAW, BTPROTO_HCI).
        case socket
        /// bind(2) to the controller and channel, or setting the raw channel's event filter.
        case bind
        /// HCIDEVUP on a controller found down (raw channel).
        case bringUp
        /// HCIGETDEVLIST / HCIGETDEVINFO.
        case list
        /// read(2) or write(2) during the run.
        case transfer
    }

    /// The capabilities line users paste.
    public static let setcapCommand = "sudo setcap cap_net_raw,cap_net_admin+eip $(command -v beacon)"

    /// Classifies `error` from `stage` on controller `controller` (hci-user:N when `channel` is `.user`).
    /// `present` lists the controllers the kernel has, when known, for "no such controller" errors.
    /// `listener` names a monitor:N or mgmt:N socket, whose errors are those of the raw channel but for binding.
    public static func classify(_ error: SystemError, stage: Stage, controller: UInt16,
                                channel: KernelHCITransport.Channel, present: [ControllerListing]?,
                                listener: TransportSpec? = nil) -> TransportError {
        let device = "hci\(controller)"
        let name = stage == .list ? "devices"
            : (listener ?? (channel == .raw ? TransportSpec.kernelRaw(controller) : TransportSpec.kernelUser(controller))).description
        let cause = "(\(error.call): \(error.message))"
        func fail(_ category: TransportError.Category, _ text: String) -> TransportError {
            TransportError(category, "\(name): \(text)", systemError: error)
        }
        switch (error.errno, stage) {
        case (EAFNOSUPPORT, _):
            return fail(.unavailable, "this kernel has no Bluetooth support (AF_BLUETOOTH unavailable: CONFIG_BT off "
                + "or the bluetooth module missing); use tcp:, unix:, serial: or btsnoop: instead")
        case (ENODEV, .socket), (ENODEV, .bind), (ENODEV, .bringUp), (ENODEV, .list):
            let list = present.map { "; present: \(ControllerListing.names($0))" } ?? ""
            return fail(.unavailable, "no controller \(device)\(list)")
        case (ENODEV, .transfer), (ENXIO, .transfer), (EPIPE, .transfer), (EBADFD, .transfer), (ESHUTDOWN, .transfer),
             (ECONNRESET, .transfer):
            return fail(.io, "\(device) went away: unplugged, or its driver detached \(cause)")
        case (ENETDOWN, _):
            return fail(.io, "\(device) is down \(cause); bring it up with `sudo hciconfig \(device) up` or `bluetoothctl power on`")
        case (EPERM, .bind), (EACCES, .bind):
            if case .kernelMonitor = listener {
                return fail(.permission, "the monitor channel needs CAP_NET_RAW \(cause): run as root or `\(setcapCommand)`")
            }
            if channel == .user {
                return fail(.permission, "the user channel needs CAP_NET_ADMIN \(cause): run as root or `\(setcapCommand)`")
            }
            return fail(.permission, "opening \(device) is not permitted \(cause): run as root or `\(setcapCommand)`")
        case (EPERM, .bringUp), (EACCES, .bringUp):
            return fail(.permission, "\(device) is down and bringing it up needs CAP_NET_ADMIN \(cause): "
                + "`sudo hciconfig \(device) up` or `bluetoothctl power on`, or `\(setcapCommand)`")
        case (EPERM, .transfer), (EACCES, .transfer):
            return fail(.permission, "sending HCI commands on the raw channel needs CAP_NET_RAW \(cause): "
                + "run as root or `\(setcapCommand)`")
        case (EPERM, _), (EACCES, _):
            return fail(.permission, "not permitted \(cause): run as root or `\(setcapCommand)`")
        case (EBUSY, .bind) where channel == .user:
            return fail(.busy, "\(device) is up or in use: stop bluetoothd or `sudo hciconfig \(device) down`")
        case (EUSERS, _):
            return fail(.busy, "\(device) is already held by another user-channel program (hci-user:\(controller))")
        case (EBUSY, _):
            return fail(.busy, "\(device) is busy: another program holds it, perhaps on the user channel (hci-user:\(controller)) \(cause)")
        case (ERFKILL, _):
            return fail(.unavailable, "\(device) is blocked by rfkill: `rfkill unblock bluetooth`")
        case (EADDRNOTAVAIL, .bringUp):
            return fail(.unavailable, "the kernel will not bring \(device) up: it has no public address \(cause); "
                + "set one (`sudo btmgmt --index \(controller) public-addr ADDRESS`) or use hci-user:\(controller)")
        case (EOPNOTSUPP, .bringUp):
            return fail(.unavailable, "\(device) is unconfigured \(cause); only the user channel (hci-user:\(controller)) can use it")
        case (ETIMEDOUT, .bringUp), (EIO, .bringUp):
            return fail(.unavailable, "\(device) did not initialise \(cause); check `dmesg`")
        default:
            return TransportError.from(error, transport: name)
        }
    }
}
