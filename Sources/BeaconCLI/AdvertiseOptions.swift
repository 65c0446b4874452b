import BeaconCore

/// Everything `beacon advertise` needs, validated.
struct AdvertiseOptions {
    var common: CommonOptions
    var plan: AdvertisingPlan
    /// Use the legacy advertising commands even when the controller has extended ones.
    var forceLegacy: Bool

    static let defaultMeasuredPower: Int8 = -59

    static let help = CommandHelp(
        name: "advertise",
        overview: "Advertise as an iBeacon until stopped, then turn advertising off again.",
        usage: "beacon advertise --uuid <uuid> --major <major> --minor <minor> [<options>]",
        options: [
            OptionSpec("uuid", .value(placeholder: "uuid"), "Proximity UUID to advertise (8-4-4-4-12 hex digits)."),
            OptionSpec("major", .value(placeholder: "major"), "Major value, 0...65535, decimal or 0x hex."),
            OptionSpec("minor", .value(placeholder: "minor"), "Minor value, 0...65535, decimal or 0x hex."),
            OptionSpec("measured-power", .value(placeholder: "dBm"), "Calibrated RSSI at 1 m carried in the advertisement, -127...20.", default: "-59"),
            OptionSpec("interval", .value(placeholder: "duration"), "Advertising interval, 20ms...10.24s (100ms is the iBeacon recommendation and the floor for non-connectable advertising on Bluetooth 4.x controllers).", default: "100ms"),
            OptionSpec("tx-power", .value(placeholder: "dBm"), "Requested transmit power, -127...20 (extended advertising only; the controller may choose another)."),
            OptionSpec("connectable", .flag, "Advertise connectable ADV_IND instead of non-connectable ADV_NONCONN_IND."),
            OptionSpec("legacy", .flag, "Use the legacy advertising commands even when the controller has extended ones."),
        ] + CommonOptions.specs.compactMap { spec in
            // A capture cannot advertise: no btsnoop: form and no capture index here.
            switch spec.name {
            case "index": nil
            case "hci": OptionSpec("hci", spec.kind, "Controller: hciN, hci-user:N, tcp:HOST:PORT, unix:PATH or serial:DEVICE[,BAUD][,rtscts].",
                                   default: spec.defaultText)
            default: spec
            }
        },
        discussion: """
        The advertisement is the flags AD (LE General Discoverable, BR/EDR not supported) followed by Apple's
        iBeacon manufacturer data: UUID, major and minor big-endian, then the measured power.
        Output: an "advertising" line when advertising started and a "stopped" line when it was turned off.
        SIGINT, SIGTERM, SIGHUP (and SIGUSR1/2, SIGALRM, SIGVTALRM, SIGPROF) and --duration stop it.
        """,
        exitCodes: [.success, .usage, .unavailable, .software, .cantCreate, .ioError, .busy, .controllerError, .noPermission]
    )

    init(_ parsed: ParsedOptions, environment: [String: String]) throws(UsageError) {
        common = try CommonOptions(parsed, environment: environment)
        if case .btsnoop = common.transport {
            throw UsageError("Cannot advertise on a btsnoop: capture; choose a controller with --hci")
        }
        guard let uuidText = parsed.value("uuid") else { throw UsageError("Missing expected argument '--uuid <uuid>'") }
        guard let uuid = BeaconUUID(uuidText) else {
            throw UsageError("Invalid value '\(uuidText)' for '--uuid <uuid>': expected 8-4-4-4-12 hex digits such as E2C56DB5-DFFB-48D2-B060-D0F5A71096E0")
        }
        guard let majorText = parsed.value("major") else { throw UsageError("Missing expected argument '--major <major>'") }
        guard let minorText = parsed.value("minor") else { throw UsageError("Missing expected argument '--minor <minor>'") }
        let major = try RangeOptions.uint16(majorText, option: "major")
        let minor = try RangeOptions.uint16(minorText, option: "minor")
        let power = try parsed.value("measured-power").map { text throws(UsageError) in
            try Self.dBm(text, option: "measured-power")
        } ?? Self.defaultMeasuredPower
        let txPower = try parsed.value("tx-power").map { text throws(UsageError) in try Self.dBm(text, option: "tx-power") }
        var slots = AdvertisingPlan.recommendedIntervalSlots
        if let text = parsed.value("interval") {
            let micros = try CommonOptions.positiveDuration(text, option: "interval")
            let exact = Double(micros.value) / 625
            guard exact.rounded() >= Double(AdvertisingPlan.intervalSlotRange.lowerBound),
                  exact.rounded() <= Double(AdvertisingPlan.intervalSlotRange.upperBound) else {
                throw UsageError("Invalid value '\(text)' for '--interval <duration>': expected 20ms...10.24s")
            }
            slots = UInt32(exact.rounded())
        }
        plan = AdvertisingPlan(beacon: IBeacon(identity: BeaconIdentity(uuid: uuid, major: major, minor: minor), measuredPower: power),
                               intervalSlots: slots, connectable: parsed.has("connectable"), txPower: txPower)
        forceLegacy = parsed.has("legacy")
        if forceLegacy, txPower != nil {
            throw UsageError("'--tx-power' needs extended advertising; it cannot be combined with '--legacy'")
        }
    }

    static func dBm(_ text: String, option: String) throws(UsageError) -> Int8 {
        guard let value = Int(text), (-127...20).contains(value) else {
            throw UsageError("Invalid value '\(text)' for '--\(option) <dBm>': expected an integer in -127...20")
        }
        return Int8(value)
    }
}
