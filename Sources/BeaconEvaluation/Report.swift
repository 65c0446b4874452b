/// One model's scores on one dataset.
public struct ModelScores: Sendable {
    public var model: String
    public var scores: Scores
}

/// One dataset's table: a research file or a shipped scene.
public struct DatasetResult: Sendable {
    public var name: String
    /// One line on what the dataset is and how it was scored.
    public var detail: String
    /// The columns that apply to it.
    public var metrics: [Metric]
    /// beacon's default first.
    public var rows: [ModelScores]

    /// `rows`: each model's name and scores, beacon's default first.
    public init(name: String, detail: String, metrics: [Metric], rows: [(String, Scores)]) {
        self.name = name
        self.detail = detail
        self.metrics = metrics
        self.rows = rows.map { ModelScores(model: $0.0, scores: $0.1) }
    }

    /// The row of `model`, if it was run.
    public func scores(of model: String) -> Scores? {
        rows.first { $0.model == model }?.scores
    }
}

/// A place where beacon's default does not win: another model scores better on a metric.
public struct Shortfall: Hashable, Sendable {
    public var dataset: String
    public var metric: Metric
    public var model: String
    public var value: Double
    public var defaultValue: Double
}

/// The printed tables.
public enum ReportTable {
    /// The marker a row gets when it beats beacon's default on some metric.
    public static let marker = "<< beats default on"

    /// Every metric on which a row beats the first (beacon's default), as printed.
    public static func shortfalls(_ dataset: DatasetResult) -> [Shortfall] {
        guard let first = dataset.rows.first else { return [] }
        let reference = first.scores
        var found: [Shortfall] = []
        for row in dataset.rows.dropFirst() {
            for metric in dataset.metrics where metric.isRanked {
                guard let value = row.scores[metric], let defaultValue = reference[metric],
                      metric.isBetter(value, than: defaultValue) else { continue }
                found.append(Shortfall(dataset: dataset.name, metric: metric, model: row.model, value: value,
                                       defaultValue: defaultValue))
            }
        }
        return found
    }

    /// The dataset's table: a heading, a header line, then a line per model; a model that beats beacon's
    /// default ends its line with the marker and the metrics.
    public static func render(_ dataset: DatasetResult) -> String {
        let nameWidth = max(5, dataset.rows.map(\.model.count).max() ?? 0)
        let widths = dataset.metrics.map { max($0.rawValue.count, 6) + 2 }
        func pad(_ s: String, _ width: Int, left: Bool) -> String {
            let fill = String(repeating: " ", count: max(0, width - s.count))
            return left ? s + fill : fill + s
        }
        var lines = ["== \(dataset.name): \(dataset.detail)"]
        lines.append(pad("model", nameWidth, left: true)
                     + zip(dataset.metrics, widths).map { pad($0.rawValue, $1, left: false) }.joined())
        let shortfalls = shortfalls(dataset)
        for row in dataset.rows {
            var line = pad(row.model, nameWidth, left: true)
            for (metric, width) in zip(dataset.metrics, widths) {
                line += pad(row.scores[metric].map(metric.format) ?? "-", width, left: false)
            }
            let beaten = shortfalls.filter { $0.model == row.model }.map(\.metric.rawValue)
            if !beaten.isEmpty { line += "  \(marker) " + beaten.joined(separator: ", ") }
            lines.append(line)
        }
        return lines.joined(separator: "\n")
    }
}
