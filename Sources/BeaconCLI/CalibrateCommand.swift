import BeaconCore
import BeaconTransport

/// `beacon calibrate`: measure one beacon at a known distance, or fit a site's path-loss model.
enum CalibrateCommand {
    static func run(_ options: CalibrateOptions, console: Console, signals: SignalWatcher?) -> ExitCode {
        switch options {
        case .fit(let samples):
            return fit(samples, console: console, now: Clock.now())
        case .measure:
            return measure(options, console: console, signals: signals)
        }
    }

    static func fit(_ samples: [CalibrationSample], console: Console, now: Timestamp) -> ExitCode {
        switch PathLossFit.fit(samples) {
        case .success(let fit):
            if let warning = fit.lowExponentWarning { console.diagnose("Warning: \(warning)") }
            let output = LineOutput(console: console)
            output.write(OutputLine.encode(.fit(time: now, fit)))
            return output.finish(.success)
        case .failure(let error):
            console.diagnose("Error: cannot fit: \(error)")
            return .dataError
        }
    }
}

extension CalibrateCommand {
    static func measure(_ options: CalibrateOptions, console: Console, signals: SignalWatcher?) -> ExitCode {
        guard case let .measure(common, region, distance, scan) = options else { return .software }
        var run = Measurement(region: region, scan: scan, duration: common.duration ?? CalibrateOptions.defaultDuration,
                              console: console)
        let code = ControllerConnection.run(&run, common, signals: signals, console: console)
        if run.malformedPackets > 0 { console.diagnose("Warning: skipped \(run.malformedPackets) malformed packets") }
        guard code == .success else { return code }
        let beacon: CalibrationReadings.Beacon
        switch run.readings.measured() {
        case .success(let measured): beacon = measured
        case .failure(let error):
            console.diagnose("Error: \(error)")
            return .dataError
        }
        switch CalibrationSample.measure(beacon.rssi, at: distance) {
        case .success(let sample):
            let output = LineOutput(console: console)
            output.write(OutputLine.encode(.calibration(time: run.endTime, identity: beacon.identity, address: beacon.address,
                                                        advertisedPower: beacon.advertisedPower, sample: sample)))
            return output.finish(.success)
        case .failure(let error):
            console.diagnose("Error: cannot calibrate \(beacon.identity): \(error)")
            return .dataError
        }
    }

    /// Listens for `duration` from the moment scanning is on and keeps the readings of the beacons
    /// matching `region`.
    struct Measurement: ControllerCommand {
        let region: BeaconRegion
        let scan: ScanParameters
        let duration: Micros
        /// Where the listening loop tells a replay's progress; the measurement's line is written after it.
        let console: Console
        private(set) var readings: CalibrationReadings
        /// Wall-clock time of the end of the measurement.
        private(set) var endTime = Timestamp(microseconds: 0)
        /// Packets that could not be decoded, skipped.
        private(set) var malformedPackets = 0
        private var scanning = Scanning()

        init(region: BeaconRegion, scan: ScanParameters, duration: Micros, console: Console) {
            self.region = region
            self.console = console
            self.scan = scan
            self.duration = duration
            readings = CalibrationReadings(region: region)
        }

        mutating func run(_ host: HCIHost) throws(HostError) -> ExitCode? {
            // Every PHY the controller scans: with none asked for, nothing is refused.
            _ = try scanning.start(host, scan, phys: nil)
            // The session finds when scanning started and when --duration ends; its lines are not printed.
            var session = CalibrationSession(range: RangeSession(monitor: RegionMonitor(regions: [region], hashKey: .systemRandomKey()),
                                                                duration: duration))
            defer {
                endTime = host.wallTime(at: host.now())
                malformedPackets = session.range.malformedPackets
            }
            try ListeningLoop.run(host, &session, output: LineOutput(console: console), emit: { _ in }, heard: { sighting in
                readings.add(sighting)
                return true
            })
            return nil
        }

        mutating func cleanUp(_ host: HCIHost, after failure: (any Error)?) throws(HostError) {
            try scanning.stop(host)
        }
    }
}

/// `calibrate`'s session: ranging the one region, whose lines are not printed, for when scanning started
/// and when --duration ends. Malformed packets are counted by the session and told once at the end, and
/// beacons the monitor forgot change no reading (the readings are kept apart), so neither is warned of.
struct CalibrationSession: ListeningSession {
    var range: RangeSession

    var nextDeadline: Timestamp? { range.nextDeadline }
    var evictedBeacons: Int { 0 }
    var lastTick: Timestamp? { range.lastTick }
    func isFinished(at now: Timestamp) -> Bool { range.isFinished(at: now) }

    mutating func packet(_ packet: HCIPacketView, direction: PacketDirection, at rawTime: Timestamp,
                         emit: (MonitorOutput) -> Void, heard: (Sighting) -> Bool) {
        do {
            try range.packet(packet, direction: direction, at: rawTime, emit: emit, heard: heard)
        } catch {
            // Counted by the session and reported at the end.
        }
    }

    mutating func advance(to now: Timestamp, emit: (MonitorOutput) -> Void) { range.advance(to: now, emit: emit) }
    mutating func finish(at now: Timestamp, emit: (MonitorOutput) -> Void) { range.finish(at: now, emit: emit) }
}
