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

    /// The smoothing of beacon locate's second row: a few seconds, about the time a walker takes across
    /// the boundary zone where the readings of two rooms' gateways are alike.
    public static let smoothing = Micros.seconds(3)

    /// Fresh rules, in the table's order: beacon's first (as it runs by default, then with `smoothing`),
    /// then the peers'.
    public static func peerRules(_ site: Site) -> [any RoomRule] {
        [LocatorRule(site: site), LocatorRule(site: site, smoothing: smoothing), MQTTRoomRule(site: site), BermudaRule(site: site), GatewayPlacementRule.centroid(site: site),
         GatewayPlacementRule.nearestGateway(site: site)]
    }

    /// Every rule's estimate of each beacon at each tick of the truth, after the events up to it.
    public struct Estimates {
        public var rules: [String]
        public var beacons: [String]
        /// Per rule, per beacon (in `beacons`' order), one per truth point.
        public var estimates: [[[RoomEstimate]]]
        /// Per rule, how late its answer for a time is out (`RoomRule.delay`).
        public var delays: [Micros]
        /// Per rule, beacon locate's away lines; nil for a rule that has none.
        public var aways: [[(beacon: String, time: Timestamp)]?]
        /// Per rule of `beacon locate --survey`, the gateways it warned no longer fit the survey.
        public var misfits: [(rule: String, gateways: [String])] = []
    }

    /// `rules` default to `peerRules(site)`.
    public static func estimates(events: [FleetEvent], truth: [String: [TruthPoint]], site: Site,
                                 rules: [any RoomRule]? = nil) -> Estimates {
        var rules = rules ?? peerRules(site)
        let beacons = truth.keys.sorted()
        var estimates = rules.map { _ in beacons.map { _ in [RoomEstimate]() } }
        let times = Set(truth.values.flatMap { $0.map(\.time) }).sorted()
        for index in rules.indices {
            var next = 0
            var finished = false
            for time in times {
                // A rule with a delay answers for a time once it has had the readings up to that much later.
                let horizon = time + rules[index].delay
                while next < events.count && events[next].time <= horizon {
                    rules[index].add(events[next])
                    next += 1
                }
                // Every reading fed: the run ends, and a delayed rule's held-back lines come out.
                if next == events.count, !finished {
                    rules[index].finish()
                    finished = true
                }
                for (b, beacon) in beacons.enumerated() { estimates[index][b].append(rules[index].estimate(of: beacon, at: time)) }
            }
        }
        let aways = rules.map { ($0 as? LocatorRule)?.aways }
        let surveyed = rules.compactMap { $0 as? LocatorRule }.filter(\.isSurveyed)
        return Estimates(rules: rules.map(\.name), beacons: beacons, estimates: estimates, delays: rules.map(\.delay), aways: aways,
                         misfits: surveyed.map { ($0.name, $0.misfits) })
    }

    /// Each rule's tally over `events`, scored against `truth` (per beacon id), with `inaudible` the ticks
    /// at which an away is right.
    public static func tallies(events: [FleetEvent], truth: [String: [TruthPoint]], inaudible: [String: Set<Timestamp>] = [:],
                               site: Site, rules: [any RoomRule]? = nil) -> [RoomTally] {
        tallies(estimates(events: events, truth: truth, site: site, rules: rules), truth: truth, inaudible: inaudible)
    }

    /// Each rule's tally of `found`.
    static func tallies(_ found: Estimates, truth: [String: [TruthPoint]], inaudible: [String: Set<Timestamp>] = [:]) -> [RoomTally] {
        found.rules.indices.map { index in
            var tally = RoomTally()
            for (b, beacon) in found.beacons.enumerated() {
                tally.add(RoomTally(estimates: found.estimates[index][b], truth: truth[beacon] ?? []))
            }
            // A room is known only once its line is out: the delay counts in the time to it.
            tally.arrivals = tally.arrivals.map { $0 + found.delays[index].seconds }
            if let aways = found.aways[index] {
                tally.falseAways = aways.count { !(inaudible[$0.beacon]?.contains($0.time) ?? false) }
            }
            return tally
        }
    }

    /// beacon locate's rows add up this many runs of each, its filters drawing with `filterSeed` 0 (as
    /// `beacon locate` runs), 1, 2, …: one draw's own chance moves a row by as much as the differences
    /// the tables are read for.
    public static let filterSeeds: UInt64 = 3

    /// `tallies` (of `rules` over `events`) with each beacon locate row's other draws added, run in parallel.
    static func pooled(_ tallies: [RoomTally], rules: [any RoomRule], events: [FleetEvent], truth: [String: [TruthPoint]],
                       inaudible: [String: Set<Timestamp>] = [:], site: Site) -> [RoomTally] {
        let locators = rules.indices.compactMap { index in (rules[index] as? LocatorRule).map { (index, $0) } }
        let draws = Parallel.map(Array(1..<filterSeeds)) { seed in
            Self.tallies(events: events, truth: truth, inaudible: inaudible, site: site,
                         rules: locators.map { $0.1.reseeded(seed) })
        }
        var pooled = tallies
        for draw in draws {
            for (k, locator) in locators.enumerated() { pooled[locator.0].add(draw[k]) }
        }
        return pooled
    }

    /// Added to a run's seed for its site's survey.
    static let surveySeed: UInt64 = 1_000_003
    /// Added to the first run's seed for the survey's moved-beacon check.
    static let movementSeed: UInt64 = 2_000_003

    /// One row per rule on `fleet`, its seeds' runs added up (and on a site with walls, beacon locate with
    /// a survey of it); the companion scenes get a row of the figures
    /// ESPresense-companion publishes for them.
    public static func evaluate(_ fleet: FleetScene) throws(SceneError) -> DatasetResult {
        var tallies: [RoomTally] = []
        var names: [String] = []
        var surveyPlaces = 0
        var entries = 0
        var standing = 0.0
        var movement: SimulatedSurvey.MovementCheck?
        for seed in fleet.seeds {
            let run = try FleetRun(fleet.scene, seed: seed)
            var rules = peerRules(run.site)
            if fleet.straightWalk {
                let radio = fleet.scene.radio
                let scatter = (radio.fastFading * radio.fastFading + radio.shadowing.sigma * radio.shadowing.sigma).squareRoot()
                rules += StraightWalkReference.Motion.allCases.map {
                    StraightWalkReference(site: run.site, exponent: radio.pathLossExponent, scatter: scatter, motion: $0)
                }
            }
            // A site with walls is also surveyed (`SimulatedSurvey`), in a run of its own.
            if !run.site.walls.isEmpty {
                let survey = try SimulatedSurvey.points(fleet.scene, seed: seed &+ surveySeed)
                surveyPlaces = survey.count / max(1, run.site.gateways.count)
                rules.append(LocatorRule(site: run.site, survey: survey, name: "beacon locate --survey"))
                if movement == nil { movement = try SimulatedSurvey.movementCheck(fleet.scene, seed: seed &+ movementSeed) }
            }
            names = rules.map(\.name)
            let runTallies = self.tallies(events: run.events, truth: run.truth, inaudible: run.inaudible, site: run.site, rules: rules)
            if tallies.isEmpty { tallies = runTallies.map { _ in RoomTally() } }
            // The room entries and the time standing still, counted once (beacon locate's rows hold several draws).
            if let first = runTallies.last { entries += first.arrivals.count; standing += first.standingTime }
            for (index, tally) in self.pooled(runTallies, rules: rules, events: run.events, truth: run.truth,
                                              inaudible: run.inaudible, site: run.site).enumerated() {
                tallies[index].add(tally)
            }
        }
        var rows = zip(names, tallies).map { ($0, $1.scores) }
        if let published = FleetScenes.companionPublished[fleet.name] { rows.append((publishedRow, published)) }
        let detail = "\(fleet.purpose): \(fleet.scene.summary); seeds \(fleet.seeds.map(String.init).joined(separator: ","))"
            + "; \(entries) room entries, \(Int(standing.rounded())) s standing still"
            + "; beacon locate's rows: \(filterSeeds) draws of its filters"
            + (surveyPlaces > 0 ? "; --survey: \(surveyPlaces) points, the centre of each \(Int(SimulatedSurvey.spacing)) m square in a room, "
                + "a beacon held there \(SimulatedSurvey.hold) (a simulated run of its own)" : "")
            + (movement.map { "; " + $0.summary } ?? "")
        return DatasetResult(name: "fleet \(fleet.name)", detail: detail, metrics: metrics, rows: rows)
    }

    /// One row per rule on the Kolakowski flat's robot drive, each anchor's readings through its
    /// `beacon range --gateway`; with `survey` (the dataset's surveyed points, `FlatSurvey`), beacon
    /// locate again with a sparse survey and with the dense one.
    public static func evaluate(drive: RecordedDrive, survey: FlatSurvey? = nil) -> DatasetResult {
        let site = drive.site
        let truth = drive.truth()
        var rules = peerRules(site)
        if let survey {
            rules += [LocatorRule(site: site, survey: survey.sparse, name: "beacon locate --survey sparse"),
                      LocatorRule(site: site, survey: survey.dense, name: "beacon locate --survey dense")]
        }
        let found = estimates(events: drive.events, truth: [RecordedDrive.tagID: truth], site: site, rules: rules)
        let single = tallies(found, truth: [RecordedDrive.tagID: truth])
        let tallies = pooled(single, rules: rules, events: drive.events, truth: [RecordedDrive.tagID: truth], site: site)
        var detail = "Kolakowski flat (CC BY 4.0): the robot's drive, \(truth.count) s, six anchors as gateways, "
            + "each anchor's readings as a capture through beacon range, measured power \(RecordedDrive.measuredPower) dBm (the default); "
            + "\(single.first?.arrivals.count ?? 0) room entries; beacon locate's rows: \(filterSeeds) draws of its filters"
        detail += "; the robot \(Fixed.text(drive.nearestGatewayDistance(truth: truth), decimals: 2)) m from its nearest anchor (median), "
            + "a point of the rooms \(Fixed.text(drive.roomsNearestGatewayDistance, decimals: 2)) m"
        if let survey {
            let warned = found.misfits.map { "\($0.rule): \($0.gateways.isEmpty ? "none" : $0.gateways.joined(separator: ", "))" }
            detail += "; " + survey.summary + "; gateways warned as no longer fitting the survey: " + warned.joined(separator: "; ")
        }
        return DatasetResult(name: "fleet kolakowski-flat", detail: detail, metrics: metrics,
                             rows: zip(rules.map(\.name), tallies).map { ($0, $1.scores) })
    }

    /// One row per rule on the Daniş office's tracks (`OfficeTracks`), each sensor's readings through its
    /// `beacon range --gateway`, each track a run of its own (the fusers start afresh), the tracks' tallies
    /// added up: positions only, the office being one room.
    /// `skipped`: the readings the files hold that no receiver reports (`OfficeTracks.parse`); each of
    /// `surveys` (the fingerprint sets, `OfficeTracks.surveys`) adds a row of beacon locate with it.
    public static func evaluate(tracks: [(name: String, drive: RecordedDrive)], skipped: Int,
                                surveys: [(name: String, points: [SurveyPoint])] = []) -> DatasetResult {
        let site = OfficeTracks.site
        // Fresh rules, copied for each track (the survey's radio maps are made once).
        let rules = peerRules(site) + surveys.map { LocatorRule(site: site, survey: $0.points, name: "beacon locate --survey \($0.name)") }
        var tallies = rules.map { _ in RoomTally() }
        var seconds = 0
        var nearest: [Double] = []
        for track in tracks {
            let truth = [RecordedDrive.tagID: track.drive.truth()]
            let events = track.drive.events
            let single = self.tallies(events: events, truth: truth, site: site, rules: rules)
            for (index, tally) in pooled(single, rules: rules, events: events, truth: truth, site: site).enumerated() { tallies[index].add(tally) }
            seconds += truth[RecordedDrive.tagID]?.count ?? 0
            nearest.append(track.drive.nearestGatewayDistance(truth: truth[RecordedDrive.tagID] ?? []))
        }
        let detail = "Daniş office (CC0): \(tracks.count) tracks of a carried beacon, \(seconds) s in all, twelve sensors as gateways, "
            + "each sensor's readings as a capture through beacon range, measured power \(RecordedDrive.measuredPower) dBm (the default); "
            + "one room, so positions only; beacon locate's rows: \(filterSeeds) draws of its filters; the beacon "
            + "\(Fixed.text(Statistics.median(nearest) ?? .nan, decimals: 2)) m from its nearest sensor (median of the tracks' medians); "
            + "\(skipped.counted("reading")) above +20 dBm left out"
            + (OfficeTracks.pathLoss(tracks.map(\.drive)).map { fit in
                "; the readings against the annotated distances: exponent \(Fixed.text(fit.exponent, decimals: 2)), the sensors' offsets "
                    + "\(Fixed.text(fit.offsets.min() ?? 0, decimals: 1)) to +\(Fixed.text(fit.offsets.max() ?? 0, decimals: 1)) dB (one line, an intercept per sensor)"
            } ?? "")
        return DatasetResult(name: "fleet danis-office", detail: detail, metrics: [.positionMedian, .positionP90, .positionP95],
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

    /// A recorded drive's plot data (`fleet-NAME-…`).
    public static func plotFiles(drive: RecordedDrive, name: String) -> [(name: String, contents: String)] {
        let site = drive.site
        let truth = [RecordedDrive.tagID: drive.truth()]
        return FleetPlotData.files(name: name, site: site, truth: truth,
                                   estimates: estimates(events: drive.events, truth: truth, site: site), start: drive.start)
    }

    /// The tables as `beacon-eval --fleet` prints them.
    public static func report() throws(SceneError) -> String {
        (["#### \(title)"] + (try tables()).map(ReportTable.render) + [try SelfCalibrationEvaluation.report()]).joined(separator: "\n\n")
    }
}
