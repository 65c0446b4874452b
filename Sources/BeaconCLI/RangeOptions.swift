import BeaconCore

/// Everything `beacon range` needs, validated.
struct RangeOptions {
    var common: CommonOptions
    var regions: [BeaconRegion]
    var exitAfter: Micros
    var interval: Micros
    var estimator: RangingEstimator
    /// A file with a site's fit (`--site-fit`), read when the command starts.
    var siteFit: String?
    var scan: ScanParameters
    /// `--phy`: the PHYs to scan; nil scans every one the controller can.
    var phys: ScanningPHYs?
    /// The scan options given (`--active`, `--scan-interval`, `--scan-window`): they keep the raw channel.
    var scanOptionsGiven: [String] = []
    /// A broker the lines are also published to.
    var mqtt: MQTTOptions?
    /// `--advertise-self`: the gateway's own beacon, advertised while it scans.
    var selfBeacon: AdvertisingPlan?

    static let defaultExitAfter = Micros.seconds(10)
    static let defaultInterval = Micros.seconds(1)

    static let uuid = OptionSpec("uuid", .value(placeholder: "uuid"), "Proximity UUID of the region to monitor (8-4-4-4-12 hex digits).")
    static let major = OptionSpec("major", .value(placeholder: "major"),
                                  "Only beacons with this major (0...65535, decimal or 0x hex); absent means any.")
    static let minor = OptionSpec("minor", .value(placeholder: "minor"),
                                  "Only beacons with this minor (0...65535, decimal or 0x hex; needs --major); absent means any.")
    static let name = OptionSpec("name", .value(placeholder: "name"), "Name of the --uuid region, repeated in every line about it (needs --uuid).")
    static let region = OptionSpec(
        "region", .repeatedValue(placeholder: "region"),
        "Another region to monitor, optionally named: [name=]uuid[:major[:minor]] (iBeacon), [name=]altbeacon:id1[:id2[:id3]] "
            + "or [name=]eddystone:namespace[:instance] (20 and 12 hex digits); repeat for several.")
    static let exitAfter = OptionSpec("exit-after", .value(placeholder: "duration"), "A region is exited when none of its beacons was heard for this long.",
                                      default: defaultExitAfter.description)
    static let interval = OptionSpec("interval", .value(placeholder: "duration"), "Time between ranging reports.", default: defaultInterval.description)
    static let advertiseSelf = OptionSpec(
        "advertise-self", .flag,
        "With --gateway: advertise this gateway's own iBeacon on the same controller while it scans (the "
            + "--uuid region's UUID, major and minor from the gateway's name, said on stderr), so the other "
            + "gateways hear it for `beacon locate --calibrate`; off again at exit. A controller whose LE supported "
            + "states do not allow both at once is refused (exit 69): run `beacon advertise` on a second one beside it.")

    static let help = CommandHelp(
        name: "range",
        overview: "Monitor beacon regions and range the beacons inside them, printing JSON lines.",
        usage: "beacon range --uuid <uuid> [--major <major> [--minor <minor>]] [--name <name>] [--region <region> ...] [<options>]",
        options: [uuid, major, minor, name, region, exitAfter, interval, ScanOptions.active, ScanOptions.scanInterval,
                  ScanOptions.scanWindow, ScanOptions.phy, advertiseSelf]
            + EstimatorOptions.options + CommonOptions.options + [CommonOptions.speed] + MQTTOptions.options,
        discussion: """
        A region is a CoreLocation beacon identity constraint: the UUID is required, major and minor are \
        optional; an absent value matches any beacon and 0 is a real value. AltBeacon regions (ID1, optional \
        ID2 and ID3) and Eddystone-UID regions (namespace, optional instance) follow the same rules and match \
        only beacons of their format; an Eddystone beacon's latest TLM telemetry rides on its entry. Each region starts unknown; the \
        first matching advertisement enters it (state inside); silence for --exit-after exits it (state \
        outside), and a region not heard within --exit-after of the start becomes outside. While a region is \
        inside, a "range" line every --interval lists its beacons, nearest first: those heard in the interval, \
        and for --tracking-age those just lost (proximity unknown). "rssi" is the interval's mean reading; \
        "accuracy" (metres) comes from the filtered reading, "filteredRssi"; proximity classes have hysteresis.
        "phy": the PHY the beacon's latest advertisement arrived on, 1m or coded.
        Durations: plain seconds (3, 0.5) or with a unit (500ms, 10s, 2m).
        Output: one JSON object per line with "event" state, enter, exit or range (fields in beacon(1), OUTPUT).
        """,
        exitCodes: [.success, .usage, .dataError, .noInput, .unavailable, .software, .cantCreate, .ioError, .busy, .controllerError, .noPermission]
    )

