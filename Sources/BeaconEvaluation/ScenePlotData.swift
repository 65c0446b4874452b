import BeaconCore
import BeaconSimulation

/// The data files a scene's plot is drawn from (tools/eval_plots.py).
public enum ScenePlotData {
    /// `scene-NAME-distance.csv` (`model,beacon,elapsed_s,true_m,estimate_m`, the truth empty while the beacon
    /// does not advertise, the estimate at a tick it was not heard) and `scene-NAME-regions.csv` (`model,region,elapsed_s,truth_inside,state`,
    /// the monitor's state at each tick), for the plotted models.
    public static func files(_ recording: SceneRecording, runs: [(model: String, run: SceneRun)]) -> [(name: String, contents: String)] {
        var distance = CSVText(header: ["model", "beacon", "elapsed_s", "true_m", "estimate_m"])
        var regions = CSVText(header: ["model", "region", "elapsed_s", "truth_inside", "state"])
        let ticks = recording.truth.indices
        for (model, run) in runs {
            var estimates = [Int: Double]()
            for tick in run.ticks {
                estimates[recording.tickIndex(at: tick.tick.time) * recording.scene.beacons.count + tick.beacon] = tick.tick.estimate
            }
            for b in recording.scene.beacons.indices {
                for k in ticks {
                    let estimate = estimates[k * recording.scene.beacons.count + b].map { Fixed.text($0, decimals: 3) } ?? ""
                    let row = recording.truth[k][b]
                    let truth = row.isAdvertising ? Fixed.text(row.distance, decimals: 3) : ""
                    distance.row([model, String(b), elapsed(recording, k), truth, estimate])
                }
            }
            for (r, named) in recording.scene.regions.enumerated() {
                var changes = run.states[r][...]
                var state = RegionState.unknown
                for k in ticks {
                    while let next = changes.first, next.time <= recording.time(ofTick: k) {
                        state = next.state
                        changes = changes.dropFirst()
                    }
                    regions.row([model, named.name, elapsed(recording, k), recording.isInside(region: r, tick: k) ? "1" : "0",
                                 state.rawValue])
                }
            }
        }
        let name = recording.scene.name
        return [("scene-\(name)-distance.csv", distance.text), ("scene-\(name)-regions.csv", regions.text)]
    }

    static func elapsed(_ recording: SceneRecording, _ k: Int) -> String {
        Fixed.text((recording.time(ofTick: k) - recording.start).seconds, decimals: 1)
    }

    /// `scenes.csv`: `scene,duration_s,beacons,summary`, one line per scene evaluated, in order.
    public static func index(_ scenes: [Scene]) -> String {
        var csv = CSVText(header: ["scene", "duration_s", "beacons", "summary"])
        for scene in scenes {
            csv.row([scene.name, Fixed.text(scene.duration.seconds, decimals: 0), String(scene.beacons.count), scene.summary])
        }
        return csv.text
    }
}
