import BeaconCore

/// The data files a fleet scene's plot is drawn from (tools/eval_plots.py): the site's floor plan and every
/// rule's track of each beacon beside the truth, for one run.
public enum FleetPlotData {
    /// `fleet-NAME-site.csv` (`kind,name,index,x,y`: each room's polygon, each wall's two ends, each
    /// gateway) and `fleet-NAME-track.csv` (`rule,beacon,elapsed_s,truth_x,truth_y,truth_room,x,y,room`, the
    /// estimate's position empty for a rule that places no beacon, its room empty for none).
    public static func files(name: String, site: Site, truth: [String: [TruthPoint]], estimates: FleetEvaluation.Estimates,
                             start: Timestamp) -> [(name: String, contents: String)] {
        var plan = CSVText(header: ["kind", "name", "index", "x", "y"])
        func coordinate(_ value: Double) -> String { Fixed.text(value, decimals: 3) }
        for room in site.rooms where room.floor == 0 {
            for (index, point) in room.polygon.enumerated() { plan.row(["room", room.name, String(index), coordinate(point.x), coordinate(point.y)]) }
        }
        for (number, wall) in site.walls.enumerated() where wall.floor == 0 {
            for (index, point) in [wall.from, wall.to].enumerated() {
                plan.row(["wall", "wall-\(number + 1)", String(index), coordinate(point.x), coordinate(point.y)])
            }
        }
        for gateway in site.gateways where gateway.floor == 0 {
            plan.row(["gateway", gateway.name, "0", coordinate(gateway.x), coordinate(gateway.y)])
        }
        var track = CSVText(header: ["rule", "beacon", "elapsed_s", "truth_x", "truth_y", "truth_room", "x", "y", "room"])
        for (r, rule) in estimates.rules.enumerated() {
            for (b, beacon) in estimates.beacons.enumerated() {
                for (point, estimate) in zip(truth[beacon] ?? [], estimates.estimates[r][b]) {
                    track.row([rule, beacon, Fixed.text((point.time - start).seconds, decimals: 1),
                               coordinate(point.x), coordinate(point.y), point.room ?? "",
                               estimate.x.map(coordinate) ?? "", estimate.y.map(coordinate) ?? "", estimate.room ?? ""])
                }
            }
        }
        return [("fleet-\(name)-site.csv", plan.text), ("fleet-\(name)-track.csv", track.text)]
    }
}
