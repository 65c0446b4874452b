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
        var run = Measurement(region: region, scan: scan, duration: common.duration ?? CalibrateOptions.defaultDuration)
        let code = ControllerConnection.run(&run, common, signals: signals, console: console)
        if run.malformedPackets > 0 { console.diagnose("Warning: skipped \(run.malformedPackets) malformed packets") }
        guard code == .success else { return code }
        let heard = run.readings.keys.sorted { ($0.identity, $0.address.value) < ($1.identity, $1.address.value) }
        guard let beacon = heard.first, let readings = run.readings[beacon] else {
            console.diagnose("Error: no beacon matching \(region) was heard; check the UUID with `beacon scan` or `btmon`, and that the beacon is on")
            return .dataError
        }
        guard heard.count == 1 else {
            let names = heard.prefix(5).map { "\($0.identity) at \($0.address)" }.joined(separator: ", ")
            console.diagnose("Error: \(heard.count) beacons match \(region) (\(names)); narrow it with --major and --minor, or switch the others off")
            return .dataError
        }
        switch CalibrationSample.measure(readings.rssi, at: distance) {
        case .success(let sample):
            let output = LineOutput(console: console)
            output.write(OutputLine.encode(.calibration(time: run.endTime, identity: beacon.identity, address: beacon.address,
                                                        advertisedPower: readings.advertisedPower, sample: sample)))
            return output.finish(.success)
        case .failure(let error):
            console.diagnose("Error: cannot calibrate \(beacon.identity): \(error)")
            return .dataError
        }
    }

    /// Listens for `duration` from the moment scanning is on and keeps every reading of the beacons
    /// matching `region`.
    struct Measurement: ControllerCommand {
        struct Beacon: Hashable {
            var identity: BeaconIdentity
            var address: DeviceAddress
        }
        struct Readings {
            var rssi: [Double] = []
            var advertisedPower: Int8 = 0
        }

        let region: BeaconRegion
        let scan: ScanParameters
        let duration: Micros
        private(set) var readings: [Beacon: Readings] = [:]
        /// Wall-clock time of the end of the measurement.
        private(set) var endTime = Timestamp(microseconds: 0)
        /// Packets that could not be decoded, skipped.
        private(set) var malformedPackets = 0
        private var scanning = Scanning()

        init(region: BeaconRegion, scan: ScanParameters, duration: Micros) {
            self.region = region
            self.scan = scan
            self.duration = duration
        }

        mutating func run(_ host: HCIHost) throws(HostError) -> ExitCode? {
            try scanning.start(host, scan)
            // The session finds when scanning started and when --duration ends; its lines are not printed.
            var session = RangeSession(monitor: RegionMonitor(regions: [region]), duration: duration)
            defer {
                endTime = host.wallTime(at: host.now())
                malformedPackets = session.malformedPackets
            }
            while true {
                switch try host.next(until: session.endTime) {
                case .packet(let packet, let direction, let time):
                    do {
                        try session.packet(packet, direction: direction, at: time, emit: { _ in }) { sighting in
                            // Calibration measures iBeacons: its region is one. It wants every reading.
                            guard case .iBeacon(let identity) = sighting.frame, region.matches(identity.identity),
                                  let rssi = sighting.rssi else { return true }
                            let beacon = Beacon(identity: identity.identity, address: sighting.address)
                            readings[beacon, default: Readings()].rssi.append(Double(rssi))
                            readings[beacon]?.advertisedPower = identity.measuredPower
                            return true
                        }
                    } catch {
                        // Counted by the session and reported at the end.
                    }
                    if session.isFinished(at: time) { return nil }
                case .deadline:
                    return nil
                case .end, .signal:
                    return nil
                }
            }
        }

        mutating func cleanUp(_ host: HCIHost, after failure: (any Error)?) throws(HostError) {
            try scanning.stop(host)
        }
    }
}
