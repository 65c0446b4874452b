import BeaconCore

/// Controller bring-up and scanning, as command sequences over an `HCIHost`.
public enum ControllerSetup {
    /// Default event mask (Core Vol 4 Part E 7.3.1) plus LE Meta (bit 61).
    static let eventMask: UInt64 = 0x0000_1FFF_FFFF_FFFF | 1 << 61
    /// LE event mask (Core Vol 4 Part E 7.8.1): the defaults (bits 0-4) plus Extended Advertising Report (bit 12).
    static let leEventMask: UInt64 = 0x1F | 1 << 12

    /// Resets the controller when it is ours alone, reads what it supports, and enables the events
    /// scanning needs. On a shared kernel raw channel nothing is reset or reconfigured.
    public static func prepare(_ host: HCIHost) throws(HostError) -> SupportedCommands {
        if host.transport.ownsController {
            try host.execute(.reset)
        }
        let bytes = try host.execute(.readLocalSupportedCommands).returnParameters()
        let supported: SupportedCommands
        do {
            supported = try SupportedCommands(bytes)
        } catch {
            throw .command(CommandError(opcode: .readLocalSupportedCommands, kind: .malformed(error.description)))
        }
        if host.transport.ownsController {
            try host.execute(.setEventMask(eventMask))
            try host.execute(.leSetEventMask(leEventMask))
        }
        return supported
    }

    /// The controller's LE features, nil when it does not take HCI_LE_Read_Local_Supported_Features.
    public static func leFeatures(_ host: HCIHost, _ supported: SupportedCommands) throws(HostError) -> LEFeatures? {
        guard supported.supports(.leReadLocalSupportedFeatures) else { return nil }
        let bytes = try host.execute(.leReadLocalSupportedFeatures).returnParameters()
        do {
            return try LEFeatures(bytes)
        } catch {
            throw .command(CommandError(opcode: .leReadLocalSupportedFeatures, kind: .malformed(error.description)))
        }
    }

    /// Turns scanning on with duplicate filtering off (every advertisement is an RSSI sample),
    /// using the public address as our own (a random one was never set). Legacy scanning ignores `parameters.phys`.
    public static func startScanning(_ host: HCIHost, _ parameters: ScanParameters, using commands: LECommandSet) throws(HostError) {
        try stopScanning(host, using: commands, interruptible: true)
        switch commands {
        case .extended:
            try host.execute(.leSetExtendedScanParameters(ownAddressType: 0, filterPolicy: 0, phys: parameters.phys,
                                                          active: parameters.active, interval: parameters.interval,
                                                          window: parameters.window))
            try host.execute(.leSetExtendedScanEnable(true, filterDuplicates: false, duration: 0, period: 0))
        case .legacy:
            try host.execute(.leSetScanParameters(active: parameters.active, interval: parameters.interval,
                                                  window: parameters.window, ownAddressType: 0, filterPolicy: 0))
            try host.execute(.leSetScanEnable(true, filterDuplicates: false))
        }
    }

    /// Turns scanning off. Command Disallowed means it was already off.
    public static func stopScanning(_ host: HCIHost, using commands: LECommandSet, interruptible: Bool = false) throws(HostError) {
        let command: HCICommand = switch commands {
        case .extended: .leSetExtendedScanEnable(false, filterDuplicates: false, duration: 0, period: 0)
        case .legacy: .leSetScanEnable(false, filterDuplicates: false)
        }
        do {
            try host.execute(command, interruptible: interruptible)
        } catch .command(let error) where error.isCommandDisallowed {
            return
        }
    }
}

extension CommandError {
    /// The controller refused because of its current state (Core Vol 1 Part F 2.13).
    var isCommandDisallowed: Bool {
        if case .status(.commandDisallowed) = kind { return true }
        return false
    }
}
