import BeaconCore
import BeaconSimulation

/// Everything `beacon simulate` needs, validated (reading a scene file is left to the command).
struct SimulateOptions {
    enum Action: Equatable {
        /// `--list`: describe the built-in scenes.
        case list
        /// `--print-scene`: write the scene as a scene file to stdout.
        case printScene(SceneSource)
        /// Write the capture to `out`, and the ground truth to `truth` when given ("-" for stdout).
        case simulate(SceneSource, out: String, truth: String?)
    }

    /// Where the scene comes from.
    enum SceneSource: Equatable {
        case named(Scene)
        case file(path: String)
        case flags(Scene)
    }

    var action: Action
    var overrides: SceneOverrides
    /// `--site`: the site file that gives the scene its site.
    var sitePath: String?
    var seed: UInt64
    var start: Timestamp

    static let defaultSeed: UInt64 = 1
    /// The distance of a beacon given by flags, metres, when --distance does not say.
    static let defaultDistance = 1
    /// Length of a scene given by flags when --duration does not say.
    static let defaultFlagsDuration = Micros.seconds(60)

    /// The options of a beacon given by flags.
    static let beaconOptions = [uuid, major, minor, measuredPower, interval, distance, walkTo, speed]

    static let scene = OptionSpec("scene", .value(placeholder: "name|file"),
        "A built-in scene (see --list) or a scene file (JSON, as --print-scene writes it); ./NAME reads a file called NAME.")
    static let list = OptionSpec("list", .flag, "List the built-in scenes: what each is for, and the identities its beacons advertise (what to range for).")
    static let printScene = OptionSpec("print-scene", .flag, "Print the scene as a scene file instead of simulating it (a start for your own).")
    static let out = OptionSpec("out", .value(placeholder: "capture"), "Write the capture to this file (btsnoop, datalink 1002 H4; btmon -r reads it); "
        + "for a site scene, this directory (made when missing): one capture per gateway, NAME.btsnoop, and the site, site.json.")
    static let site = OptionSpec("site", .value(placeholder: "file"), "Give the scene this site (a site file, as beacon locate --site takes it), "
        + "in place of any it has: a site scene simulates every gateway of the site.")
    static let truth = OptionSpec("truth", .value(placeholder: "file"), "Also write the ground truth to this file, one JSON object per beacon and tick ('-' for stdout).")
    static let seed = OptionSpec("seed", .value(placeholder: "n"), "Seed of every random draw: the same arguments give the same bytes.", default: "\(defaultSeed)")
    static let start = OptionSpec("start", .value(placeholder: "time"), "Wall-clock time of the capture's start, ISO 8601.",
        default: SceneSimulator.defaultStart.iso8601)
    static let duration = OptionSpec("duration", .value(placeholder: "duration"), "How long the scene lasts.", default: "the scene's; 60s for a beacon given by flags")
    static let tick = OptionSpec("tick", .value(placeholder: "duration"), "Time between ground-truth rows.", default: "the scene's, 1s")
    static let uuid = OptionSpec("uuid", .value(placeholder: "uuid"), "Instead of --scene, one beacon with this proximity UUID (8-4-4-4-12 hex digits).")
    static let major = OptionSpec("major", .value(placeholder: "major"), "The beacon's major, 0...65535, decimal or 0x hex.")
    static let minor = OptionSpec("minor", .value(placeholder: "minor"), "The beacon's minor, 0...65535, decimal or 0x hex.")
    static let measuredPower = OptionSpec("measured-power", .value(placeholder: "dBm"), "The beacon's calibrated RSSI at 1 m, -127...20.",
        default: "\(AdvertiseOptions.defaultMeasuredPower)")
    static let interval = OptionSpec("interval", .value(placeholder: "duration"), "The beacon's advertising interval, 20ms...10.24s.", default: "100ms")
    static let distance = OptionSpec("distance", .value(placeholder: "metres"), "The beacon's distance from the receiver.", default: "\(defaultDistance)")
    static let walkTo = OptionSpec("walk-to", .value(placeholder: "metres"), "Walk the beacon from --distance to here and back, again and again.")
    static let speed = OptionSpec("speed", .value(placeholder: "m/s"), "Walking speed with --walk-to.", default: "\(BeaconPath.defaultSpeed)")
    static let exponent = OptionSpec("exponent", .value(placeholder: "n"), "Path-loss exponent, 0.5...10 (also with --scene).", default: "2, or the scene's")
    static let loss = OptionSpec("loss", .value(placeholder: "fraction"), "Fraction of packets lost, 0...1 or a percentage such as 50% (also with --scene).",
        default: "0, or the scene's")
    static let sensitivity = OptionSpec("sensitivity", .value(placeholder: "dBm"), "Weaker packets are not received, -127...20 (also with --scene).",
        default: "-100, or the scene's")
    static let reports = OptionSpec("reports", .value(placeholder: "kind"), "Report events: legacy, extended or mixed (also with --scene).",
        default: "extended, or the scene's")

