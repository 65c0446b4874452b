import BeaconCore
import BeaconTransport

/// Scanning on a live controller, for the commands that listen: turned on after bring-up, and off
/// again at clean-up once it may have been turned on.
struct Scanning {
    /// The scanning commands, once scanning may be on.
    private(set) var commands: LECommandSet?

    /// Scans the PHYs `asked` (`--phy`; nil: every one the controller scans). Returns what the
    /// controller supports (nil for a replay), or why it cannot scan the PHYs asked, before scanning.
    mutating func start(_ host: HCIHost, _ parameters: ScanParameters,
                        phys asked: ScanningPHYs?) throws(HostError) -> Result<SupportedCommands?, PHYRefusal> {
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
        guard let commands else { return }
        try ControllerSetup.stopScanning(host, using: commands)
    }
}
