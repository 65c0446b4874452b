import BeaconCore
import BeaconTransport

/// Scanning on a live controller, for the commands that listen: turned on after bring-up, and off
/// again at clean-up once it may have been turned on.
struct Scanning {
    /// The scanning commands, once scanning may be on.
    private(set) var commands: LECommandSet?

    /// Scans the PHYs `asked` (`--phy`; nil: every one the controller scans). Returns what the
    /// controller supports (nil for a replay), or why it cannot scan the PHYs asked, before scanning.
    /// Through the management interface (mgmt:N) the kernel scans instead, for advertisements of
    /// `formats` (every format when empty); `diagnose` takes the line saying it fell back to discovery.
    mutating func start(_ host: HCIHost, _ parameters: ScanParameters, phys asked: ScanningPHYs?,
                        formats: Set<BeaconFormat> = [],
                        diagnose: (String) -> Void = { _ in }) throws(HostError) -> Result<SupportedCommands?, PHYRefusal> {
        if let management = host.transport as? ManagementScanTransport {
            let listening: ManagementListening
            do {
                listening = try management.start(patterns: ManagementAdvertisementPattern.patterns(for: formats))
            } catch {
                throw .transport(error)
            }
            if listening == .discovery {
                diagnose("Warning: \(management.description): this kernel has no advertisement monitors (Linux 5.9): "
                    + "listening through discovery instead (active scanning, restarted as it ends, with the kernel's "
                    + "duplicate filtering: fewer RSSI readings)")
            }
            return .success(nil)
        }
        // A replay or a read-only listener has nothing to turn on: it hears what others scan for.
        guard host.transport.isLive, !host.transport.isReadOnly else { return .success(nil) }
        let supported = try ControllerSetup.prepare(host)
        let chosen = LECommandSet.forScanning(supported)
        // Legacy scanning is LE 1M only, whatever the link layer can do.
        let features = chosen == .extended ? try ControllerSetup.leFeatures(host, supported) : nil
        var parameters = parameters
        switch PHYSupport(commands: supported, features: features).scanning(asked: asked) {
        case .success(let phys): parameters.phys = phys
        case .failure(let refusal): return .failure(refusal)
        }
        commands = chosen
        try ControllerSetup.startScanning(host, parameters, using: chosen)
        return .success(supported)
    }

    func stop(_ host: HCIHost) throws(HostError) {
        if let management = host.transport as? ManagementScanTransport {
            do {
                try management.stop()
            } catch {
                throw .transport(error)
            }
            return
        }
        guard let commands else { return }
        try ControllerSetup.stopScanning(host, using: commands)
    }

    /// `hciN` while bluetoothd holds the controller: listening through the kernel's management interface
    /// (mgmt:N), since on the raw channel the kernel's own scans and beacon's collide (`--record` then
    /// captures the controller's traffic from the monitor channel). Not with `--phy coded`, the scan
    /// options or what else `needsRaw`, which only the raw channel does.
    static func chooseManagement(_ common: inout CommonOptions, phys: ScanningPHYs?, scanOptions: [String], needsRaw: Bool,
                                 console: Console) {
        guard case .kernelRaw(let index) = common.transport, !needsRaw, scanOptions.isEmpty,
              !(phys?.contains(.leCoded) ?? false), let reason = BluetoothDaemon.holdReason(controller: index) else { return }
        console.diagnose("Note: listening through the kernel's management interface (mgmt:\(index)), not the raw channel: "
            + "\(reason); stop bluetoothd for the raw channel")
        common.transport = .kernelManagement(index)
    }
}
