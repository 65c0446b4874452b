import BeaconCore
import BeaconTransport

/// Scanning on a live controller, for the commands that listen: turned on after bring-up, and off
/// again at clean-up once it may have been turned on.
struct Scanning {
    /// The scanning commands, once scanning may be on.
    private(set) var commands: LECommandSet?

    /// Returns what the controller supports; nil for a replay.
    @discardableResult
    mutating func start(_ host: HCIHost, _ parameters: ScanParameters) throws(HostError) -> SupportedCommands? {
        // A replay or a read-only listener has nothing to turn on: it hears what others scan for.
        guard host.transport.isLive, !host.transport.isReadOnly else { return nil }
        let supported = try ControllerSetup.prepare(host)
        let chosen = LECommandSet.forScanning(supported)
        commands = chosen
        try ControllerSetup.startScanning(host, parameters, using: chosen)
        return supported
    }

    func stop(_ host: HCIHost) throws(HostError) {
        guard let commands else { return }
        try ControllerSetup.stopScanning(host, using: commands)
    }
}
