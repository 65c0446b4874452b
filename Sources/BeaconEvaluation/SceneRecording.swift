import BeaconCore
import BeaconSimulation

/// A simulated scene, simulated once and then replayed through every model: the packets a scanning
/// controller would have exchanged with the host, and the ground truth at every tick.
public struct SceneRecording: Sendable {
    public var scene: Scene
    public var seed: UInt64
    public var start: Timestamp
    public var packets: [SimulatedPacket]
    /// The ground truth at `start + k × scene.tick`, one row per beacon in `scene.beacons` order.
    public var truth: [[GroundTruth]]

    /// Simulates `scene`, a scene of one receiver (a site scene is `beacon locate`'s to judge, not a ranger's).
    public init(_ scene: Scene, seed: UInt64) throws(SceneError) {
        guard scene.site == nil else { throw SceneError(field: "site", "a recording replays a scene of one receiver, not a site") }
        let simulator = try SceneSimulator(scene: scene, seed: seed)
        var packets: [SimulatedPacket] = []
        var truth: [[GroundTruth]] = []
        simulator.run(packet: { packets.append($0) }, truth: { row in
            guard case .receiver(let row) = row else { return }
            if row.beaconIndex == 0 { truth.append([]) }
            truth[truth.count - 1].append(row)
        })
        self.scene = scene
        self.seed = seed
        start = simulator.start
        self.packets = packets
        self.truth = truth
    }

    public var end: Timestamp { start + scene.duration }

    /// The tick a time falls in: the latest truth tick at or before it (clamped to the recording).
    public func tickIndex(at time: Timestamp) -> Int {
        let k = (time - start).value / scene.tick.value
        return Int(min(max(k, 0), Int64(max(truth.count - 1, 0))))
    }

    public func time(ofTick k: Int) -> Timestamp { start + Micros(Int64(k) * scene.tick.value) }

    /// Whether region `region` (index into `scene.regions`) is inside at tick `k`: some beacon is in it.
    public func isInside(region: Int, tick k: Int) -> Bool {
        truth[k].contains { $0.regionsInside[region] }
    }

    /// True when every beacon can be heard (advertising, its mean power above the receiver's sensitivity)
    /// at every tick: a scene no beacon leaves, where every exit line is a false one.
    public var beaconsNeverLeave: Bool {
        !truth.isEmpty && truth.allSatisfy { $0.allSatisfy(\.isAudible) }
    }

    /// True when every beacon stands still and advertises for the whole scene.
    public var allStandStill: Bool {
        !scene.beacons.isEmpty && scene.beacons.allSatisfy { beacon in
            if case .standing = beacon.path { return beacon.start.value == 0 && beacon.stop == nil }
            return false
        }
    }

    /// The regions as the monitor gets them: each carries its scene name, so two regions with the same
    /// constraint stay apart.
    public var monitorRegions: [BeaconRegion] {
        scene.regions.map { named in
            var region = named.region
            region.name = named.name
            return region
        }
    }
}
