import BeaconCore

/// beacon locate's fuser and the peers' room rules on the fleet scenario: every track of `FleetScenario` walked with each of `seeds`,
/// each rule fed the gateways' readings in time order and asked for the beacon's room at every second of
/// the truth (after the readings up to that second), the runs' tallies added up per rule.
public enum FleetEvaluation {
    /// The seeds each track is walked with: the scene evaluation's seed and the ones after it.
    public static let seeds: [UInt64] = (0..<5).map { SceneEvaluation.seed + $0 }
    public static let metrics: [Metric] = [.roomAccuracy, .wrongRoom, .positionMedian, .positionP90, .positionP95,
                                           .roomFlaps, .roomArrival, .roomArrivalP90]
    public static let title = "Fleet: beacon locate and the peers' room rules on two rooms and four gateways"

    /// Fresh rules, in the table's order: beacon's first, then the peers'.
    public static func peerRules(_ site: Site) -> [any RoomRule] {
        [LocatorRule(site: site), MQTTRoomRule(site: site), BermudaRule(site: site), GatewayPlacementRule.centroid(site: site), GatewayPlacementRule.nearestGateway(site: site)]
    }

    /// `rule`'s estimate at each of the scenario's truth times.
    public static func estimates(_ rule: any RoomRule, _ scenario: FleetScenario) -> [RoomEstimate] {
        estimates(rule, messages: scenario.messages, truth: scenario.truth, beacon: FleetScenario.beacon)
    }

    /// `rule`'s estimate of `beacon` at each truth time, after the messages up to that time.
    public static func estimates(_ rule: any RoomRule, messages: [GatewayReadings], truth: [TruthPoint],
                                 beacon: String) -> [RoomEstimate] {
        var rule = rule
        var estimates: [RoomEstimate] = []
        var next = 0
        for point in truth {
            while next < messages.count && messages[next].time <= point.time {
                rule.add(messages[next])
                next += 1
            }
            estimates.append(rule.estimate(of: beacon, at: point.time))
        }
        return estimates
    }

    /// One row per rule on the Kolakowski flat's robot drive, the six anchors as gateways.
    public static func evaluate(drive: FlatDrive) -> DatasetResult {
        let site = FlatDrive.site
        let truth = drive.truth.map { point in
            var point = point
            point.room = site.room(containing: Point2(x: point.x, y: point.y), floor: 0).map { site.rooms[$0].name }
            return point
        }
        let rules = peerRules(site)
        let tallies = rules.map { RoomTally(estimates: estimates($0, messages: drive.messages, truth: truth, beacon: FlatDrive.tagID), truth: truth) }
        let detail = "Kolakowski flat (CC BY 4.0): the robot's drive, \(truth.count) s, six anchors as gateways, "
            + "mean RSS per anchor per second, measured power \(FlatDrive.measuredPower) dBm (the default); "
            + "\(tallies.first?.arrivals.count ?? 0) room entries"
        return DatasetResult(name: "fleet kolakowski-flat", detail: detail, metrics: metrics,
                             rows: zip(rules.map(\.name), tallies).map { ($0, $1.scores) })
    }

    /// The table of every track together, then one per track.
    public static func tables() -> [DatasetResult] {
        [evaluate()] + FleetScenario.tracks.map { evaluate(tracks: [$0], name: "fleet \($0.name)") }
    }

    /// One row per rule.
    public static func evaluate(tracks: [FleetTrack] = FleetScenario.tracks, seeds: [UInt64] = seeds,
                                name: String = "fleet") -> DatasetResult {
        let scenarios = tracks.flatMap { track in seeds.map { FleetScenario(track, seed: $0) } }
        let names = peerRules(FleetScenario.site).map(\.name)
        var tallies = names.map { _ in RoomTally() }
        for scenario in scenarios {
            for (index, rule) in peerRules(FleetScenario.site).enumerated() {
                tallies[index].add(RoomTally(estimates: estimates(rule, scenario), truth: scenario.truth))
            }
        }
        let entries = tallies.first?.arrivals.count ?? 0
        let standing = Int((tallies.first?.standingTime ?? 0).rounded())
        let detail = "tracks \(tracks.map(\.name).joined(separator: ", ")) x seeds \(seeds.map(String.init).joined(separator: ","))"
            + "; 6 x 4 m, gateways in the corners, 1 reading per gateway per second, 0.5 m/s"
            + "; \(entries) room entries, \(standing) s standing still"
        return DatasetResult(name: name, detail: detail, metrics: metrics,
                             rows: zip(names, tallies).map { ($0, $1.scores) })
    }

    /// The tables as `beacon-eval --fleet` prints them.
    public static func report() -> String {
        (["#### \(title)"] + tables().map(ReportTable.render)).joined(separator: "\n\n")
    }
}
