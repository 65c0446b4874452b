import BeaconCore

/// Everything `beacon advertise` needs, validated.
struct AdvertiseOptions {
    var common: CommonOptions
    var plan: AdvertisingPlan
    /// Use the legacy advertising commands even when the controller has extended ones.
    var forceLegacy: Bool

    static let defaultMeasuredPower: Int8 = -59
    /// The PHYs `--phy` takes.
    static let advertisablePHYs: [PHY] = [.le1M, .leCoded]

    static let format = OptionSpec("format", .value(placeholder: "format"), "Beacon format: ibeacon, altbeacon, eddystone-uid or eddystone-url.",
                                   default: BeaconFormat.iBeacon.rawValue, words: BeaconFormat.advertisable.map(\.rawValue))
    static let uuid = OptionSpec("uuid", .value(placeholder: "uuid"), "ibeacon: proximity UUID to advertise (8-4-4-4-12 hex digits).")
    static let major = OptionSpec("major", .value(placeholder: "major"), "ibeacon: major value, 0...65535, decimal or 0x hex.")
    static let minor = OptionSpec("minor", .value(placeholder: "minor"), "ibeacon: minor value, 0...65535, decimal or 0x hex.")
    static let id1 = OptionSpec("id1", .value(placeholder: "uuid"),
                                "altbeacon: first 16 bytes of the beacon ID, in UUID form (8-4-4-4-12 hex digits).")
    static let id2 = OptionSpec("id2", .value(placeholder: "id2"), "altbeacon: next 2 bytes of the beacon ID, 0...65535, decimal or 0x hex.")
    static let id3 = OptionSpec("id3", .value(placeholder: "id3"), "altbeacon: last 2 bytes of the beacon ID, 0...65535, decimal or 0x hex.")
    static let companyID = OptionSpec(
        "company-id", .value(placeholder: "id"),
        "altbeacon: manufacturer's company identifier, 0...65535, decimal or 0x hex (0x0118: Radius Networks).", default: "0x0118")
    static let reserved = OptionSpec("reserved", .value(placeholder: "byte"),
                                     "altbeacon: the manufacturer's reserved byte, 0...255, decimal or 0x hex.", default: "0")
    static let namespace = OptionSpec("namespace", .value(placeholder: "hex"), "eddystone-uid: 10-byte namespace, 20 hex digits.")
    static let instance = OptionSpec("instance", .value(placeholder: "hex"), "eddystone-uid: 6-byte instance, 12 hex digits.")
    static let url = OptionSpec(
        "url", .value(placeholder: "url"),
        "eddystone-url: http:// or https:// URL of printable ASCII that encodes to at most 17 bytes after the scheme.")
    static let measuredPower = OptionSpec(
        "measured-power", .value(placeholder: "dBm"),
        "Calibrated RSSI at 1 m carried in the advertisement, -127...20 (eddystone: sent as the power at 0 m, this plus 41 dBm, so at most -21).",
        default: "\(defaultMeasuredPower)")
    static let txPowerAt0m = OptionSpec(
        "tx-power-at-0m", .value(placeholder: "dBm"),
        "eddystone-uid, eddystone-url: calibrated power at 0 m to carry instead of --measured-power + 41, -100...20.")
    static let interval = OptionSpec(
        "interval", .value(placeholder: "duration"),
        "Advertising interval, 20ms...10.24s (100ms is the iBeacon recommendation and the floor for non-connectable advertising on Bluetooth 4.x controllers).",
        default: "100ms")
    static let txPower = OptionSpec("tx-power", .value(placeholder: "dBm"),
                                    "Requested transmit power, -127...20 (extended advertising only; the controller may choose another).")
    static let connectable = OptionSpec("connectable", .flag, "Advertise connectable ADV_IND instead of non-connectable ADV_NONCONN_IND.")
    static let legacy = OptionSpec("legacy", .flag, "Use the legacy advertising commands even when the controller has extended ones.")
    static let phy = OptionSpec(
        "phy", .value(placeholder: "phy"),
        "Advertising PHY: 1m, or coded for long range (extended advertising PDUs on LE Coded, heard only by "
            + "scanners on LE Coded; a controller without extended advertising or the LE Coded PHY is refused, exit 69).",
        default: "1m", words: advertisablePHYs.map(\.name))

