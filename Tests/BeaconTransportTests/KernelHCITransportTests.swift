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
        #expect(error.message == "\(spec): this kernel has no Bluetooth support (AF_BLUETOOTH unavailable); "
            + "use tcp:, unix:, serial: or btsnoop: instead")
        #expect(error.systemError == SystemError(call: "socket(AF_BLUETOOTH)", errno: EAFNOSUPPORT))
    }

    @Test(.enabled(if: !kernelHasBluetooth))
    func controllerListIsUnavailable() throws {
        let error = try #require(throws: TransportError.self) { try KernelController.list() }
        #expect(error.category == .unavailable)
    }

    @Test func errnoClassification() {
        let cases: [(Int32, KernelHCITransport.Channel, TransportError.Category, String)] = [
            (ENODEV, .raw, .unavailable, "hci3: no Bluetooth controller hci3"),
            (EPERM, .raw, .permission, "setcap cap_net_raw,cap_net_admin+eip"),
            (EACCES, .user, .permission, "CAP_NET_ADMIN"),
            (EBUSY, .user, .busy, "the user channel needs the controller down"),
            (ERFKILL, .raw, .unavailable, "rfkill"),
            (EIO, .raw, .io, "hci3: read: Input/output error"),
        ]
        for (code, channel, category, text) in cases {
            let error = KernelHCITransport.classify(SystemError(call: "read", errno: code), name: "hci3", controller: 3, channel: channel)
            #expect(error.category == category, "errno \(code)")
            #expect(error.message.contains(text), "\(error.message)")
        }
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
