@testable import BeaconCLI
import BeaconCore
@testable import BeaconTransport
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
        (["calibrate", "--uuid", appleUUID, "--hci", "mgmt:0"],
         "Error: beacon calibrate cannot listen through mgmt:0, which serves advertise, range and scan; use monitor:0 (read-only, beside bluetoothd) or hci0"),
        (["scan", "--hci", "mgmt:0", "--phy", "1m,coded"],
         "Error: '--phy coded' needs the raw channel (--hci hci0): through mgmt:0 the kernel scans on the PHYs it chooses"),
        (["scan", "--hci", "mgmt:0", "--active"],
         "Error: '--active' needs the raw channel (--hci hci0): through mgmt:0 the kernel scans passively with its own interval and window"),
        (["range", "--uuid", appleUUID, "--hci", "mgmt:2", "--scan-interval", "50ms", "--scan-window", "25ms"],
         "Error: '--scan-interval', '--scan-window' need the raw channel (--hci hci2): through mgmt:2 the kernel scans passively "
            + "with its own interval and window"),
        (["range", "--uuid", appleUUID, "--hci", "mgmt:0", "--mqtt", "mqtt://localhost", "--gateway", "g1", "--advertise-self"],
         "Error: '--advertise-self' needs the raw channel (--hci hci0): mgmt:0 listens through the kernel's scans and sends nothing"),
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
        (["range", "--uuid", appleUUID, "--hci", "mgmt:0"], "mgmt:0"),
        (["scan", "--hci", "mgmt:3", "--format", "eddystone"], "mgmt:3"),
    ])
    func withoutBluetoothInTheKernel(arguments: [String], spec: String) {
        let io = CapturedConsole()
        #expect(io.run(arguments) == 69)
        #expect(io.stdout.isEmpty)
        #expect(io.stderr == ["Error: \(spec): \(Self.noBluetooth)"])
    }

    @Test(.enabled(if: !kernelHasBluetooth), arguments: [["range", "--uuid", appleUUID], ["scan"]])
    func recordingThroughManagementWithoutBluetoothInTheKernel(command: [String]) {
        let path = "/tmp/beacon-mgmt-record-\(getpid()).btsnoop"
        defer { unlink(path) }
        let io = CapturedConsole()
        #expect(io.run(command + ["--hci", "mgmt:1", "--record", path]) == 69)
        #expect(io.stdout.isEmpty)
        #expect(io.stderr == ["Error: mgmt:1: \(Self.noBluetooth)"])
        // Refused before the recording is opened: no file is left behind.
        #expect(access(path, F_OK) != 0)
    }

    @Test func recordingThroughManagementWithoutTheMonitorChannelNamesCAPNETRAW() {
        let denied = TransportError(.permission, "monitor:1: the monitor channel needs CAP_NET_RAW (bind: Operation not permitted): "
            + "run as root or `\(KernelHCIFailure.setcapCommand)`")
        let failure = ManagementScanTransport.recordingFailure(denied, controller: 1)
        #expect(failure.description == "mgmt:1 --record: recording reads hci1's traffic from the kernel's monitor channel, which needs "
            + "CAP_NET_RAW: run as root or `sudo setcap cap_net_raw,cap_net_admin+eip $(command -v beacon)`")
        #expect(Failure.exitCode(for: failure) == .noPermission)
        let gone = ManagementScanTransport.recordingFailure(TransportError(.unavailable, "monitor:1: no controller hci1"), controller: 1)
        #expect(gone.description == "mgmt:1 --record: monitor:1: no controller hci1")
        #expect(Failure.exitCode(for: gone) == .unavailable)
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

    @Test func refusedListeningCommandsNameTheRemedyAndKeepTheirExitCode() {
        let noMonitors = ManagementCommandError(controller: 0, command: 0x0052, status: .unknownCommand)
        #expect(noMonitors.description == "mgmt:0: Add Advertisement Patterns Monitor failed: Unknown Command (0x01); "
            + "this kernel has no advertisement monitors (Linux 5.9); use monitor:0 or hci0")
        let denied = ManagementCommandError(controller: 2, command: 0x0051, status: .permissionDenied)
        #expect(denied.description.hasSuffix("the management interface needs CAP_NET_ADMIN: run as root or "
            + "`sudo setcap cap_net_raw,cap_net_admin+eip $(command -v beacon)`"))
        // Through the host loop they travel as transport failures, with the same exit codes.
        for (error, exit) in [(noMonitors, ExitCode.unavailable), (denied, .noPermission),
                              (ManagementCommandError(controller: 0, command: 0x0023, status: .busy), .busy),
                              (ManagementCommandError(controller: 0, command: 0x0053, status: .failed), .controllerError)] {
            #expect(Failure.exitCode(for: HostError.transport(error.transportError)) == exit)
            #expect(Failure.exitCode(for: error) == exit)
            #expect(error.transportError.message == error.description)
        }
    }

    @Test func monitorBindNeedsCapNetRaw() {
        let error = KernelHCIFailure.classify(SystemError(call: "bind", errno: EPERM), stage: .bind, controller: 0,
                                              channel: .raw, present: nil, listener: .kernelMonitor(0))
        #expect(error.category == .permission)
        #expect(error.message == "monitor:0: the monitor channel needs CAP_NET_RAW (bind: Operation not permitted): "
            + "run as root or `sudo setcap cap_net_raw,cap_net_admin+eip $(command -v beacon)`")
    }
}
