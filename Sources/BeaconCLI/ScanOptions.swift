import BeaconCore

/// Everything `beacon scan` needs, validated.
struct ScanOptions {
    var common: CommonOptions
    var interval: Micros
    var each: Bool
    var filter: ScanFilter
    var scan: ScanParameters
    /// `--phy`: the PHYs to scan; nil scans every one the controller can.
    var phys: ScanningPHYs?
    /// The scan options given (`--active`, `--scan-interval`, `--scan-window`): they keep the raw channel.
    var scanOptionsGiven: [String] = []
    /// A broker the lines are also published to, one topic per device.
    var mqtt: MQTTOptions?

    /// `--format` values: each format's name, and `eddystone` for all of Eddystone's frames.
    static let formatWords = BeaconFormat.allCases.map(\.rawValue) + ["eddystone"]

    static let format = OptionSpec(
        "format", .repeatedValue(placeholder: "format"),
        "Only beacons of this format: \(formatWords.joined(separator: ", ")) (all Eddystone frames); repeat for several.", words: formatWords)
    static let minRSSI = OptionSpec("min-rssi", .value(placeholder: "dBm"), "Only readings at least this strong (for example -70).")
    static let uuid = OptionSpec("uuid", .repeatedValue(placeholder: "prefix"),
                                 "Only iBeacons and AltBeacons whose UUID (ID1) starts with these hex digits (hyphens ignored); repeatable.")
    static let namespace = OptionSpec("namespace", .repeatedValue(placeholder: "prefix"),
                                      "Only Eddystone-UID beacons whose namespace starts with these hex digits; repeatable.")
    static let interval = OptionSpec("interval", .value(placeholder: "duration"), "Time between the lines of a beacon.",
                                     default: RangeOptions.defaultInterval.description)
    static let each = OptionSpec("each", .flag, "One line per advertisement instead of one per beacon per --interval.")
    /// The controller's scanning, which range and calibrate share.
    static let active = OptionSpec("active", .flag, "Scan actively (send scan requests) instead of passively.")
    static let scanInterval = OptionSpec("scan-interval", .value(placeholder: "duration"), "Controller scan interval, 2.5ms...10.24s.",
                                         default: ScanParameters.defaultText)
    static let scanWindow = OptionSpec("scan-window", .value(placeholder: "duration"), "Controller scan window, at most the scan interval.",
                                       default: ScanParameters.defaultText)
    /// `--phy` of the commands that scan.
    static let phy = OptionSpec(
        "phy", .value(placeholder: "phys"),
        "PHYs to scan, a comma-separated list of 1m and coded (LE Coded: long range). A controller without extended "
            + "scanning or without the LE Coded PHY is refused coded (exit 69).",
        default: "every PHY the controller scans", words: ScanningPHYs.words + ["1m,coded"])

    static let help = CommandHelp(
        name: "scan",
        overview: "List every beacon heard, of every supported format, printing JSON lines.",
        usage: "beacon scan [--format <format> ...] [--min-rssi <dBm>] [--uuid <prefix> ...] [--namespace <prefix> ...] [--each] [<options>]",
        options: [format, minRSSI, uuid, namespace, interval, each, active, scanInterval, scanWindow, phy]
            + CommonOptions.options + [CommonOptions.speed] + MQTTOptions.scanOptions,
        discussion: """
        Every --interval, one "beacon" line per beacon heard in it: its format and identity (iBeacon uuid, \
        major, minor; AltBeacon id1, id2, id3; Eddystone-UID namespace and instance; Eddystone-URL url; \
        Eddystone-EID eid), measured power at 1 m (Eddystone: txPower at 0 m, and measuredPower 41 dB less), \
        the mean RSSI and the number of advertisements, address and address type, firstSeen and lastSeen.
        "phy": the PHY the (latest) advertisement arrived on, 1m or coded.
        An Eddystone-TLM's telemetry (battery mV, temperature °C, advertising count, uptime s) rides on the \
        Eddystone frames of its address, or is a line of its own. With --uuid or --namespace, only beacons \
        matching one of the prefixes are listed. Durations: plain seconds (3, 0.5) or with a unit (500ms, 10s, 2m).
        With --mqtt, each line also goes to PREFIX/devices/ID, ID being the beacon's mqtt_room id (iBeacon \
        uuid-major-minor, altbeacon-id1-id2-id3, eddystone-namespace-instance) or, for the Eddystone frames \
        without an identity, its address as 12 hex digits.
        Output: one JSON object per line with "event" beacon, or advertisement with --each (fields in beacon(1), OUTPUT).
        """,
        exitCodes: [.success, .usage, .dataError, .noInput, .unavailable, .software, .cantCreate, .ioError, .busy, .controllerError, .noPermission]
    )

    init(_ parsed: ParsedOptions, environment: [String: String]) throws(UsageError) {
        common = try CommonOptions(parsed, environment: environment)
        try common.readCaptureIndex(parsed)
        try common.readReplaySpeed(parsed)
        interval = try parsed.positiveDuration(Self.interval) ?? RangeOptions.defaultInterval
        if interval < Micros.milliseconds(10) { throw UsageError("'--interval' must be at least 10ms") }
        each = parsed.has(Self.each)
        if each, parsed[Self.interval] != nil { throw UsageError("'--each' prints every advertisement: it takes no '--interval'") }
        var formats: Set<BeaconFormat> = []
        for text in parsed.all(Self.format) {
            if text.lowercased() == "eddystone" {
                formats.formUnion([.eddystoneUID, .eddystoneURL, .eddystoneTLM, .eddystoneEID])
            } else if let format = BeaconFormat(rawValue: text.lowercased()) {
                formats.insert(format)
            } else {
                throw UsageError.invalidChoice(text, for: Self.format.synopsis, expected: "one of \(Self.formatWords.joined(separator: ", "))",
                                               words: Self.formatWords, typed: text.lowercased())
            }
        }
        var minimumRSSI: Int?
        if let text = parsed[Self.minRSSI] {
            guard let value = Int(text), (-127...20).contains(value) else {
                throw UsageError("Invalid value '\(text)' for '--min-rssi <dBm>': expected an integer in -127...20")
            }
            minimumRSSI = value
        }
        let uuids = try parsed.all(Self.uuid).map { text throws(UsageError) in
            guard let prefix = HexPrefix(text, limit: 32) else {
                throw UsageError("Invalid value '\(text)' for '--uuid <prefix>': expected 1 to 32 hex digits such as E2C56DB5")
            }
            return prefix
        }
        let namespaces = try parsed.all(Self.namespace).map { text throws(UsageError) in
            guard let prefix = HexPrefix(text, limit: 20) else {
                throw UsageError("Invalid value '\(text)' for '--namespace <prefix>': expected 1 to 20 hex digits")
            }
            return prefix
        }
        filter = ScanFilter(formats: formats, minimumRSSI: minimumRSSI, uuidPrefixes: uuids, namespacePrefixes: namespaces)
        scan = try ScanParameters(parsed)
        phys = try ScanningPHYs(parsed)
        scanOptionsGiven = ScanParameters.given(parsed)
        try common.requireListener("scan", phys: phys, scanOptions: scanOptionsGiven)
        mqtt = try MQTTOptions.parse(parsed, environment: environment, takesRoom: false)
    }
}