    static let help = CommandHelp(
        name: "advertise",
        overview: "Advertise as an iBeacon, AltBeacon or Eddystone beacon until stopped, then turn advertising off again.",
        usage: "beacon advertise --uuid <uuid> --major <major> --minor <minor> [<options>]"
            + " | beacon advertise --format altbeacon --id1 <uuid> --id2 <id2> --id3 <id3> [<options>]"
            + " | beacon advertise --format eddystone-uid --namespace <hex> --instance <hex> [<options>]"
            + " | beacon advertise --format eddystone-url --url <url> [<options>]",
        options: [format, uuid, major, minor, id1, id2, id3, companyID, reserved, namespace, instance, url, measuredPower, txPowerAt0m,
                  interval, txPower, connectable, legacy, phy,
                  // A capture cannot advertise: no btsnoop: form and no capture index here.
                  CommonOptions.hci.withHelp("Controller: hciN, hci-user:N, tcp:HOST:PORT, unix:PATH or serial:DEVICE[,BAUD][,rtscts].",
                                             default: CommonOptions.hci.defaultText),
                  CommonOptions.duration, CommonOptions.record],
        discussion: """
        The advertisement is the flags AD (LE General Discoverable, BR/EDR not supported) followed by:
          ibeacon        Apple's iBeacon manufacturer data: UUID, major and minor big-endian, then the measured power.
          altbeacon      AltBeacon manufacturer data: company identifier, beacon code BEAC, ID1, ID2 and ID3
                         big-endian, the reference RSSI (the measured power) and the reserved byte.
          eddystone-uid  the 16-bit service UUID list holding FEAA, then FEAA service data: frame 0x00, the power
                         at 0 m, namespace, instance and two reserved zero bytes.
          eddystone-url  the same UUID list, then FEAA service data: frame 0x10, the power at 0 m, the scheme
                         code and the URL, with .com/, .org and the other endings as one-byte codes.
        An option of another format is a usage error.
        With --phy coded it goes out in extended advertising PDUs on the LE Coded PHY \
        (primary and secondary), non-scannable: long range, heard by scanners on LE Coded.
        Output: an "advertising" line when advertising started and a "stopped" line when it was turned off.
        SIGINT, SIGTERM, SIGHUP, SIGQUIT (and SIGUSR1/2, SIGALRM, SIGVTALRM, SIGPROF) and --duration stop it.
        """,
        exitCodes: [.success, .usage, .unavailable, .software, .cantCreate, .ioError, .busy, .controllerError, .noPermission]
    )

    /// The options only some formats take; every option not listed here applies to all of them.
    static let formatOptions: [(format: BeaconFormat, options: [OptionSpec])] = [
        (.iBeacon, [uuid, major, minor, measuredPower]),
        (.altBeacon, [id1, id2, id3, companyID, reserved, measuredPower]),
        (.eddystoneUID, [namespace, instance, measuredPower, txPowerAt0m]),
        (.eddystoneURL, [url, measuredPower, txPowerAt0m]),
    ]

