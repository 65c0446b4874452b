import BeaconCore
import CHCI
import Glibc
import Testing
@testable import BeaconTransport

@Suite struct KernelHCITransportTests {
    /// Whether this kernel has Bluetooth at all; the machine the tests run on does not.
    static var kernelHasBluetooth: Bool {
        let fd = socket(chci_af_bluetooth, Int32(SOCK_RAW.rawValue | SOCK_CLOEXEC.rawValue), chci_btproto_hci)
        if fd >= 0 { _ = Glibc.close(fd) }
        return fd >= 0 || errno != EAFNOSUPPORT
    }

    @Test(.enabled(if: !kernelHasBluetooth), arguments: [TransportSpec.kernelRaw(0), .kernelUser(1)])
    func kernelWithoutBluetoothIsUnavailable(spec: TransportSpec) throws {
        let error = try #require(throws: TransportError.self) { try openTransport(spec) }
        #expect(error.category == .unavailable)
        #expect(error.message == "\(spec): this kernel has no Bluetooth support (AF_BLUETOOTH unavailable: CONFIG_BT off "
            + "or the bluetooth module missing); use tcp:, unix:, serial: or btsnoop: instead")
        #expect(error.systemError == SystemError(call: "socket(AF_BLUETOOTH)", errno: EAFNOSUPPORT))
    }

    @Test(.enabled(if: !kernelHasBluetooth))
    func controllerListIsUnavailable() throws {
        let error = try #require(throws: TransportError.self) { try KernelControllers.list() }
        #expect(error.category == .unavailable)
    }

    static let setcap = "`sudo setcap cap_net_raw,cap_net_admin+eip $(command -v beacon)`"
    static func listing(_ index: UInt16) -> ControllerListing {
        ControllerListing(index: index, name: "hci\(index)", address: DeviceAddress(value: 0), isUp: true, bus: 3, deviceType: 0)
    }

    /// Every failure a kernel HCI socket has, at the step where it happens, with its one line and category.
    @Test(arguments: [
        (EAFNOSUPPORT, "socket", KernelHCIFailure.Stage.socket, KernelHCITransport.Channel.raw, TransportError.Category.unavailable,
         "hci3: this kernel has no Bluetooth support (AF_BLUETOOTH unavailable: CONFIG_BT off or the bluetooth module missing); use tcp:, unix:, serial: or btsnoop: instead"),
        (EAFNOSUPPORT, "socket", .list, .raw, .unavailable,
         "devices: this kernel has no Bluetooth support (AF_BLUETOOTH unavailable: CONFIG_BT off or the bluetooth module missing); use tcp:, unix:, serial: or btsnoop: instead"),
        (ENODEV, "bind", .bind, .raw, .unavailable, "hci3: no controller hci3; present: hci0, hci1"),
        (ENODEV, "bind", .bind, .user, .unavailable, "hci-user:3: no controller hci3; present: hci0, hci1"),
        (ENODEV, "read", .transfer, .raw, .io, "hci3: hci3 went away: unplugged, or its driver detached (read: No such device)"),
        (EPIPE, "read", .transfer, .raw, .io, "hci3: hci3 went away: unplugged, or its driver detached (read: Broken pipe)"),
        (ENXIO, "write", .transfer, .user, .io, "hci-user:3: hci3 went away: unplugged, or its driver detached (write: No such device or address)"),
        (ENETDOWN, "write", .transfer, .raw, .io,
         "hci3: hci3 is down (write: Network is down); bring it up with `sudo hciconfig hci3 up` or `bluetoothctl power on`"),
        (EPERM, "bind", .bind, .user, .permission,
         "hci-user:3: the user channel needs CAP_NET_ADMIN (bind: Operation not permitted): run as root or \(setcap)"),
        (EPERM, "ioctl(HCIDEVUP)", .bringUp, .raw, .permission,
         "hci3: hci3 is down and bringing it up needs CAP_NET_ADMIN (ioctl(HCIDEVUP): Operation not permitted): `sudo hciconfig hci3 up` or `bluetoothctl power on`, or \(setcap)"),
        (EPERM, "write", .transfer, .raw, .permission,
         "hci3: sending HCI commands on the raw channel needs CAP_NET_RAW (write: Operation not permitted): run as root or \(setcap)"),
        (EACCES, "socket", .socket, .raw, .permission, "hci3: not permitted (socket: Permission denied): run as root or \(setcap)"),
        (EBUSY, "bind", .bind, .user, .busy, "hci-user:3: hci3 is up or in use: stop bluetoothd or `sudo hciconfig hci3 down`"),
        (EUSERS, "bind", .bind, .user, .busy, "hci-user:3: hci3 is already held by another user-channel program (hci-user:3)"),
        (EBUSY, "ioctl(HCIDEVUP)", .bringUp, .raw, .busy,
         "hci3: hci3 is busy: another program holds it, perhaps on the user channel (hci-user:3) (ioctl(HCIDEVUP): Device or resource busy)"),
        (ERFKILL, "ioctl(HCIDEVUP)", .bringUp, .raw, .unavailable, "hci3: hci3 is blocked by rfkill: `rfkill unblock bluetooth`"),
        (EADDRNOTAVAIL, "ioctl(HCIDEVUP)", .bringUp, .raw, .unavailable,
         "hci3: the kernel will not bring hci3 up: it has no public address (ioctl(HCIDEVUP): Cannot assign requested address); set one (`sudo btmgmt --index 3 public-addr ADDRESS`) or use hci-user:3"),
        (EOPNOTSUPP, "ioctl(HCIDEVUP)", .bringUp, .raw, .unavailable,
         "hci3: hci3 is unconfigured (ioctl(HCIDEVUP): Operation not supported); only the user channel (hci-user:3) can use it"),
        (ETIMEDOUT, "ioctl(HCIDEVUP)", .bringUp, .raw, .unavailable, "hci3: hci3 did not initialise (ioctl(HCIDEVUP): Connection timed out); check `dmesg`"),
        (EIO, "read", .transfer, .raw, .io, "hci3: read: Input/output error"),
    ] as [(Int32, String, KernelHCIFailure.Stage, KernelHCITransport.Channel, TransportError.Category, String)])
    func failureLines(code: Int32, call: String, stage: KernelHCIFailure.Stage, channel: KernelHCITransport.Channel,
                      category: TransportError.Category, message: String) {
        let cause = SystemError(call: call, errno: code)
        let error = KernelHCIFailure.classify(cause, stage: stage, controller: 3, channel: channel,
                                              present: [Self.listing(1), Self.listing(0)])
        #expect(error.category == category)
        #expect(error.message == message)
        #expect(error.systemError == cause)
        #expect(!error.message.contains("\n"))
    }

    @Test func missingControllerWithoutAListStillSaysWhich() {
        let error = KernelHCIFailure.classify(SystemError(call: "bind", errno: ENODEV), stage: .bind, controller: 7,
                                              channel: .raw, present: nil)
        #expect(error.message == "hci7: no controller hci7")
        let none = KernelHCIFailure.classify(SystemError(call: "bind", errno: ENODEV), stage: .bind, controller: 7,
                                             channel: .raw, present: [])
        #expect(none.message == "hci7: no controller hci7; present: none")
    }

    @Test("a controller's device info reads as its listing: name, address, up flag, and the bus and device type the kernel packs into one byte")
    func deviceInfoBecomesAListing() {
        var info = chci_dev_info()
        info.id = 2
        withUnsafeMutableBytes(of: &info.name) { $0.copyBytes(from: Array("hci2".utf8)) }
        info.bdaddr = (0x01, 0xF4, 0xF3, 0xF2, 0xF1, 0xF0)
        info.flags = chci_hci_flag_up
        info.type = 0x13  // HCI_AMP in bits 4-5, HCI_UART in the low nibble
        let listing = ControllerListing(info)
        #expect(listing.index == 2)
        #expect(listing.name == "hci2")
        #expect(listing.address == DeviceAddress(value: 0xF0F1_F2F3_F401))
        #expect(listing.isUp)
        #expect(listing.bus == 3)
        #expect(listing.deviceType == 1)
        info.flags = 0
        info.type = 0xC1  // bits 6-7 are not the device type's
        #expect(!ControllerListing(info).isUp)
        #expect(ControllerListing(info).bus == 1)
        #expect(ControllerListing(info).deviceType == 0)
    }

    @Test func shimConstantsMatchTheKernelABI() {
        #expect(chci_af_bluetooth == 31)
        #expect(chci_btproto_hci == 1)
        #expect(chci_hci_channel_raw == 0)
        #expect(chci_hci_channel_user == 1)
        #expect(chci_hci_channel_monitor == 2)
        #expect(chci_sol_hci == 0)
        #expect(chci_hci_filter == 2)
        #expect(chci_hcidevup == 0x400448C9)       // _IOW('H', 201, int)
        #expect(chci_hcidevdown == 0x400448CA)     // _IOW('H', 202, int)
        #expect(chci_hcigetdevlist == 0x800448D2)  // _IOR('H', 210, int)
        #expect(chci_hcigetdevinfo == 0x800448D3)  // _IOR('H', 211, int)
    }
}
