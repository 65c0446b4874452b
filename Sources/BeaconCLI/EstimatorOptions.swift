import BeaconCore

/// The options that configure ranging's estimation: RSSI filter, distance model, calibration and
/// proximity hysteresis.
enum EstimatorOptions {
    static let rssiFilter = OptionSpec("rssi-filter", .value(placeholder: "filter"),
                                       "How readings are smoothed before a distance is estimated: \(RSSIFilterKind.forms).",
                                       default: RSSIFilterKind.standard.description)
    static let distanceModel = OptionSpec("distance-model", .value(placeholder: "model"),
                                          "How a filtered RSSI becomes metres: \(DistanceModel.forms).", default: "room")
    static let pathLossExponent = OptionSpec(
        "path-loss-exponent", .value(placeholder: "n"),
        "Use the log-distance model with this exponent (0.5...6), as `beacon calibrate` prints it for a site.")
    /// Read by `beacon range` (the file is read when the command starts).
    static let siteFit = OptionSpec(
        "site-fit", .value(placeholder: "file"),
        "Narrow the room model by a site's fit: the last \"fit\" line of `beacon calibrate --sample` in this file "
            + "(its exponent, uncertainty and prior weight; the measured power stays the beacon's or --measured-power).")
    static let rssiOffset = OptionSpec(
        "rssi-offset", .value(placeholder: "dB"),
        "Added to every reading before estimating distance, for a receiver that reads high or low (-30...30).", default: "0")
    static let measuredPower = OptionSpec(
        "measured-power", .value(placeholder: "dBm"),
        "Calibrated RSSI at 1 m to use instead of the one beacons advertise "
            + "(\(RangingEstimator.plausibleMeasuredPower.lowerBound)...\(RangingEstimator.plausibleMeasuredPower.upperBound)).")
    static let trackingAge = OptionSpec("tracking-age", .value(placeholder: "duration"),
                                        "How long a beacon not heard stays listed, with unknown proximity.",
                                        default: RangingEstimator.defaultTrackingAge.description)
    static let hysteresis = OptionSpec(
        "hysteresis", .value(placeholder: "fraction"),
        "How far past a proximity boundary (as a fraction of it) a beacon must be to change class (0...1).",
        default: "\(ProximityClassifier().margin)")
    static let ignoreAddress = OptionSpec(
        "ignore-address", .flag,
        "List an identity heard at several addresses (a rotating random address) as one beacon, under the address heard last.")
    static let proximityTicks = OptionSpec(
        "proximity-ticks", .value(placeholder: "n"),
        "Ranging reports in a row a new proximity class must hold before it is reported (1...60; 1 reports it at once).",
        default: "\(ProximityClassifier().confirmations)")

    static let options = [rssiFilter, distanceModel, pathLossExponent, siteFit, rssiOffset, measuredPower, trackingAge, hysteresis,
                          ignoreAddress, proximityTicks]

}

extension RangingEstimator {
    init(_ parsed: ParsedOptions) throws(UsageError) {
        self.init()
        if let text = parsed[EstimatorOptions.rssiFilter] {
            guard let kind = RSSIFilterKind.parse(text) else {
                throw UsageError.invalidChoice(text, for: EstimatorOptions.rssiFilter.synopsis, expected: "one of \(RSSIFilterKind.forms)",
                                               words: RSSIFilterKind.names, typed: UsageError.choiceName(text))
            }
            filter = kind
        }
        if let text = parsed[EstimatorOptions.distanceModel] {
            guard let model = DistanceModel.parse(text) else {
                throw UsageError.invalidChoice(text, for: EstimatorOptions.distanceModel.synopsis, expected: "one of \(DistanceModel.forms)",
                                               words: DistanceModel.names, typed: UsageError.choiceName(text))
            }
            distance = model
        }
        if let text = parsed[EstimatorOptions.pathLossExponent] {
            if parsed[EstimatorOptions.distanceModel] != nil {
                throw UsageError("'--path-loss-exponent' and '--distance-model' cannot be combined (use --distance-model log:N)")
            }
            guard let model = DistanceModel.parse("log:\(text)") else {
                throw UsageError("Invalid value '\(text)' for '--path-loss-exponent <n>': expected a number in 0.5...6")
            }
            distance = model
        }
        if parsed[EstimatorOptions.siteFit] != nil {
            for other in [EstimatorOptions.distanceModel, EstimatorOptions.pathLossExponent] where parsed[other] != nil {
                throw UsageError("'--site-fit' narrows the room model; it cannot be combined with '--\(other.name)'")
            }
        }
        rssiOffset = try Self.number(parsed, EstimatorOptions.rssiOffset, in: -30...30) ?? 0
        if let power = try Self.number(parsed, EstimatorOptions.measuredPower,
                                       in: Double(Self.plausibleMeasuredPower.lowerBound)...Double(Self.plausibleMeasuredPower.upperBound)) {
            guard power == power.rounded() else {
                throw UsageError("Invalid value '\(power)' for '--measured-power <dBm>': expected a whole number of dBm")
            }
            measuredPowerOverride = Int8(power)
        }
        if let text = parsed[EstimatorOptions.trackingAge] {
            guard let age = DurationText.parse(text) else {
                throw UsageError("Invalid value '\(text)' for '--tracking-age <duration>': expected a duration such as 0, 5s or 1m")
            }
            trackingAge = age
        }
        ignoresAddress = parsed.has(EstimatorOptions.ignoreAddress)
        proximity.margin = try Self.number(parsed, EstimatorOptions.hysteresis, in: 0...1) ?? proximity.margin
        if let ticks = try Self.number(parsed, EstimatorOptions.proximityTicks, in: 1...60) {
            guard ticks == ticks.rounded() else {
                throw UsageError("Invalid value '\(ticks)' for '--proximity-ticks <n>': expected a whole number")
            }
            proximity.confirmations = Int(ticks)
        }
    }

    private static func number(_ parsed: ParsedOptions, _ option: OptionSpec, in range: ClosedRange<Double>) throws(UsageError) -> Double? {
        guard let text = parsed[option] else { return nil }
        guard let value = Double(text), range.contains(value) else {
            throw UsageError("Invalid value '\(text)' for '\(option.synopsis)': expected a number in \(range.lowerBound)...\(range.upperBound)")
        }
        return value
    }
}
