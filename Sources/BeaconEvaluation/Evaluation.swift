import BeaconSimulation

/// What one part of the evaluation (the real data, the scenes) produced.
public struct EvaluationSection: Sendable {
    public var title: String
    public var datasets: [DatasetResult]
    /// Lines printed after the part's tables: its summary figures and targets.
    public var summary: [String]
    /// Lines printed before them: what was left out and why.
    public var notes: [String]
    /// Data files for the plots: name in the output directory → contents.
    public var files: [(name: String, contents: String)]

    public init(title: String, datasets: [DatasetResult] = [], summary: [String] = [], notes: [String] = [],
                files: [(name: String, contents: String)] = []) {
        self.title = title
        self.datasets = datasets
        self.summary = summary
        self.notes = notes
        self.files = files
    }
}

/// `make eval`: every model on the real measurements and on every shipped scene.
public enum Evaluation {
    /// The real measurements through every model (`ResearchEvaluation`), and the summary figure.
    public static func research(_ files: [ResearchFile]) -> EvaluationSection {
        var notes: [String] = []
        let results = ResearchEvaluation.evaluate(files, models: EvalModel.compared(), notes: &notes)
        var section = EvaluationSection(title: "Real data: Herald \"Edison\" phone-to-phone RSSI at known distances "
                                            + "(herald-analysis, Copyright 2020-2021 Herald Project Contributors, Apache-2.0)",
                                        datasets: results.map(\.dataset), notes: notes)
        if let mean = meanTable(section.datasets, name: "real data, mean of the \(results.count) files") {
            section.datasets.append(mean)
        }
        section.summary.append(RealDataSummary(results)?.text ?? "Summary, real data: no file had ticks for both beacon default and AltBeacon default")
        section.files = [("research-scatter.csv", ResearchPlotData.scatter(results)),
                         ("research-curves.csv", ResearchPlotData.curves(results))]
        return section
    }

    /// A site's calibration, leave one distance out, on every real RSSI-versus-distance set: the Herald
    /// files and each anchor of the Kolakowski flat's survey (`SiteFitEvaluation`); and every model on the
    /// flat's anchors, which nothing was fitted to.
    public static func siteFit(_ files: [ResearchFile], flatSurvey: RecordedDrive?) -> EvaluationSection {
        var notes: [String] = []
        var datasets: [SiteFitEvaluation.Dataset] = []
        for file in files {
            guard let dataset = SiteFitEvaluation.dataset(file) else {
                notes.append("\(file.name): no plausible median RSSI at 1 m; left out of the site fit")
                continue
            }
            datasets.append(dataset)
        }
        var section = EvaluationSection(title: "Real data by distance: a site's fit judged on the distances it left out; every model on the "
                                            + "Kolakowski flat's survey (M. Kolakowski, Sensors 21, 6270 (2021), CC BY 4.0)")
        if let flatSurvey {
            for anchor in 0..<FlatDrive.anchorCount {
                guard let dataset = SiteFitEvaluation.dataset(flatSurvey, anchor: anchor) else {
                    notes.append("flat \(FlatDrive.site.gateways[anchor].name): no readings near 1 m to calibrate from; left out")
                    continue
                }
                datasets.append(dataset)
                section.datasets.append(SiteFitEvaluation.models(dataset, EvalModel.compared()))
            }
            if let mean = meanTable(section.datasets, name: "flat survey, mean of the \(section.datasets.count) anchors") {
                section.datasets.append(mean)
            }
        } else {
            notes.append("the flat's survey is absent: only the Herald files are fitted")
        }
        section.notes = notes
        section.summary = SiteFitEvaluation.report(datasets.map(SiteFitEvaluation.evaluate))
        return section
    }

    /// Every shipped scene of one receiver (`Scene.allNamed` but the site scenes) through every model
    /// (`SceneEvaluation`), and the flips and false-exit targets.
    public static func scenes(_ scenes: [Scene] = Scene.allNamed.filter { $0.site == nil }) throws(SceneError) -> EvaluationSection {
        var section = EvaluationSection(title: "Simulated scenes (beacon simulate)")
        var malformed = 0
        for scene in scenes {
            let result = try SceneEvaluation.evaluate(scene, models: EvalModel.compared())
            section.datasets.append(result.dataset)
            section.files += result.plotFiles
            malformed += result.malformedPackets
        }
        if malformed > 0 { section.notes.append("\(malformed) simulated packets could not be decoded") }
        section.files.append(("scenes.csv", ScenePlotData.index(scenes)))
        section.summary += [SceneEvaluation.flipsTarget(section.datasets) ?? "Flips target: no scene of beacons standing still",
                            SceneEvaluation.falseExitTarget(section.datasets) ?? "False-exit target: no scene that is never left"]
        return section
    }

