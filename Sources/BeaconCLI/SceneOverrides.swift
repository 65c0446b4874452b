import BeaconCore
import BeaconSimulation

/// Options that change any scene, a built-in or a file as well as one given by flags.
struct SceneOverrides: Equatable {
    var duration: Micros?
    var tick: Micros?
    var pathLossExponent: Double?
    var loss: Double?
    var sensitivity: Double?
    var reports: ReceiverModel.ReportFormat?

    init() {}

    init(_ parsed: ParsedOptions) throws(UsageError) {
        duration = try parsed.positiveDuration(SimulateOptions.duration)
        tick = try parsed.positiveDuration(SimulateOptions.tick)
        if let tick, tick < .milliseconds(10) { throw UsageError("'--tick' must be at least 10ms") }
        pathLossExponent = try SimulateOptions.number(parsed, SimulateOptions.exponent, in: 0.5...10)
        if let text = parsed[SimulateOptions.loss] {
            let fraction = text.hasSuffix("%") ? Double(text.dropLast()).map { $0 / 100 } : Double(text)
            guard let fraction, fraction >= 0, fraction <= 1 else {
                throw UsageError("Invalid value '\(text)' for '--loss <fraction>': expected 0...1 or a percentage such as 50%")
            }
            loss = fraction
        }
        sensitivity = try SimulateOptions.number(parsed, SimulateOptions.sensitivity, in: -127...20)
        if let text = parsed[SimulateOptions.reports] {
            guard let format = ReceiverModel.ReportFormat(rawValue: text) else {
                throw UsageError.invalidChoice(text, for: SimulateOptions.reports.synopsis, expected: "legacy, extended or mixed",
                                               words: ReceiverModel.ReportFormat.allCases.map(\.rawValue))
            }
            reports = format
        }
    }

    func apply(to scene: inout Scene) {
        if let duration { scene.duration = duration }
        if let tick { scene.tick = tick }
        if let pathLossExponent { scene.radio.pathLossExponent = pathLossExponent }
        if let loss { scene.radio.loss = loss }
        if let sensitivity { scene.receiver.sensitivity = sensitivity }
        if let reports { scene.receiver.reports = reports }
    }
}