    init(_ parsed: ParsedOptions, environment: [String: String]) throws(UsageError) {
        common = try CommonOptions(parsed, environment: environment)
        if case .btsnoop = common.transport {
            throw UsageError("Cannot advertise on a btsnoop: capture; choose a controller with --hci")
        }
        try common.requireSender("beacon advertise")
        if case .kernelManagement(let index) = common.transport, common.recordPath != nil {
            throw UsageError("'--record' captures HCI packets, and mgmt:\(index) exchanges management commands; "
                + "record what the kernel sends with `btmon -i hci\(index) -w FILE`")
        }
        let format = try Self.format(parsed)
        let beacon: AdvertisedBeacon = switch format {
        case .iBeacon: .iBeacon(try Self.iBeacon(parsed))
        case .altBeacon: .altBeacon(try Self.altBeacon(parsed))
        case .eddystoneUID, .eddystoneURL: .eddystone(try Self.eddystone(parsed, format))
        case .eddystoneTLM, .eddystoneEID: throw UsageError("beacon advertise does not send \(format.rawValue) frames")
        }
        let txPower = try parsed[Self.txPower].map { text throws(UsageError) in try Self.dBm(text, option: Self.txPower) }
        var slots = AdvertisingPlan.recommendedIntervalSlots
        if let text = parsed[Self.interval] {
            let micros = try CommonOptions.positiveDuration(text, option: Self.interval)
            let exact = Double(micros.value) / 625
            guard exact.rounded() >= Double(AdvertisingPlan.intervalSlotRange.lowerBound),
                  exact.rounded() <= Double(AdvertisingPlan.intervalSlotRange.upperBound) else {
                throw UsageError("Invalid value '\(text)' for '--interval <duration>': expected 20ms...10.24s")
            }
            slots = UInt32(exact.rounded())
        }
        var phy = PHY.le1M
        if let text = parsed[Self.phy] {
            let words = Self.advertisablePHYs.map(\.name)
            guard let named = Self.advertisablePHYs.first(where: { $0.name == text.lowercased() }) else {
                throw UsageError.invalidChoice(text, for: Self.phy.synopsis, expected: "1m or coded", words: words, typed: text.lowercased())
            }
            phy = named
        }
        plan = AdvertisingPlan(beacon: beacon, intervalSlots: slots, connectable: parsed.has(Self.connectable), txPower: txPower, phy: phy)
        forceLegacy = parsed.has(Self.legacy)
        if forceLegacy, phy == .leCoded {
            throw UsageError("'--phy coded' needs extended advertising (legacy PDUs are LE 1M only); it cannot be combined with '--legacy'")
        }
        if phy == .leCoded, case .kernelManagement(let index) = common.transport {
            throw UsageError("'--phy coded' needs the raw channel (--hci hci\(index)): mgmt:\(index) advertises on LE 1M")
        }
        if forceLegacy, txPower != nil {
            throw UsageError("'--tx-power' needs extended advertising; it cannot be combined with '--legacy'")
        }
    }

    /// `--format`, after checking that no option of another format was given.
    private static func format(_ parsed: ParsedOptions) throws(UsageError) -> BeaconFormat {
        var format = BeaconFormat.iBeacon
        if let text = parsed[Self.format] {
            guard let named = BeaconFormat(rawValue: text), BeaconFormat.advertisable.contains(named) else {
                let words = BeaconFormat.advertisable.map(\.rawValue)
                throw UsageError.invalidChoice(text, for: Self.format.synopsis, expected: words.joined(separator: ", "), words: words)
            }
            format = named
        }
        let own = Set(formatOptions.first { $0.format == format }?.options.map(\.name) ?? [])
        let specific = Set(formatOptions.flatMap(\.options).map(\.name))
        // In table order, so the same arguments always name the same option.
        for spec in help.options where specific.contains(spec.name) && !own.contains(spec.name) {
            guard parsed[spec] != nil else { continue }
            throw UsageError("Option '--\(spec.name)' does not apply to --format \(format.rawValue), which takes "
                             + (formatOptions.first { $0.format == format }?.options ?? []).map { "--\($0.name)" }.joined(separator: ", "))
        }
        return format
    }

    private static func iBeacon(_ parsed: ParsedOptions) throws(UsageError) -> IBeacon {
        let uuid = try uuid(parsed, Self.uuid)
        let major = try RangeOptions.uint16(try required(parsed, Self.major), option: Self.major)
        let minor = try RangeOptions.uint16(try required(parsed, Self.minor), option: Self.minor)
        return IBeacon(identity: IBeaconID(uuid: uuid, major: major, minor: minor), measuredPower: try measuredPower(parsed))
    }

    private static func altBeacon(_ parsed: ParsedOptions) throws(UsageError) -> AltBeacon {
        let id1 = try uuid(parsed, Self.id1)
        let id2 = try RangeOptions.uint16(try required(parsed, Self.id2), option: Self.id2)
        let id3 = try RangeOptions.uint16(try required(parsed, Self.id3), option: Self.id3)
        var company = AltBeacon.radiusNetworksCompanyID
        if let text = parsed[Self.companyID] {
            guard let value = BeaconRegion.parseUInt16(text) else {
                throw UsageError("Invalid value '\(text)' for '--company-id <id>': expected an integer in 0...65535, decimal or 0x hex such as 0x0118")
            }
            company = value
        }
        var reserved: UInt8 = 0
        if let text = parsed[Self.reserved] {
            guard let value = BeaconRegion.parseUInt16(text), let byte = UInt8(exactly: value) else {
                throw UsageError("Invalid value '\(text)' for '--reserved <byte>': expected an integer in 0...255, decimal or 0x hex such as 0xFF")
            }
            reserved = byte
        }
        return AltBeacon(companyID: company, id1: id1, id2: id2, id3: id3,
                                referenceRSSI: try measuredPower(parsed), reserved: reserved)
    }

