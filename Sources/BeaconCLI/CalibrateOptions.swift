import BeaconCore

/// Everything `beacon calibrate` needs, validated: either a beacon to measure at a known distance,
/// or samples at several distances to fit.
enum CalibrateOptions {
    /// Measure one beacon, matching `region`, held at `distance` metres.
    case measure(common: CommonOptions, region: BeaconRegion, distance: Double, scan: ScanParameters)
    /// Fit the log-distance model to `samples` (distance, median RSSI).
    case fit([CalibrationSample])

    /// How long a measurement listens unless --duration says otherwise.
    static let defaultDuration = Micros.seconds(30)

    static let uuid = OptionSpec("uuid", .value(placeholder: "uuid"), "Proximity UUID of the beacon to measure.")
    static let major = OptionSpec("major", .value(placeholder: "major"),
                                  "Its major (0...65535, decimal or 0x hex), when several beacons share the UUID.")
    static let minor = OptionSpec("minor", .value(placeholder: "minor"), "Its minor (0...65535, decimal or 0x hex; needs --major).")
    static let distance = OptionSpec("distance", .value(placeholder: "metres"), "How far the beacon is from the receiver (0.1...100).",
                                     default: "\(defaultDistance)")
    static let sample = OptionSpec(
        "sample", .repeatedValue(placeholder: "metres=rssi"),
        "Fit instead of measuring: a distance and the median RSSI measured there (the \"distance\" and \"rssi\" of a calibration line); two or more.")
    static let defaultDistance = 1

    static let help = CommandHelp(
        name: "calibrate",
        overview: "Measure a beacon at a known distance, or fit a site's path-loss exponent, printing the flags to use.",
        usage: "beacon calibrate --uuid <uuid> [--major <major> [--minor <minor>]] [--distance <metres>] [<options>] | beacon calibrate --sample <metres>=<rssi> ...",
        options: [uuid, major, minor, distance, sample, ScanOptions.active, CommonOptions.hci,
                  CommonOptions.duration.withHelp("How long to listen.", default: defaultDuration.description),
                  CommonOptions.record, CommonOptions.index],
        discussion: """
        Measuring: hold the beacon still at --distance from the receiver, with nobody in between, and keep it \
        there for --duration. The result is a "calibration" line with the median RSSI and its spread (the \
        interquartile range); at 1 m it also gives the --measured-power to pass to beacon range. A reading is \
        one advertising event (a scan response is not a second one); a beacon whose random address changes \
        is one beacon. It refuses fewer than \(CalibrationSample.minimumCount) readings, readings spread wider than \(Int(CalibrationSample.maximumSpread)) dB, more than \
        one matching beacon, and one identity heard from two addresses in turn (two transmitters).
        Measured or fitted, an RSSI at 1 m whose --measured-power beacon range refuses (outside \(RangingEstimator.plausibleMeasuredPower.lowerBound)...\(RangingEstimator.plausibleMeasuredPower.upperBound)) is refused.
        Fitting: measure at two or more distances (for example 1, 2 and 4 m), then pass each line's distance and \
        rssi as --sample; the "fit" line gives the --path-loss-exponent and --measured-power for beacon range:
          beacon calibrate --uuid U --distance 1 >> site.jsonl   (and 2, 4 ...)
          beacon calibrate $(jq -r '"--sample \\(.distance)=\\(.rssi)"' site.jsonl) >> site.jsonl
        The fit's exponentDeviation and measuredPowerDeviation are its standard errors; its priorWeight (0...1) \
        is how well the fit predicted each sample left out against the room model. beacon range --site-fit \
        site.jsonl narrows its room model by the fit, by that uncertainty and weight, instead of replacing it \
        with the line: a fit of weight 0 leaves the room model as it is.
        """,
        exitCodes: [.success, .usage, .dataError, .noInput, .unavailable, .software, .cantCreate, .ioError, .busy, .controllerError, .noPermission]
    )

    init(_ parsed: ParsedOptions, environment: [String: String]) throws(UsageError) {
        let samples = parsed.all(Self.sample)
        if !samples.isEmpty {
            for option in Self.help.options where option.name != Self.sample.name && parsed.given(option) {
                throw UsageError("'--sample' fits given measurements; it cannot be combined with '--\(option.name)'")
            }
            self = .fit(try samples.map { text throws(UsageError) in try Self.sample(text) })
            return
        }
        var common = try CommonOptions(parsed, environment: environment)
        try common.readCaptureIndex(parsed)
        try common.requireListener("calibrate")
        common.duration = common.duration ?? Self.defaultDuration
        guard let uuidText = parsed[Self.uuid] else {
            throw UsageError("Missing expected argument '--uuid <uuid>' (or '--sample' to fit)")
        }
        guard let uuid = BeaconUUID(uuidText) else {
            throw UsageError("Invalid value '\(uuidText)' for '--uuid <uuid>': expected 8-4-4-4-12 hex digits such as E2C56DB5-DFFB-48D2-B060-D0F5A71096E0")
        }
        let major = try parsed[Self.major].map { text throws(UsageError) in try RangeOptions.uint16(text, option: Self.major) }
        let minor = try parsed[Self.minor].map { text throws(UsageError) in try RangeOptions.uint16(text, option: Self.minor) }
        if minor != nil, major == nil { throw UsageError("'--minor' needs '--major'") }
        var distance = Double(Self.defaultDistance)
        if let text = parsed[Self.distance] {
            guard let value = Double(text), (0.1...100).contains(value) else {
                throw UsageError("Invalid value '\(text)' for '--distance <metres>': expected a number in 0.1...100")
            }
            distance = value
        }
        self = .measure(common: common, region: BeaconRegion(uuid: uuid, major: major, minor: minor), distance: distance,
                        scan: ScanParameters(active: parsed.has(ScanOptions.active)))
    }

    /// `METRES=RSSI`, as `2=-65.5`.
    static func sample(_ text: String) throws(UsageError) -> CalibrationSample {
        let parts = text.split(separator: "=", omittingEmptySubsequences: false)
        guard parts.count == 2, let distance = Double(parts[0]), (0.1...100).contains(distance),
              let rssi = Double(parts[1]), (-127...20).contains(rssi) else {
            throw UsageError("Invalid value '\(text)' for '--sample <metres=rssi>': expected a distance in 0.1...100 m, '=', and an RSSI in -127...20 dBm, such as 2=-65.5")
        }
        return CalibrationSample(distance: distance, count: 1, median: rssi, spread: 0)
    }
}
