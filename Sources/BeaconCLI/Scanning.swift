import BeaconCore
import BeaconTransport

/// Scanning on a live controller, for the commands that listen: turned on after bring-up, and off
/// again at clean-up once it may have been turned on. A replay has nothing to turn on.
struct Scanning {
    private var commands: LECommandSet?

    mutating func start(_ host: HCIHost, _ parameters: ScanParameters) throws(HostError) {
        guard host.transport.isLive else { return }
        let chosen = LECommandSet.forScanning(try ControllerSetup.prepare(host))
        commands = chosen
        try ControllerSetup.startScanning(host, parameters, using: chosen)
    }

    func stop(_ host: HCIHost) throws(HostError) {
        guard let commands else { return }
        try ControllerSetup.stopScanning(host, using: commands)
    }
}