    init(_ parsed: ParsedOptions, environment: [String: String]) throws(UsageError) {
        common = try CommonOptions(parsed, environment: environment)
        try common.readCaptureIndex(parsed)
        try common.readReplaySpeed(parsed)
        var regions: [BeaconRegion] = []
        if let uuidText = parsed[Self.uuid] {
            guard let uuid = BeaconUUID(uuidText) else {
                throw UsageError("Invalid value '\(uuidText)' for '--uuid <uuid>': expected 8-4-4-4-12 hex digits such as E2C56DB5-DFFB-48D2-B060-D0F5A71096E0")
            }
            let major = try parsed[Self.major].map { text throws(UsageError) in try Self.uint16(text, option: Self.major) }
            let minor = try parsed[Self.minor].map { text throws(UsageError) in try Self.uint16(text, option: Self.minor) }
            if minor != nil, major == nil { throw UsageError("'--minor' needs '--major' (a region constrains minor only within a major)") }
            let name = parsed[Self.name]
            if let name, !BeaconRegion.isValidName(name) {
                throw UsageError("Invalid value '\(name)' for '--name <name>': expected 1 to 64 characters without control characters, noncharacters, '=', '/', '+' or '#'")
            }
            regions.append(BeaconRegion(name: name, uuid: uuid, major: major, minor: minor))
        } else if parsed[Self.major] != nil || parsed[Self.minor] != nil || parsed[Self.name] != nil {
            throw UsageError("'--major', '--minor' and '--name' need '--uuid'")
        }
        for text in parsed.all(Self.region) {
            switch BeaconRegion.parse(text) {
            case .success(let region):
                if let name = region.name, regions.contains(where: { $0.name == name && $0 != region }) {
                    throw UsageError("Region name '\(name)' is given to two different regions")
                }
                if !regions.contains(region) { regions.append(region) }
            case .failure(let error):
                throw UsageError("Invalid value for '--region <region>': \(error)")
            }
        }
        guard !regions.isEmpty else { throw UsageError("Missing expected argument '--uuid <uuid>' (or '--region')") }
        self.regions = regions
        exitAfter = try parsed.positiveDuration(Self.exitAfter) ?? Self.defaultExitAfter
        interval = try parsed.positiveDuration(Self.interval) ?? Self.defaultInterval
        if interval < Micros.milliseconds(10) {
            throw UsageError("'--interval' must be at least 10ms")
        }
        estimator = try RangingEstimator(parsed)
        siteFit = parsed[EstimatorOptions.siteFit]
        scan = try ScanParameters(parsed)
        phys = try ScanningPHYs(parsed)
        mqtt = try MQTTOptions.parse(parsed, environment: environment)
        scanOptionsGiven = ScanParameters.given(parsed)
        try common.requireListener("range", phys: phys, scanOptions: scanOptionsGiven)
        if parsed.has(Self.advertiseSelf) {
            try common.requireSender("'--advertise-self'")
            if case .kernelManagement(let index) = common.transport {
                throw UsageError("'--advertise-self' needs the raw channel (--hci hci\(index)): mgmt:\(index) listens through "
                    + "the kernel's scans and sends nothing")
            }
            guard let gateway = mqtt?.gateway else { throw UsageError("'--advertise-self' needs '--gateway <name>' (and '--mqtt')") }
            guard let uuid = regions.first(where: { $0.format == .iBeacon })?.uuid else {
                throw UsageError("'--advertise-self' needs an iBeacon region ('--uuid'): the gateway's beacon advertises its UUID")
            }
            selfBeacon = .gatewayBeacon(uuid: uuid, gateway: gateway)
        }
    }

    /// A 16-bit value of an option such as `--major <major>`.
    static func uint16(_ text: String, option: OptionSpec) throws(UsageError) -> UInt16 {
        guard let value = BeaconRegion.parseUInt16(text) else {
            throw UsageError("Invalid value '\(text)' for '\(option.synopsis)': expected an integer in 0...65535, decimal or 0x hex such as 0x1F")
        }
        return value
    }
}

extension ScanningPHYs {
    /// `--phy`, nil when not given.
    init?(_ parsed: ParsedOptions) throws(UsageError) {
        guard let text = parsed[ScanOptions.phy] else { return nil }
        guard let phys = ScanningPHYs(names: text) else {
            throw UsageError.invalidChoice(text, for: ScanOptions.phy.synopsis, expected: "1m, coded or 1m,coded", words: Self.words + ["1m,coded"])
        }
        self = phys
    }
}

extension ScanParameters {
    init(_ parsed: ParsedOptions) throws(UsageError) {
        let interval = try Self.slots(parsed[ScanOptions.scanInterval], option: ScanOptions.scanInterval)
        let window = try Self.slots(parsed[ScanOptions.scanWindow], option: ScanOptions.scanWindow)
        if window > interval {
            throw UsageError("'--scan-window' (\(Double(window) * 0.625)ms) must not exceed '--scan-interval' (\(Double(interval) * 0.625)ms)")
        }
        self.init(active: parsed.has(ScanOptions.active), interval: interval, window: window)
    }

    /// The scan options given: only the raw channel sets them (through mgmt:N the kernel scans its own way).
    static func given(_ parsed: ParsedOptions) -> [String] {
        [ScanOptions.active, ScanOptions.scanInterval, ScanOptions.scanWindow].filter { parsed.given($0) }.map { "'--\($0.name)'" }
    }

    /// The default scan interval and window as help shows them.
    static var defaultText: String { Micros(Int64(defaultSlots) * 625).description }

    /// Converts a duration to 0.625 ms slots within 0x0004...0x4000 (Core Vol 4 Part E 7.8.10).
    static func slots(_ text: String?, option: OptionSpec) throws(UsageError) -> UInt16 {
        guard let text else { return defaultSlots }
        let micros = try CommonOptions.positiveDuration(text, option: option)
        let slots = (Double(micros.value) / 625).rounded()
        guard slots >= 4, slots <= 0x4000 else {
            throw UsageError("Invalid value '\(text)' for '\(option.synopsis)': expected 2.5ms...10.24s")
        }
        return UInt16(slots)
    }
}
