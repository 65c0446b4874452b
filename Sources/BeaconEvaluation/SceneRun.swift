import BeaconCore
import BeaconSimulation

/// A ranging tick of a scene at which one beacon was heard, scored against its truth.
public struct SceneTick: Hashable, Sendable {
    /// Index into `Scene.beacons`.
    public var beacon: Int
    public var tick: ScoredTick
}

/// What one model printed for a scene recording, as the region monitor the tool ships printed it:
/// the recording's packets go through `RangeSession`, as `beacon range` reads a capture.
public struct SceneRun: Sendable {
    /// Every (tick, beacon) with accuracy ≥ 0, in time order; a beacon listed for several regions counts once.
    public var ticks: [SceneTick] = []
    /// Per region (scene order): the times of its enter and exit lines, and its state lines.
    public var enters: [[Timestamp]]
    public var exits: [[Timestamp]]
    public var states: [[(time: Timestamp, state: RegionState)]]
    /// The monitor's silence before an exit.
    public var exitAfter: Micros
    /// Packets the session could not decode (none are expected from the simulator).
    public var malformedPackets = 0

    /// Replays `recording` through a `RangeSession` whose monitor uses `estimator` and the tool's defaults.
    public init(_ recording: SceneRecording, estimator: RangingEstimator) {
        let regions = recording.monitorRegions
        let monitor = RegionMonitor(regions: regions, estimator: estimator, hashKey: MultilinearHash(seed: 0))
        var session = RangeSession(monitor: monitor, duration: recording.scene.duration)
        exitAfter = monitor.exitAfter
        enters = Array(repeating: [], count: regions.count)
        exits = enters
        states = Array(repeating: [], count: regions.count)
        let beaconIndex = Dictionary(recording.scene.beacons.enumerated().map { ($1.address, $0) }, uniquingKeysWith: { a, _ in a })
        var rangedAt: Timestamp?
        var ranged = Set<Int>()
        var run = self
        func emit(_ output: MonitorOutput) {
            // Only the lines scored are looked at (a replay's last partial interval is not one of them).
            if case .state(let region, let state, let time) = output, let r = regions.firstIndex(of: region) {
                run.states[r].append((time, state))
            } else if case .enter(let region, let time) = output, let r = regions.firstIndex(of: region) {
                run.enters[r].append(time)
            } else if case .exit(let region, let time) = output, let r = regions.firstIndex(of: region) {
                run.exits[r].append(time)
            } else if case .range(_, let time, let beacons) = output {
                // The truth ends with the scene; a tick at its very end has none.
                guard time < recording.end else { return }
                if rangedAt != time {
                    rangedAt = time
                    ranged.removeAll(keepingCapacity: true)
                }
                let rows = recording.truth[recording.tickIndex(at: time)]
                for beacon in beacons where beacon.accuracy >= 0 {
                    guard let i = beaconIndex[beacon.address], ranged.insert(i).inserted else { continue }
                    run.ticks.append(SceneTick(beacon: i, tick: ScoredTick(time: time, truth: rows[i].distance,
                                                                             estimate: beacon.accuracy, proximity: beacon.proximity)))
                }
            }
        }
        for packet in recording.packets {
            do {
                try session.packet(packet.packet, direction: packet.direction, at: packet.time, emit: emit)
            } catch {
                run.malformedPackets += 1
            }
        }
        session.advance(to: recording.end, emit: emit)
        self = run
    }
}
