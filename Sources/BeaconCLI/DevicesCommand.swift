import BeaconCore
import BeaconTransport

/// `beacon devices`: one JSON line per kernel Bluetooth controller, with the channels usable now.
enum DevicesCommand {
    static let help = CommandHelp(
        name: "devices",
        overview: "List the kernel's Bluetooth controllers and which HCI channels this process can use on each.",
        usage: "beacon devices",
        options: [],
        discussion: """
        Prints one "device" line per controller (fields in beacon(1), OUTPUT), from the kernel's device list \
        (HCIGETDEVLIST, HCIGETDEVINFO). "channels" says what this process can use now:
          raw   --hci hciN: needs CAP_NET_RAW, and the controller up (or CAP_NET_ADMIN to bring it up).
          user  --hci hci-user:N: needs CAP_NET_ADMIN and the controller down (`sudo hciconfig hciN down`).
          mgmt  --hci mgmt:N (advertise, range, scan; beside bluetoothd): needs CAP_NET_ADMIN and the controller up.
          monitor  --hci monitor:N (range, scan; read-only): needs CAP_NET_RAW.
        Fails with exit 69 when the kernel has no Bluetooth support.
        """,
        exitCodes: [.success, .usage, .unavailable, .software, .ioError, .noPermission]
    )

    static func run(console: Console, capabilities: ProcessCapabilities?, now: () -> Timestamp,
                    list: () throws(TransportError) -> [ControllerListing]) -> ExitCode {
        let controllers: [ControllerListing]
        do {
            controllers = try list()
        } catch {
            return Failure.report(error, console: console)
        }
        if controllers.isEmpty {
            console.diagnose("Warning: the kernel has Bluetooth support but no controllers")
        }
        // Unknown capabilities (no /proc): claim nothing is usable rather than guess.
        let held = capabilities ?? ProcessCapabilities(netAdmin: false, netRaw: false)
        let time = now()
        let output = LineOutput(console: console)
        for controller in controllers {
            output.write(OutputLine.encode(controller, capabilities: held, time: time))
        }
        return .success
    }
}
