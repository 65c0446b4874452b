@testable import BeaconCLI
import BeaconCore
import BeaconTransport
import Glibc
import Testing

/// mgmt:N and monitor:N on the command line: which commands take which, and the errors on this machine,
/// whose kernel has no Bluetooth (the kernel rig covers real controllers).
@Suite struct KernelInterfaceTests {
    static let noBluetooth = "this kernel has no Bluetooth support (AF_BLUETOOTH unavailable: CONFIG_BT off "
        + "or the bluetooth module missing); use tcp:, unix:, serial: or btsnoop: instead"

    @Test(arguments: [
        (["advertise", "--uuid", appleUUID, "--major", "1", "--minor", "2", "--hci", "monitor:0"],
         "Error: beacon advertise cannot send through monitor:0, which only listens; use mgmt:0 (beside bluetoothd), hci0 or hci-user:0"),
        (["range", "--uuid", appleUUID, "--hci", "mgmt:1"],
         "Error: beacon range cannot listen through mgmt:1, which serves beacon advertise only; use monitor:1 (read-only, beside bluetoothd) or hci1"),
        (["scan", "--hci", "mgmt:0"],
         "Error: beacon scan cannot listen through mgmt:0, which serves beacon advertise only; use monitor:0 (read-only, beside bluetoothd) or hci0"),
        (["calibrate", "--uuid", appleUUID, "--hci", "mgmt:0"],
         "Error: beacon calibrate cannot listen through mgmt:0, which serves beacon advertise only; use monitor:0 (read-only, beside bluetoothd) or hci0"),
        (["range", "--uuid", appleUUID, "--hci", "monitor:0", "--mqtt", "mqtt://localhost", "--gateway", "g1", "--advertise-self"],
         "Error: '--advertise-self' cannot send through monitor:0, which only listens; use mgmt:0 (beside bluetoothd), hci0 or hci-user:0"),
        (["advertise", "--uuid", appleUUID, "--major", "1", "--minor", "2", "--hci", "mgmt:0", "--record", "/tmp/x.btsnoop"],
         "Error: '--record' captures HCI packets, and mgmt:0 exchanges management commands; record what the kernel sends with `btmon -i hci0 -w FILE`"),
        (["advertise", "--uuid", appleUUID, "--major", "1", "--minor", "2", "--hci", "mgmt:1", "--phy", "coded"],
         "Error: '--phy coded' needs the raw channel (--hci hci1): mgmt:1 advertises on LE 1M"),
    ])
    func eachCommandTakesTheInterfacesItCanUse(arguments: [String], error: String) {
        let io = CapturedConsole()
        #expect(io.run(arguments) == 64)
        #expect(io.stdout.isEmpty)
        #expect(io.stderr.first == error)
    }

    @Test(.enabled(if: !kernelHasBluetooth), arguments: [
        (["advertise", "--uuid", appleUUID, "--major", "1", "--minor", "2", "--hci", "mgmt:0"], "mgmt:0"),
        (["range", "--uuid", appleUUID, "--hci", "monitor:0"], "monitor:0"),
        (["scan", "--hci", "monitor:2"], "monitor:2"),
    ])
    func withoutBluetoothInTheKernel(arguments: [String], spec: String) {
        let io = CapturedConsole()
        #expect(io.run(arguments) == 69)
        #expect(io.stdout.isEmpty)
        #expect(io.stderr == ["Error: \(spec): \(Self.noBluetooth)"])
    }

    @Test func refusedManagementCommandsNameTheRemedyAndTheirExitCode() {
        let denied = ManagementCommandError(controller: 0, command: 0x003E, status: .permissionDenied)
        #expect(denied.description == "mgmt:0: Add Advertising failed: Permission Denied (0x14); the management interface needs "
            + "CAP_NET_ADMIN: run as root or `sudo setcap cap_net_raw,cap_net_admin+eip $(command -v beacon)`")
        #expect(Failure.exitCode(for: denied) == .noPermission)
        let unknown = ManagementCommandError(controller: 1, command: 0x0054, status: .unknownCommand)
        #expect(unknown.description.hasPrefix("mgmt:1: Add Extended Advertising Parameters failed: Unknown Command (0x01); "))
        #expect(Failure.exitCode(for: unknown) == .unavailable)
        let off = ManagementCommandError(controller: 0, command: 0x003E, status: .notPowered)
        #expect(off.description.contains("`bluetoothctl power on`"))
        #expect(Failure.exitCode(for: ManagementCommandError(controller: 0, command: 0x003E, status: .busy)) == .busy)
        #expect(Failure.exitCode(for: ManagementCommandError(controller: 0, command: 0x003E, status: .failed)) == .controllerError)
    }

    @Test func monitorBindNeedsCapNetRaw() {
        let error = KernelHCIFailure.classify(SystemError(call: "bind", errno: EPERM), stage: .bind, controller: 0,
                                              channel: .raw, present: nil, listener: .kernelMonitor(0))
        #expect(error.category == .permission)
        #expect(error.message == "monitor:0: the monitor channel needs CAP_NET_RAW (bind: Operation not permitted): "
            + "run as root or `sudo setcap cap_net_raw,cap_net_admin+eip $(command -v beacon)`")
    }
}
