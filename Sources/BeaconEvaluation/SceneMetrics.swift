import BeaconCore
import BeaconSimulation

/// The scene metrics beyond distance and proximity accuracy, each defined on the ground truth's ticks.
public enum SceneMetrics {
    /// The truth's changes of one region: arrivals (the first tick inside after being outside, or the
    /// first tick of the scene) and departures (the first tick outside after being inside).
    public struct RegionChanges: Hashable, Sendable {
        public var arrivals: [Timestamp] = []
        public var departures: [Timestamp] = []
    }

    public static func changes(_ recording: SceneRecording, region r: Int) -> RegionChanges {
        var changes = RegionChanges()
        for k in recording.truth.indices {
            let inside = recording.isInside(region: r, tick: k)
            let before = k > 0 && recording.isInside(region: r, tick: k - 1)
            if inside && !before { changes.arrivals.append(recording.time(ofTick: k)) }
            if !inside && before { changes.departures.append(recording.time(ofTick: k)) }
        }
        return changes
    }

    /// Enter latency (s) of each arrival: from the arrival to the enter line that began the monitor's stay
    /// inside in progress at the arrival (negative: a packet carried the beacon in before its mean power
    /// did), or else to the first enter line after the arrival; infinity when none comes before the next
    /// departure (or the end). A stay that a spurious packet began and an exit ended before the arrival
    /// does not count.
    public static func enterLatencies(_ run: SceneRun, _ recording: SceneRecording) -> [Double] {
        recording.scene.regions.indices.flatMap { r in
            let changes = changes(recording, region: r)
            return changes.arrivals.map { arrival -> Double in
                let enter: Timestamp?
                if let before = run.enters[r].last(where: { $0 <= arrival }),
                   !run.exits[r].contains(where: { $0 > before && $0 <= arrival }) {
                    enter = before
                } else {
                    let until = changes.departures.first { $0 > arrival } ?? recording.end
                    enter = run.enters[r].first { $0 > arrival && $0 < until }
                }
                return enter.map { ($0 - arrival).seconds } ?? .infinity
            }
        }
    }

    /// Exit latency (s) of each departure: from the departure to the exit line that ended the monitor's
    /// stay inside begun by the last enter line before the departure (negative: the monitor let the
    /// region go before the truth did); infinity when that stay lasts until the next arrival, and left
    /// out when the scene ends less than two `exitAfter` after the departure (the exit may not be due yet).
    public static func exitLatencies(_ run: SceneRun, _ recording: SceneRecording) -> [Double] {
        recording.scene.regions.indices.flatMap { r in
            let changes = changes(recording, region: r)
            return changes.departures.compactMap { departure -> Double? in
                guard let entered = run.enters[r].last(where: { $0 <= departure }) else { return nil }
                let nextArrival = changes.arrivals.first { $0 > departure }
                if let exit = run.exits[r].first(where: { $0 > entered }), exit < (nextArrival ?? recording.end) {
                    return (exit - departure).seconds
                }
                let due = nextArrival != nil || (recording.end - departure).value >= 2 * run.exitAfter.value
                return due ? .infinity : nil
            }
        }
    }

    /// Exit lines at a time the truth has the region inside (at the tick the exit falls in).
    public static func falseExits(_ run: SceneRun, _ recording: SceneRecording) -> Int {
        recording.scene.regions.indices.reduce(0) { count, r in
            count + run.exits[r].filter { recording.isInside(region: r, tick: recording.tickIndex(at: $0)) }.count
        }
    }

    /// Proximity changes of each beacon from one heard tick to the next (unknown never counts), summed.
    public static func flips(_ run: SceneRun, beacons: Int) -> Int {
        var last = [Proximity?](repeating: nil, count: beacons)
        var count = 0
        for tick in run.ticks where tick.tick.proximity != .unknown {
            if let previous = last[tick.beacon], previous != tick.tick.proximity { count += 1 }
            last[tick.beacon] = tick.tick.proximity
        }
        return count
    }

    /// A step: a beacon coming to rest after moving. `time` is the first tick at rest; the beacon then keeps
    /// its distance, audible, until `restEnd` (at least `minimumRest`).
    public struct Step: Hashable, Sendable {
        public var beacon: Int
        public var time: Timestamp
        public var restEnd: Timestamp
    }

    /// How long a beacon must rest after a walk for the walk's end to count as a step.
    public static let minimumRest = Micros.seconds(20)
    /// How far from the truth the estimate may be once it has followed the walk (m).
    public static let followedWithin = 1.0
    /// How long it must stay that close to count as having followed.
    public static let followedFor = Micros.seconds(5)

    /// Every step of the scene: a tick whose true distance differs from the previous tick's and stays the
    /// same, with the beacon audible, for at least `minimumRest`.
    public static func steps(_ recording: SceneRecording) -> [Step] {
        var steps: [Step] = []
        for b in recording.scene.beacons.indices {
            var k = 1
            while k < recording.truth.count {
                let row = recording.truth[k][b]
                guard row.distance != recording.truth[k - 1][b].distance else { k += 1; continue }
                var end = k + 1
                while end < recording.truth.count, recording.truth[end][b].distance == row.distance { end += 1 }
                // The rest counts while the beacon can be heard.
                let audibleEnd = (k..<end).first { !recording.truth[$0][b].isAudible } ?? end
                let restEnd = recording.time(ofTick: audibleEnd)
                if restEnd - recording.time(ofTick: k) >= minimumRest {
                    steps.append(Step(beacon: b, time: recording.time(ofTick: k), restEnd: restEnd))
                }
                k = end
            }
        }
        return steps
    }

    /// The lag (s) after each step: from the step to the first heard tick from which every heard tick of
    /// the next `followedFor` is within `followedWithin` of the truth; infinity when that does not happen
    /// before the beacon moves again (or the scene ends).
    public static func lags(_ run: SceneRun, steps: [Step]) -> [Double] {
        steps.map { step in
            let heard = run.ticks.filter { $0.beacon == step.beacon && $0.tick.time >= step.time && $0.tick.time < step.restEnd }
            for (i, candidate) in heard.enumerated() where candidate.tick.time + followedFor <= step.restEnd {
                let window = heard[i...].prefix { $0.tick.time <= candidate.tick.time + followedFor }
                if window.allSatisfy({ $0.tick.absoluteError <= followedWithin }) {
                    return (candidate.tick.time - step.time).seconds
                }
            }
            return .infinity
        }
    }
}
