import BeaconCore
import BeaconTransport

/// `beacon advertise`: advertise a beacon of any format until stopped, then turn advertising off.
struct AdvertiseCommand: ControllerCommand {
    let options: AdvertiseOptions
    let output: LineOutput
    /// The advertising commands, once advertising may be on.
    private var advertising: LECommandSet?
    /// True once the `advertising` line was printed; `stopped` answers it.
    private var started = false
    private var cause = StopCause.signal

    static func run(_ options: AdvertiseOptions, console: Console, signals: SignalWatcher?) -> ExitCode {
        if case .kernelManagement(let index) = options.common.transport {
            return ManagementAdvertising.run(options, controller: index, console: console, signals: signals)
        }
        // Beside bluetoothd the kernel reconfigures the controller under the raw channel: the management
        // interface lets it arbitrate instead.
        if case .kernelRaw(let index) = options.common.transport, options.common.recordPath == nil,
           options.plan.phy == .le1M, let reason = BluetoothDaemon.holdReason(controller: index) {
            console.diagnose("Note: advertising through the kernel's management interface (mgmt:\(index)), not the raw "
                + "channel: \(reason); stop bluetoothd for the raw channel")
            return ManagementAdvertising.run(options, controller: index, console: console, signals: signals)
        }
        var command = AdvertiseCommand(options: options, output: LineOutput(console: console))
        let code = ControllerConnection.run(&command, options.common, signals: signals, console: console)
        return command.output.finish(code)
    }

    mutating func run(_ host: HCIHost) throws(HostError) -> ExitCode? {
        let supported = try ControllerSetup.prepare(host)
        if options.plan.phy != .le1M {
            let support = PHYSupport(commands: supported, features: try ControllerSetup.leFeatures(host, supported))
            if let refusal = support.advertisingRefusal(options.plan.phy) {
                output.console.diagnose("Error: \(refusal)")
                return .unavailable
            }
        }
        let commands: LECommandSet = options.forceLegacy || !supported.hasExtendedAdvertising ? .legacy : .extended
        if commands == .legacy {
            let version = try AdvertiserSetup.hciVersion(host)
            if options.plan.violatesLegacyFloor(hciVersion: version) {
                output.console.diagnose("Error: this controller (HCI version \(version), before Bluetooth 5.0) refuses non-connectable advertising faster than 100ms; use --interval 100ms or more, or --connectable")
                output.console.diagnose(AdvertiseOptions.help.usageLine)
                return .usage
            }
        }
        advertising = commands
        var on = try AdvertiserSetup.start(host, options.plan, using: commands)
        var session = AdvertisingSession(endTime: options.common.duration.map { on.time + $0 })
        on.time = host.wallTime(at: on.time)
        output.write(OutputLine.encode(.advertising(plan: options.plan, started: on)))
        started = true
        if try ListeningLoop.run(host, &session, output: output, emit: { _ in }) { cause = .duration }
        return nil
    }

    mutating func cleanUp(_ host: HCIHost, after failure: (any Error)?) throws(HostError) {
        guard let advertising else { return }
        let stoppedAt = try AdvertiserSetup.stop(host, using: advertising)
        // `stopped` answers `advertising`: a signal during bring-up stopped nothing that had started.
        if failure == nil, started {
            output.write(OutputLine.encode(.stopped(time: host.wallTime(at: stoppedAt), reason: cause)))
        }
    }
}

/// What `advertise` listens for: only its end. The controller's packets are taken and passed over until
/// --duration has passed since advertising started (or a signal).
struct AdvertisingSession: ListeningSession {
    let endTime: Timestamp?

    var nextDeadline: Timestamp? { endTime }
    var evictedBeacons: Int { 0 }
    var lastTick: Timestamp? { nil }
    func isFinished(at now: Timestamp) -> Bool { endTime.map { now >= $0 } ?? false }

    func packet(_ packet: HCIPacketView, direction: PacketDirection, at rawTime: Timestamp,
                emit: (Never) -> Void, heard: (Sighting) -> Bool) {}
    func advance(to now: Timestamp, emit: (Never) -> Void) {}
    func finish(at now: Timestamp, emit: (Never) -> Void) {}
}
