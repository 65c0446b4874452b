import BeaconCore
import BeaconTransport

/// `beacon range --advertise-self`: the gateway's own iBeacon, advertised on the controller it scans
/// with, so the other gateways hear it (`beacon locate --calibrate`); turned off again at clean-up.
struct SelfAdvertising {
    let plan: AdvertisingPlan
    /// The advertising commands, once advertising may be on: the ones scanning uses, since a controller
    /// refuses legacy and extended commands mixed.
    private var commands: LECommandSet?

    init(_ plan: AdvertisingPlan) {
        self.plan = plan
    }

    /// Starts advertising beside scanning (`scanning` its commands, `active` whether it sends scan
    /// requests). Returns why not when the controller cannot do both at once: its LE supported states
    /// (Core Vol 4 Part E 7.8.27) lack non-connectable advertising combined with that kind of scanning, or
    /// it scans with extended commands but cannot advertise with them.
    mutating func start(_ host: HCIHost, supported: SupportedCommands, scanning: LECommandSet, active: Bool) throws(HostError) -> String? {
        let advice = "run `beacon advertise` with this gateway's beacon on a second controller beside it"
        if supported.supports(.leReadSupportedStates) {
            let bytes = try host.execute(.leReadSupportedStates).returnParameters()
            let states: LEStates
            do {
                states = try LEStates(bytes)
            } catch {
                throw .command(CommandError(opcode: .leReadSupportedStates, kind: .malformed(error.description)))
            }
            guard states.allowsAdvertising(whileScanning: active) else {
                return "this controller cannot advertise while it scans \(active ? "actively" : "passively") "
                    + "(its LE supported states lack the combination); \(advice)"
            }
        }
        if scanning == .extended, !supported.hasExtendedAdvertising {
            return "this controller scans with extended commands but cannot advertise with them; \(advice)"
        }
        commands = scanning
        // The gateway's beacon advertises the plan's measured power: the controller's answer adds nothing.
        _ = try AdvertiserSetup.start(host, plan, using: scanning)
        return nil
    }

    /// Turns advertising off, if it may have been turned on.
    func stop(_ host: HCIHost) throws(HostError) {
        guard let commands else { return }
        try AdvertiserSetup.stop(host, using: commands)
    }
}