    static let help = CommandHelp(
        name: "simulate",
        overview: "Simulate beacons around a scanning controller: write the btsnoop capture it would record, and the ground truth.",
        usage: "beacon simulate (--scene <name|file> | --uuid <uuid> --major <major> --minor <minor>) --out <capture> [<options>]",
        options: [scene, list, printScene, out, site, truth, seed, start, duration, tick, uuid, major, minor, measuredPower, interval,
                  distance, walkTo, speed, exponent, loss, sensitivity, reports],
        discussion: """
        A scene is beacons (an iBeacon, AltBeacon, Eddystone-UID or Eddystone-URL identity, advertising interval, \
        when they advertise, how they move), the radio \
        between them and the receiver (path loss, shadowing, per-channel and fast fading, bodies in the way, \
        loss, interference, dips) and the receiver (sensitivity, reports); --print-scene writes a scene file to start from.
        The capture replays with `beacon range --hci btsnoop:CAPTURE --uuid UUID`. The ground truth has one \
        JSON line per beacon and tick: true distance, advertising or not, and whether that beacon is in each \
        region of the scene — while the region matches it and it advertises with a mean power at its true \
        distance at or above the sensitivity. Nothing depends on the clock: the same arguments give the same bytes.
        A site scene (one with a site, or given --site) has beacons at points of the site's floor plan and \
        every gateway of the site hearing them through the walls, each with its own receiver: --out names a \
        directory of one capture per gateway and site.json, and the ground truth gives each beacon's room, \
        x, y and its distance and mean power at every gateway.
        Built-in scenes: \(Scene.allNamed.map(\.name).joined(separator: ", ")).
        Examples:
          beacon simulate --scene walk-away --out walk.btsnoop --truth walk.jsonl
          beacon range --hci btsnoop:walk.btsnoop --uuid E2C56DB5-DFFB-48D2-B060-D0F5A71096E0
          beacon simulate --scene house --out house --truth house.jsonl
          beacon range --hci btsnoop:house/gw-hall.btsnoop --uuid E2C56DB5-DFFB-48D2-B060-D0F5A71096E0 --mqtt mqtt://broker/site --gateway gw-hall
          beacon locate --mqtt mqtt://broker/site --site house/site.json
        """,
        exitCodes: [.success, .usage, .dataError, .noInput, .software, .cantCreate, .ioError]
    )

    init(_ parsed: ParsedOptions) throws(UsageError) {
        if parsed.has(Self.list) {
            let others = Self.help.options.filter { $0.name != Self.list.name && parsed.given($0) }
            if let other = others.first { throw UsageError("'--list' takes no other options (found '--\(other.name)')") }
            action = .list
            overrides = SceneOverrides()
            sitePath = nil
            seed = Self.defaultSeed
            start = SceneSimulator.defaultStart
            return
        }
        overrides = try SceneOverrides(parsed)
        sitePath = parsed[Self.site]
        if sitePath == "" { throw UsageError("Invalid value '' for '--site <file>': expected a site file") }
        let source: SceneSource
        if let name = parsed[Self.scene] {
            if let other = Self.beaconOptions.first(where: { parsed[$0] != nil }) {
                throw UsageError("'--\(other.name)' describes a beacon given by flags; it cannot be combined with '--scene'")
            }
            source = try Self.source(named: name)
        } else if parsed[Self.uuid] != nil {
            if sitePath != nil {
                throw UsageError("'--site' needs '--scene': a beacon given by flags is a distance from one receiver, not a point of a site")
            }
            source = .flags(try Self.flagsScene(parsed, duration: overrides.duration ?? Self.defaultFlagsDuration))
        } else if let other = Self.beaconOptions.first(where: { parsed[$0] != nil }) {
            throw UsageError("'--\(other.name)' needs '--uuid' (a beacon given by flags)")
        } else {
            throw UsageError("Missing expected argument '--scene <name|file>' (or '--uuid' for one beacon; '--list' lists the scenes)")
        }

        let out = parsed[Self.out]
        let truth = parsed[Self.truth]
        if parsed.has(Self.printScene) {
            if out != nil || truth != nil { throw UsageError("'--print-scene' writes no capture; it cannot be combined with '--out' or '--truth'") }
            action = .printScene(source)
        } else {
            guard let out else { throw UsageError("Missing expected argument '--out <capture>'") }
            guard !out.isEmpty, out != "-" else { throw UsageError("Invalid value '\(out)' for '--out <capture>': expected a file name (a capture is binary)") }
            if truth == "" { throw UsageError("Invalid value '' for '--truth <file>': expected a file name or '-'") }
            if truth == out { throw UsageError("'--out' and '--truth' name the same file '\(out)'") }
            action = .simulate(source, out: out, truth: truth)
        }

        if let text = parsed[Self.seed] {
            guard let value = UInt64(text) else {
                throw UsageError("Invalid value '\(text)' for '--seed <n>': expected an integer in 0...18446744073709551615")
            }
            seed = value
        } else {
            seed = Self.defaultSeed
        }
        if let text = parsed[Self.start] {
            guard let value = TimestampText.parse(text), value >= Timestamp(microseconds: 0),
                  value <= Timestamp(microseconds: 253_402_300_799_999_999) else {
                throw UsageError("Invalid value '\(text)' for '--start <time>': expected an ISO 8601 time from 1970 to 9999 such as 2026-01-01T00:00:00Z")
            }
            start = value
        } else {
            start = SceneSimulator.defaultStart
        }
    }