    private static func eddystone(_ parsed: ParsedOptions, _ format: BeaconFormat) throws(UsageError) -> EddystonePayload {
        let frame: EddystonePayload.Frame
        if format == .eddystoneUID {
            let namespace = try hex(parsed, Self.namespace, bytes: 10) { EddystoneNamespace($0) }
            let instance = try hex(parsed, Self.instance, bytes: 6) { EddystoneInstance($0) }
            frame = .uid(EddystoneUID(namespace: namespace, instance: instance))
        } else {
            frame = .url(try url(try required(parsed, Self.url)))
        }
        return EddystonePayload(frame: frame, txPowerAt0m: try txPowerAt0m(parsed))
    }

    /// `--tx-power-at-0m`, or `--measured-power` (default -59) plus the 41 dB the specification puts on the first metre.
    private static func txPowerAt0m(_ parsed: ParsedOptions) throws(UsageError) -> Int8 {
        if let text = parsed[Self.txPowerAt0m] {
            if parsed[Self.measuredPower] != nil {
                throw UsageError("'--measured-power' and '--tx-power-at-0m' both set the power an Eddystone frame carries; give one")
            }
            guard let value = Int(text), EddystonePayload.txPowerAt0mRange.contains(value) else {
                throw UsageError("Invalid value '\(text)' for '--tx-power-at-0m <dBm>': expected an integer in -100...20")
            }
            return Int8(value)
        }
        let measured = try measuredPower(parsed)
        guard let power = EddystonePayload.txPowerAt0m(measuredPower: measured) else {
            throw UsageError("Invalid value '\(measured)' for '--measured-power <dBm>': Eddystone carries the power at 0 m, "
                             + "\(Int(measured) + EddystoneFrame.zeroToOneMetreLoss) dBm here, which must be at most 20; expected -127...-21")
        }
        return power
    }

    private static func url(_ text: String) throws(UsageError) -> EddystoneURL {
        do {
            return try EddystoneURL(text)
        } catch {
            throw UsageError("Invalid value '\(text)' for '--url <url>': \(error)")
        }
    }

    /// `--measured-power`, else -59.
    private static func measuredPower(_ parsed: ParsedOptions) throws(UsageError) -> Int8 {
        try parsed[Self.measuredPower].map { text throws(UsageError) in try dBm(text, option: Self.measuredPower) } ?? defaultMeasuredPower
    }

    private static func required(_ parsed: ParsedOptions, _ option: OptionSpec) throws(UsageError) -> String {
        guard let text = parsed[option] else { throw UsageError("Missing expected argument '\(option.synopsis)'") }
        return text
    }

    private static func uuid(_ parsed: ParsedOptions, _ option: OptionSpec) throws(UsageError) -> BeaconUUID {
        let text = try required(parsed, option)
        guard let uuid = BeaconUUID(text) else {
            throw UsageError("Invalid value '\(text)' for '\(option.synopsis)': expected 8-4-4-4-12 hex digits such as E2C56DB5-DFFB-48D2-B060-D0F5A71096E0")
        }
        return uuid
    }

    /// A required value of `count` bytes in hex, read by `parse` (nil for anything else).
    private static func hex<Value>(_ parsed: ParsedOptions, _ option: OptionSpec, bytes count: Int,
                                   _ parse: (String) -> Value?) throws(UsageError) -> Value {
        let text = try required(parsed, option)
        guard let value = parse(text) else {
            throw UsageError("Invalid value '\(text)' for '\(option.synopsis)': expected \(2 * count) hex digits (\(count) bytes)")
        }
        return value
    }

    static func dBm(_ text: String, option: OptionSpec) throws(UsageError) -> Int8 {
        guard let value = Int(text), (-127...20).contains(value) else {
            throw UsageError("Invalid value '\(text)' for '\(option.synopsis)': expected an integer in -127...20")
        }
        return Int8(value)
    }
}
