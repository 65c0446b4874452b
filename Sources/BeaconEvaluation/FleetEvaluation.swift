import BeaconCore
import BeaconSimulation

/// beacon locate's fuser and the peers' room rules on the fleet scenes (`FleetScenes`): each scene run with
/// each of its seeds, every gateway's capture through `GatewayReplay` (its `beacon range --gateway`), every
/// rule fed the same readings messages and offline statuses in time order and asked for each beacon's room
/// at every tick of the truth (after the messages up to it); the runs' tallies added up per rule.
public enum FleetEvaluation {
    public static let metrics: [Metric] = [.roomAccuracy, .wrongRoom, .positionMedian, .positionP90, .positionP95,
                                           .roomFlaps, .roomArrival, .roomArrivalP90, .confidence, .falseAways]
    public static let title = "Fleet: beacon locate and the peers' room rules on site scenes"
    /// The row of the published figures beside the companion scenes.
    public static let publishedRow = "ESPresense-companion (published)"

    /// Fresh rules, in the table's order: beacon's first, then the peers'.
    public static func peerRules(_ site: Site) -> [any RoomRule] {
        [LocatorRule(site: site), MQTTRoomRule(site: site), BermudaRule(site: site), GatewayPlacementRule.centroid(site: site),
         GatewayPlacementRule.nearestGateway(site: site)]
    }

    /// Every rule's estimate of each beacon at each tick of the truth, after the events up to it.
    public struct Estimates {
        public var rules: [String]
        public var beacons: [String]
        /// Per rule, per beacon (in `beacons`' order), one per truth point.
        public var estimates: [[[RoomEstimate]]]
        /// beacon locate's away lines.
        public var aways: [(beacon: String, time: Timestamp)]
    }

    /// `rules` (default: `peerRules`) after `events`, at each point of `truth`.
    public static func estimates(events: [FleetEvent], truth: [String: [TruthPoint]], site: Site,
                                 rules: [any RoomRule]? = nil) -> Estimates {
        var rules = rules ?? peerRules(site)
        let beacons = truth.keys.sorted()
        var estimates = rules.map { _ in beacons.map { _ in [RoomEstimate]() } }
        let times = Set(truth.values.flatMap { $0.map(\.time) }).sorted()
        var next = 0
        for time in times {
            while next < events.count && events[next].time <= time {
                for index in rules.indices { rules[index].add(events[next]) }
                next += 1
            }
            for index in rules.indices {
                for (b, beacon) in beacons.enumerated() { estimates[index][b].append(rules[index].estimate(of: beacon, at: time)) }
            }
        }
        let aways = rules.compactMap { $0 as? LocatorRule }.first?.aways ?? []
        return Estimates(rules: rules.map(\.name), beacons: beacons, estimates: estimates, aways: aways)
    }

    /// Each rule's tally over `events`, scored against `truth` (per beacon id), with `inaudible` the ticks
    /// at which an away is right.
    public static func tallies(events: [FleetEvent], truth: [String: [TruthPoint]], inaudible: [String: Set<Timestamp>] = [:],
                               site: Site) -> [RoomTally] {
        let found = estimates(events: events, truth: truth, site: site)
        return found.rules.indices.map { index in
            var tally = RoomTally()
            for (b, beacon) in found.beacons.enumerated() {
                tally.add(RoomTally(estimates: found.estimates[index][b], truth: truth[beacon] ?? []))
            }
            // The first rule is beacon locate's, the one with away lines.
            if index == 0 {
                tally.falseAways = found.aways.count { !(inaudible[$0.beacon]?.contains($0.time) ?? false) }
            }
            return tally
        }
    }

    /// One row per rule on `fleet`, its seeds' runs added up; the companion scenes get a row of the figures
    /// ESPresense-companion publishes for them.
    public static func evaluate(_ fleet: FleetScene) throws(SceneError) -> DatasetResult {
        var tallies: [RoomTally] = []
        var names: [String] = []
        for seed in fleet.seeds {
            let run = try FleetRun(fleet.scene, seed: seed)
            names = peerRules(run.site).map(\.name)
            let runTallies = self.tallies(events: run.events, truth: run.truth, inaudible: run.inaudible, site: run.site)
            if tallies.isEmpty { tallies = runTallies.map { _ in RoomTally() } }
            for (index, tally) in runTallies.enumerated() { tallies[index].add(tally) }
        }
        var rows = zip(names, tallies).map { ($0, $1.scores) }
        if let published = FleetScenes.companionPublished[fleet.name] { rows.append((publishedRow, published)) }
        let detail = "\(fleet.purpose): \(fleet.scene.summary); seeds \(fleet.seeds.map(String.init).joined(separator: ","))"
            + "; \(tallies.first?.arrivals.count ?? 0) room entries, \(Int((tallies.first?.standingTime ?? 0).rounded())) s standing still"
        return DatasetResult(name: "fleet \(fleet.name)", detail: detail, metrics: metrics, rows: rows)
    }

    /// One row per rule on the Kolakowski flat's robot drive, each anchor's readings through its
    /// `beacon range --gateway`.
    public static func evaluate(drive: FlatDrive) -> DatasetResult {
        let site = FlatDrive.site
        let truth = drive.truth(site: site)
        let rules = peerRules(site)
        let tallies = tallies(events: drive.events, truth: [FlatDrive.tagID: truth], site: site)
        let detail = "Kolakowski flat (CC BY 4.0): the robot's drive, \(truth.count) s, six anchors as gateways, "
            + "each anchor's readings as a capture through beacon range, measured power \(FlatDrive.measuredPower) dBm (the default); "
            + "\(tallies.first?.arrivals.count ?? 0) room entries"
        return DatasetResult(name: "fleet kolakowski-flat", detail: detail, metrics: metrics,
                             rows: zip(rules.map(\.name), tallies).map { ($0, $1.scores) })
    }

    /// A table per fleet scene.
    public static func tables() throws(SceneError) -> [DatasetResult] {
        var tables: [DatasetResult] = []
        for fleet in FleetScenes.all { tables.append(try evaluate(fleet)) }
        return tables
    }

    /// Each fleet scene's plot data (`FleetPlotData`), from its first seed's run.
    public static func plotFiles() throws(SceneError) -> [(name: String, contents: String)] {
        var files: [(name: String, contents: String)] = []
        for fleet in FleetScenes.all {
            guard let seed = fleet.seeds.first else { continue }
            let run = try FleetRun(fleet.scene, seed: seed)
            files += FleetPlotData.files(name: fleet.name, site: run.site, truth: run.truth,
                                         estimates: estimates(events: run.events, truth: run.truth, site: run.site),
                                         start: SceneSimulator.defaultStart)
        }
        return files
    }

    /// The flat's drive's plot data.
    public static func plotFiles(drive: FlatDrive) -> [(name: String, contents: String)] {
        let site = FlatDrive.site
        let truth = [FlatDrive.tagID: drive.truth(site: site)]
        return FleetPlotData.files(name: FleetBrokerCheck.flatRun, site: site, truth: truth,
                                   estimates: estimates(events: drive.events, truth: truth, site: site), start: drive.start)
    }

    /// The tables as `beacon-eval --fleet` prints them.
    public static func report() throws(SceneError) -> String {
        (["#### \(title)"] + (try tables()).map(ReportTable.render) + [try SelfCalibrationEvaluation.report()]).joined(separator: "\n\n")
    }
}