    /// beacon locate and the peers' room rules on the fleet scenes (`FleetEvaluation`).
    public static func fleet() throws(SceneError) -> EvaluationSection {
        EvaluationSection(title: FleetEvaluation.title, datasets: try FleetEvaluation.tables(), files: try FleetEvaluation.plotFiles())
    }

    /// Each model's mean, over `datasets`, of each metric: models and metrics in the first table's order,
    /// those every table has. Nil for fewer than two tables.
    static func meanTable(_ datasets: [DatasetResult], name: String) -> DatasetResult? {
        guard datasets.count > 1, let first = datasets.first else { return nil }
        let rows = first.rows.compactMap { row -> (String, Scores)? in
            let all = datasets.compactMap { $0.scores(of: row.model) }
            guard all.count == datasets.count else { return nil }
            var scores: Scores = [:]
            for metric in first.metrics { scores[metric] = Statistics.mean(all.compactMap { $0[metric] }) }
            return (row.model, scores)
        }
        return DatasetResult(name: name, detail: "each model's per-file figures averaged, every file weighing the same",
                             metrics: first.metrics, rows: rows)
    }

    /// The printed report: each section's notes, tables and summary, then every place where beacon's
    /// default does not win.
    public static func report(_ sections: [EvaluationSection]) -> String {
        var blocks: [String] = []
        var shortfalls: [Shortfall] = []
        for section in sections {
            blocks.append("#### \(section.title)")
            if !section.notes.isEmpty { blocks.append(section.notes.map { "note: \($0)" }.joined(separator: "\n")) }
            for dataset in section.datasets {
                blocks.append(ReportTable.render(dataset))
                shortfalls += ReportTable.shortfalls(dataset)
            }
            blocks += section.summary
        }
        if shortfalls.isEmpty {
            blocks.append("beacon default wins every row (ties count as wins).")
        } else {
            blocks.append("beacon default does NOT win everywhere: \(shortfalls.count) (row, metric) pairs beat it (ties count as wins);"
                          + " per dataset, the best on each metric where it is beaten:\n" + bestShortfalls(shortfalls))
        }
        return blocks.joined(separator: "\n\n")
    }

    /// One line per dataset: for each metric on which beacon's default is beaten, the best value and its model.
    static func bestShortfalls(_ shortfalls: [Shortfall]) -> String {
        var datasets: [String] = []
        for shortfall in shortfalls where !datasets.contains(shortfall.dataset) { datasets.append(shortfall.dataset) }
        return datasets.map { dataset in
            let here = shortfalls.filter { $0.dataset == dataset }
            let parts = Metric.allCases.filter { metric in here.contains { $0.metric == metric } }.compactMap { metric -> String? in
                let beaten = here.filter { $0.metric == metric }
                guard let best = beaten.dropFirst().reduce(beaten.first, { best, next in
                    best.map { metric.isBetter(next.value, than: $0.value) ? next : $0 }
                }) else { return nil }
                return "\(metric.rawValue) \(metric.format(best.value)) by \(best.model) (default \(metric.format(best.defaultValue)))"
            }
            return "  \(dataset): " + parts.joined(separator: "; ")
        }.joined(separator: "\n")
    }

    /// A table of every dataset, model and metric, for other tools: `dataset,model,metric,value`.
    public static func resultsCSV(_ sections: [EvaluationSection]) -> String {
        var csv = CSVText(header: ["dataset", "model", "metric", "value"])
        for dataset in sections.flatMap(\.datasets) {
            for row in dataset.rows {
                for metric in dataset.metrics {
                    guard let value = row.scores[metric] else { continue }
                    csv.row([dataset.name, row.model, metric.rawValue, value.isFinite ? Fixed.text(value, decimals: 4) : "inf"])
                }
            }
        }
        return csv.text
    }
}
