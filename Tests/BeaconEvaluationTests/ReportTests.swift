import BeaconCore
import BeaconEvaluation
import Testing

@Suite("Evaluation metrics and tables")
struct ReportTests {
    @Test func quantiles() {
        #expect(Statistics.median([3, 1, 2, 4]) == 2.5)
        #expect(abs((Statistics.quantile([3, 1, 2, 4], 0.9) ?? 0) - 3.7) < 1e-12)
        #expect(Statistics.median([]) == nil)
        #expect(Statistics.median([1, 2, .infinity]) == 2)
        #expect(Statistics.quantile([1, 2, .infinity], 0.9) == .infinity)
    }

    @Test func proximityAccuracyUsesTheTrueDistancesClass() {
        let t = Timestamp(microseconds: 0)
        let ticks = [
            ScoredTick(time: t, truth: 0.3, estimate: 0.4, proximity: .immediate),  // right
            ScoredTick(time: t, truth: 0.3, estimate: 0.6, proximity: .near),       // wrong
            ScoredTick(time: t, truth: 2.9, estimate: 3.3, proximity: .near),       // right (hysteresis kept it near)
            ScoredTick(time: t, truth: 3.0, estimate: 3.1, proximity: .far),        // right: 3 m is far
        ]
        let scores = TickScoring.scores(ticks)
        #expect(scores[.proximityAccuracy] == 75)
        // Errors 0.1, 0.3, 0.4, 0.1: the median is halfway between 0.1 and 0.3.
        #expect(abs((scores[.medianError] ?? 0) - 0.2) < 1e-12)
        #expect(TickScoring.scores([]).isEmpty)
    }

    static let table = DatasetResult(name: "room", detail: "test", metrics: [.medianError, .proximityAccuracy, .lag], rows: [
        (EvalModel.beaconDefaultName, [.medianError: 0.50, .proximityAccuracy: 80, .lag: .infinity]),
        ("tie", [.medianError: 0.504, .proximityAccuracy: 80.04, .lag: .infinity]),
        ("better error", [.medianError: 0.49, .proximityAccuracy: 70, .lag: 3]),
        ("better class", [.medianError: 0.60, .proximityAccuracy: 80.1]),
    ])

    /// A row beating beacon's default as printed gets the marker; a tie at the printed precision does not.
    @Test func marksRowsThatBeatTheDefault() {
        let shortfalls = ReportTable.shortfalls(Self.table)
        #expect(shortfalls.map(\.model) == ["better error", "better error", "better class"])
        #expect(shortfalls.map(\.metric) == [.medianError, .lag, .proximityAccuracy])
        let lines = ReportTable.render(Self.table).split(separator: "\n")
        #expect(lines.count == 6)
        #expect(lines[2].hasPrefix(EvalModel.beaconDefaultName) && lines[2].contains("never") && !lines[2].contains(ReportTable.marker))
        #expect(!lines[3].contains(ReportTable.marker))
        #expect(lines[4].hasSuffix("\(ReportTable.marker) med err m, lag s"))
        #expect(lines[5].hasSuffix("\(ReportTable.marker) prox ok %") && lines[5].contains(" - "))
    }

    /// RFC 4180: a field holding a comma or a quote is quoted, its quotes doubled.
    @Test func csvQuotesFieldsWithCommasAndQuotes() {
        var csv = CSVText(header: ["a", "b", "c"])
        csv.row(["trimmed:20s,0.1", "say \"hi\"", "plain"])
        #expect(csv.text == "a,b,c\n\"trimmed:20s,0.1\",\"say \"\"hi\"\"\",plain\n")
    }

    /// Every compared model is a configuration of the shipped estimator, beacon's default first.
    @Test func comparedModels() {
        let models = EvalModel.compared()
        #expect(models.first?.name == EvalModel.beaconDefaultName)
        #expect(models.first?.estimator == RangingEstimator())
        #expect(Set(models.map(\.name)).count == models.count)
        #expect(models.filter { $0.estimator.distance == RangingEstimator().distance }.count == 6)
        #expect(models.contains { $0.estimator.filter == .altBeaconAverage && $0.estimator.distance == .altBeacon })
        #expect(models.contains { $0.estimator.distance == .bleacon && $0.estimator.proximity.nearBelow == 4 })
    }
}