    /// The built-in scenes' names, for messages.
    static let sceneNames = Scene.allNamed.map(\.name).joined(separator: ", ")

    /// A built-in scene, unless the text looks like a path (has a slash or ends in .json).
    static func source(named text: String) throws(UsageError) -> SceneSource {
        if text.contains("/") || text.hasSuffix(".json") { return .file(path: text) }
        guard let scene = Scene.named(text) else {
            throw UsageError(NearestMatch.message("Unknown scene '\(text)': the built-in scenes are \(sceneNames) "
                + "(a scene file needs a path with a '/' or a name ending in .json)", typed: text, among: Scene.allNamed.map(\.name)))
        }
        return .named(scene)
    }

    /// One beacon from --uuid, --major, --minor and friends, standing or walking; one region on its UUID.
    static func flagsScene(_ parsed: ParsedOptions, duration: Micros) throws(UsageError) -> Scene {
        let uuidText = parsed[Self.uuid] ?? ""
        guard let uuid = BeaconUUID(uuidText) else {
            throw UsageError("Invalid value '\(uuidText)' for '--uuid <uuid>': expected 8-4-4-4-12 hex digits such as E2C56DB5-DFFB-48D2-B060-D0F5A71096E0")
        }
        guard let majorText = parsed[Self.major] else { throw UsageError("Missing expected argument '--major <major>'") }
        guard let minorText = parsed[Self.minor] else { throw UsageError("Missing expected argument '--minor <minor>'") }
        let identity = IBeaconID(uuid: uuid, major: try RangeOptions.uint16(majorText, option: Self.major),
                                      minor: try RangeOptions.uint16(minorText, option: Self.minor))
        let power = try parsed[Self.measuredPower].map { text throws(UsageError) in
            try AdvertiseOptions.dBm(text, option: Self.measuredPower)
        } ?? AdvertiseOptions.defaultMeasuredPower
        let distance = try number(parsed, Self.distance, in: 0...10_000) ?? Double(Self.defaultDistance)
        let path: BeaconPath
        if let far = try number(parsed, Self.walkTo, in: 0...10_000) {
            let speed = try number(parsed, Self.speed, in: 0.01...100) ?? BeaconPath.defaultSpeed
            path = .walkingAwayAndBack(near: distance, far: far, speed: speed, pause: Micros(0))
        } else if parsed[Self.speed] != nil {
            throw UsageError("'--speed' needs '--walk-to' (a standing beacon does not move)")
        } else {
            path = .standing(distance: distance)
        }
        var beacon = SceneBeacon(beacon: .iBeacon(IBeacon(identity: identity, measuredPower: power)),
                                 address: SceneBeacon.defaultAddress(index: 0), path: path)
        if let text = parsed[Self.interval] {
            let interval = try CommonOptions.positiveDuration(text, option: Self.interval)
            guard interval >= .milliseconds(20), interval <= .milliseconds(10_240) else {
                throw UsageError("Invalid value '\(text)' for '--interval <duration>': expected 20ms...10.24s")
            }
            beacon.interval = interval
        }
        let kind = parsed[Self.walkTo] == nil ? "standing" : "walking"
        return Scene(name: "flags", summary: "One \(kind) beacon given by flags.", duration: duration,
                     regions: [NamedRegion(name: "beacon", region: BeaconRegion(uuid: uuid))], beacons: [beacon])
    }

    /// A decimal number in `range`, nil when the option is absent.
    static func number(_ parsed: ParsedOptions, _ option: OptionSpec, in range: ClosedRange<Double>) throws(UsageError) -> Double? {
        guard let text = parsed[option] else { return nil }
        guard let value = Double(text), value.isFinite, range.contains(value) else {
            throw UsageError("Invalid value '\(text)' for '\(option.synopsis)': expected a number in \(range.lowerBound)...\(range.upperBound)")
        }
        return value
    }
}
