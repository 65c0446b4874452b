import BeaconCore
import BeaconSimulation

/// What `make eval-fleet` checks of the runs it made through a real broker: that the gateways' readings
/// which crossed the broker and the lines `beacon locate` printed are exactly those the fleet evaluation
/// works out in process. Then the tables (`FleetEvaluation`) are the broker path's tables.
public enum FleetBrokerCheck {
    /// A run of the broker path: its directory's name (`SCENE-SEED`, `kolakowski-flat`, `danis-office-TRACK`).
    public struct Run: Sendable {
        public var name: String
        /// The scene and seed simulated, or the recorded drive replayed.
        public var source: Source
        /// Fused as `beacon locate --calibrate`.
        public var calibrate: Bool

        public enum Source: Sendable {
            case scene(Scene, seed: UInt64)
            case drive(RecordedDrive)
        }

        public init(name: String, source: Source, calibrate: Bool = false) {
            self.name = name
            self.source = source
            self.calibrate = calibrate
        }
    }

    /// The flat's drive's run.
    public static let flatRun = "kolakowski-flat"

    /// The run of the office's track `track`.
    public static func officeRun(_ track: String) -> String { "danis-office-" + track.split(separator: "_").joined(separator: "-") }

    /// Every run of the fleet scenes, one per scene and seed, and the self-calibration scene's first seed
    /// fused with `--calibrate`.
    public static var sceneRuns: [Run] {
        let calibration = SelfCalibrationEvaluation.scene
        return FleetScenes.all.flatMap { fleet in fleet.seeds.map { Run(name: "\(fleet.name)-\($0)", source: .scene(fleet.scene, seed: $0)) } }
            + calibration.seeds.prefix(1).map { Run(name: "\(calibration.name)-\($0)", source: .scene(calibration.scene, seed: $0), calibrate: true) }
    }

    /// The broker run's outputs against the process's: the first difference, or nil when they agree.
    /// `readings` are the messages a subscriber got, `topic payload` a line; `lines` what locate printed,
    /// `smoothedLines` what `beacon locate --smoothing` (`FleetEvaluation.smoothing`) printed.
    public static func difference(_ run: Run, readings: [String], lines: [String], smoothedLines: [String]) throws(SceneError) -> String? {
        let events: [FleetEvent], site: Site
        switch run.source {
        case .scene(let scene, let seed):
            let fleetRun = try FleetRun(scene, seed: seed)
            (events, site) = (fleetRun.events, fleetRun.site)
        case .drive(let drive):
            (events, site) = (drive.events, drive.site)
        }
        var expected: [String: [GatewayReadings]] = [:]
        for case .readings(let message) in events { expected[message.gateway, default: []].append(message) }
        var received: [String: [GatewayReadings]] = [:]
        for (number, line) in readings.enumerated() {
            guard let space = line.firstIndex(of: " ") else { return "readings line \(number + 1) is not 'topic payload'" }
            let gateway = line[..<space].split(separator: "/").dropLast().last.map(String.init) ?? ""
            do {
                received[gateway, default: []].append(try GatewayReadings.decode(Array(line[line.index(after: space)...].utf8), gateway: gateway))
            } catch {
                return "readings line \(number + 1): \(error)"
            }
        }
        for gateway in Set(expected.keys).union(received.keys).sorted() {
            let want = expected[gateway] ?? [], got = received[gateway] ?? []
            guard want.count == got.count else {
                return "\(gateway): \(got.count) readings messages crossed the broker, \(want.count) in process"
            }
            // The JSON as sent: what crossed the broker had its numbers rounded as the gateway wrote them.
            for (a, b) in zip(want, got) where a.json != b.json {
                return "\(gateway) at \(a.time): the broker carried \(b.json), in process \(a.json)"
            }
        }
        for (smoothing, printed) in [(Micros(0), lines), (FleetEvaluation.smoothing, smoothedLines)] {
            var rule = LocatorRule(site: site, smoothing: smoothing, calibrate: run.calibrate)
            for event in events { rule.add(event) }
            rule.finish()
            for (index, (a, b)) in zip(rule.lines, printed).enumerated() where a != b {
                return "\(rule.name), line \(index + 1): locate printed \(b), in process \(a)"
            }
            guard rule.lines.count == printed.count else {
                return "\(rule.name) printed \(printed.count.counted("line")), the fuser in process \(rule.lines.count)"
            }
        }
        return nil
    }
}
