/// One Bluetooth controller as the kernel lists it (HCIGETDEVLIST, HCIGETDEVINFO), and what this
/// process can do with it now. `beacon devices` prints one line per controller (docs/output.md).
public struct ControllerListing: Hashable, Sendable {
    /// Kernel index: the N of hciN.
    public var index: UInt16
    /// "hci0" and so on.
    public var name: String
    /// The controller's public address; all zero when it has none (yet).
    public var address: DeviceAddress
    /// HCI_UP: the kernel has initialised it (`hciconfig hciN up`, `bluetoothctl power on`).
    public var isUp: Bool
    /// The kernel's bus code (include/net/bluetooth/hci.h: HCI_VIRTUAL 0, HCI_USB 1, ..., HCI_UART 3, ...).
    public var bus: UInt8
    /// The kernel's device type (HCI_PRIMARY 0, HCI_AMP 1).
    public var deviceType: UInt8

    public init(index: UInt16, name: String, address: DeviceAddress, isUp: Bool, bus: UInt8, deviceType: UInt8) {
        self.index = index
        self.name = name
        self.address = address
        self.isUp = isUp
        self.bus = bus
        self.deviceType = deviceType
    }

    /// The bus by its kernel name (`hciconfig` prints the same), or `unknown(N)`.
    public var busName: String {
        switch bus {
        case 0: "VIRTUAL"
        case 1: "USB"
        case 2: "PCCARD"
        case 3: "UART"
        case 4: "RS232"
        case 5: "PCI"
        case 6: "SDIO"
        case 7: "SPI"
        case 8: "I2C"
        case 9: "SMD"
        case 10: "VIRTIO"
        case 11: "IPC"
        default: "unknown(\(bus))"
        }
    }

    /// "primary" (BR/EDR and/or LE), "amp" (802.11 alternate MAC/PHY), or `unknown(N)`.
    public var typeName: String {
        switch deviceType {
        case 0: "primary"
        case 1: "amp"
        default: "unknown(\(deviceType))"
        }
    }

    /// Which kernel channels this process can use on the controller as it is now.
    /// - The raw channel (`hciN`) sends commands only with CAP_NET_RAW, and needs the controller up:
    ///   already up, or down and brought up by beacon, which takes CAP_NET_ADMIN.
    /// - The user channel (`hci-user:N`) takes CAP_NET_ADMIN and a controller that is down.
    public func channels(_ capabilities: ProcessCapabilities) -> (raw: Bool, user: Bool) {
        (raw: capabilities.netRaw && (isUp || capabilities.netAdmin),
         user: capabilities.netAdmin && !isUp)
    }

    /// Which of the kernel's own interfaces this process can use on the controller now:
    /// - The management interface (`mgmt:N`: advertising, and listening through the kernel's scans) takes
    ///   CAP_NET_ADMIN, on a controller that is up.
    /// - The monitor channel (`monitor:N`) takes CAP_NET_RAW, whatever the controller's state.
    public func kernelInterfaces(_ capabilities: ProcessCapabilities) -> (mgmt: Bool, monitor: Bool) {
        (mgmt: capabilities.netAdmin && isUp, monitor: capabilities.netRaw)
    }
}

/// The capabilities kernel HCI sockets check, as the process holds them (effective set).
public struct ProcessCapabilities: Hashable, Sendable {
    /// CAP_NET_ADMIN (12): bring a controller up, bind the user channel.
    public var netAdmin: Bool
    /// CAP_NET_RAW (13): send commands on the raw channel beyond the kernel's small read-only set.
    public var netRaw: Bool

    public init(netAdmin: Bool, netRaw: Bool) {
        self.netAdmin = netAdmin
        self.netRaw = netRaw
    }

    /// From the effective capability mask, e.g. the hex `CapEff:` of /proc/self/status.
    public init(effectiveMask: UInt64) {
        netAdmin = effectiveMask & (1 << 12) != 0
        netRaw = effectiveMask & (1 << 13) != 0
    }

    /// Parses the `CapEff:` line of a /proc/PID/status text; nil when there is none.
    public static func parse(procStatus text: String) -> ProcessCapabilities? {
        for line in text.split(separator: "\n") where line.hasPrefix("CapEff:") {
            let hex = String(line.dropFirst("CapEff:".count).filter { !$0.isWhitespace })
            guard let mask = UInt64(hex, radix: 16) else { return nil }
            return ProcessCapabilities(effectiveMask: mask)
        }
        return nil
    }
}

extension ControllerListing {
    /// "hci0, hci1" in index order, or "none" — for errors that name the controllers present.
    public static func names(_ controllers: [ControllerListing]) -> String {
        let names = controllers.sorted { $0.index < $1.index }.map(\.name)
        return names.isEmpty ? "none" : names.joined(separator: ", ")
    }
}

extension OutputLine {
    /// The `{"event":"device",…}` line of `beacon devices` (docs/output.md).
    public static func encode(_ controller: ControllerListing, capabilities: ProcessCapabilities, time: Timestamp) -> String {
        let channels = controller.channels(capabilities)
        let interfaces = controller.kernelInterfaces(capabilities)
        var w = JSONWriter()
        w.object { o in
            o.field("event", "device")
            o.field("time", time)
            o.field("name", controller.name)
            o.field("index", controller.index)
            o.field("address", controller.address)
            o.field("up", controller.isUp)
            o.field("bus", controller.busName)
            o.field("type", controller.typeName)
            o.field("channels", object: { c in
                c.field("raw", channels.raw)
                c.field("user", channels.user)
                c.field("mgmt", interfaces.mgmt)
                c.field("monitor", interfaces.monitor)
            })
        }
        return w.text
    }
}
