import BeaconCore

/// The data files the real-data plot is drawn from (tools/eval_plots.py).
public enum ResearchPlotData {
    /// Readings per file in the scatter at most: every k-th reading, so a plot stays small.
    public static let scatterPoints = 1500

    /// `file,distance_m,rssi`: a deterministic subsample of each file's readings.
    public static func scatter(_ results: [ResearchEvaluation.FileResult]) -> String {
        var csv = CSVText(header: ["file", "distance_m", "rssi"])
        for result in results {
            let step = max(1, (result.readings.count + scatterPoints - 1) / scatterPoints)
            for reading in stride(from: 0, to: result.readings.count, by: step).map({ result.readings[$0] }) {
                csv.row([result.file, Fixed.text(reading.metres, decimals: 2), String(reading.rssi)])
            }
        }
        return csv.text
    }

    /// `file,measured_power,fitted_n,model,rssi,distance_m`: for each file, each distance model its rows
    /// use (named by the first row using it; `fitted_n` is the file's fitted exponent, empty without one), the distance as a function of RSSI at the file's calibration,
    /// from the core's own `PreparedDistanceModel`, every 0.5 dB over the file's RSSI range.
    public static func curves(_ results: [ResearchEvaluation.FileResult]) -> String {
        var csv = CSVText(header: ["file", "measured_power", "fitted_n", "model", "rssi", "distance_m"])
        for result in results {
            let rssis = result.readings.map { Int($0.rssi) }
            guard let low = rssis.min(), let high = rssis.max() else { continue }
            var seen: [DistanceModel] = []
            for model in result.models where !seen.contains(model.estimator.distance) {
                seen.append(model.estimator.distance)
                var prepared = PreparedDistanceModel(model.estimator.distance)
                let label = model.name == EvalModel.fittedLogDistanceName ? model.name : "\(model.name) (\(model.estimator.distance))"
                let fitted = result.fittedExponent.map { Fixed.text($0, decimals: 2) } ?? ""
                for step in 0...(2 * (high - low + 4)) {
                    let rssi = Double(low - 2) + Double(step) / 2
                    let d = prepared.distance(rssi: rssi, measuredPower: Double(result.measuredPower))
                    guard d >= 0 else { continue }
                    csv.row([result.file, String(result.measuredPower), fitted, label, Fixed.text(rssi, decimals: 1),
                             Fixed.text(d, decimals: 4)])
                }
            }
        }
        return csv.text
    }
}
