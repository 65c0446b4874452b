import BeaconCore
import BeaconMQTT

/// Everything `beacon survey` needs, validated (the site and path files are read when the command runs).
struct SurveyOptions {
    /// Where the beacon is surveyed.
    enum Place: Equatable {
        /// `--at X,Y`.
        case point(Point2)
        /// `--at ROOM`: the room's centre, on its floor.
        case room(String)
        /// `--path FILE`: a walk.
        case path(String)
    }

    var broker: BrokerOptions
    var sitePath: String
    /// `--beacon`: an id as the readings give it, or a name the site gives a beacon.
    var beacon: String
    var place: Place
    /// `--floor`; nil: the room's, else 0.
    var floor: Int?
    var duration: Micros
    var outPath: String?
    var maximumLateness: Micros?

    static let defaultDuration = Micros.seconds(30)

    static let site = OptionSpec("site", .value(placeholder: "file"), "The site file, as beacon locate takes it: its gateways are the ones surveyed.")
    static let beacon = OptionSpec("beacon", .value(placeholder: "id"),
        "The beacon surveyed: its id as the gateways' readings give it (uuid-major-minor in lower case), or the name the site file's beacons give it.")
    static let at = OptionSpec("at", .value(placeholder: "x,y|room"),
        "Where the beacon is held still: metres in the site's frame, or a room of the site (its centre, on its floor).")
    static let floor = OptionSpec("floor", .value(placeholder: "n"), "The floor of --at X,Y or of --path.", default: "0")
    static let duration = OptionSpec("duration", .value(placeholder: "duration"),
        "How long the beacon is held at --at, counted on the readings' own clock from the first readings message.",
        default: defaultDuration.description)
    static let path = OptionSpec("path", .value(placeholder: "file"),
        "Instead of --at, a walk: a JSON array of {\"x\", \"y\", \"t\"}, metres and seconds from the first readings "
        + "message, times increasing; the beacon is carried from point to point at a steady pace, and the "
        + "survey lasts until the last point's time.")
    static let out = OptionSpec("out", .value(placeholder: "file"), "Append the survey lines to this file (created when missing, never emptied).")
    static let maxLateness = OptionSpec("max-lateness", .value(placeholder: "duration"),
        "How long a gateway may stay silent, once another has reported past the survey's end, before it "
        + "is no longer waited for; 'none' waits for every gateway not offline, as the survey does by itself "
        + "while replays' readings come.",
        default: Locator.Settings().maximumLateness?.description ?? "none")

    static let help = CommandHelp(
        name: "survey",
        overview: "Record what each gateway hears of a beacon held still at a known point, or carried along a walk, as survey lines.",
        usage: "beacon survey --mqtt <url> --site <file> --beacon <id> (--at <x,y|room> | --path <file>) [<options>]",
        options: [
            MQTTOptions.mqtt.withHelp(
                "The broker the gateways (`beacon range --mqtt URL --gateway NAME`) publish to: \(BrokerAddress.forms). "
                    + "Reads PREFIX/\(GatewayTopics.level)/+/readings and /status, as beacon locate does; publishes "
                    + "PREFIX/survey/status (online, or offline as the last will).", default: nil),
        ] + BrokerOptions.options + [site, beacon, at, floor, duration, path, out, maxLateness],
        discussion: """
        Hold the beacon still at the point for --duration (or carry it along --path) while the site's gateways \
        range it; the survey starts at the first readings message after it subscribes, and ends once every \
        gateway has reported past its end (or gone offline). For each gateway it records the beacon's median \
        RSSI over the ticks (each tick's mean RSSI weighted by its samples), their spread (the median absolute \
        deviation × 1.4826, a 1-sigma in dB) and the samples, as one line of the survey file per gateway:
          {"x":3.20,"y":1.50,"floor":0,"gateway":"gw1","rssi":-71.5,"samples":300,
           "spread":2.97,"time":"2026-01-01T00:00:01.000Z"}
        A gateway that sent readings without the beacon in them is a line with "rssi":null and "samples":0 \
        (not heard there); a gateway that sent no readings at all has no line. A point is refused, with an \
        Error line and nothing written, when the gateway that heard the beacon most heard it fewer than \
        \(SurveyRecorder.minimumSamples) times, or when the beacon moved: a gateway that heard it at least that often saw it spread wider \
        than \(Int(SurveyRecorder.maximumSpread)) dB (a beacon held still spreads 2 to 4 dB), or its medians in the point's first, second and \
        last third more than \(Int(SurveyRecorder.maximumShift)) dB apart (moved part of the time). A walk gives one point per \
        \(Int(SurveyPath.stretchLength)) m of path: the mean of where the beacon was at the stretch's ticks, with what each gateway heard \
        there; a stretch heard fewer than \(SurveyRecorder.minimumStretchSamples) times by every gateway is left out, with a warning.
        Each line is also printed on stdout as a "survey" line (fields in beacon(1), OUTPUT); with --out the \
        lines are appended to the file once the survey is complete, so one file gathers point after point. \
        SIGINT, SIGTERM, SIGHUP, SIGQUIT before then: nothing is written, exit 0.
        """,
        exitCodes: [.success, .usage, .dataError, .noInput, .unavailable, .software, .cantCreate, .ioError]
    )

    init(_ parsed: ParsedOptions, environment: [String: String]) throws(UsageError) {
        guard let broker = try BrokerOptions.parse(parsed, environment: environment) else {
            throw UsageError("Missing expected argument '--mqtt <url>'")
        }
        self.broker = broker
        guard let site = parsed[Self.site] else { throw UsageError("Missing expected argument '--site <file>'") }
        sitePath = site
        guard let beacon = parsed[Self.beacon] else { throw UsageError("Missing expected argument '--beacon <id>'") }
        guard !beacon.isEmpty, beacon.utf8.count <= 128, !beacon.unicodeScalars.contains(where: \.isControlOrNoncharacter) else {
            throw UsageError("Invalid value '\(DiagnosticEscaping.escaped(beacon))' for '--beacon <id>': expected 1 to 128 bytes without control characters")
        }
        self.beacon = beacon
        switch (parsed[Self.at], parsed[Self.path]) {
        case (nil, nil): throw UsageError("Missing expected argument '--at <x,y|room>' (or '--path <file>' for a walk)")
        case (.some, .some): throw UsageError("'--at' and '--path' cannot be combined: a survey is a point or a walk")
        case (.some(let text), nil): place = try Self.place(text)
        case (nil, .some(let path)):
            if parsed[Self.duration] != nil { throw UsageError("'--duration' applies to '--at'; a --path walk lasts until its last point's time") }
            place = .path(path)
        }
        floor = try parsed[Self.floor].map { text throws(UsageError) in
            guard let level = Int(text), abs(level) <= Site.maximumLevel else {
                throw UsageError("Invalid value '\(text)' for '--floor <n>': expected a whole number from -\(Site.maximumLevel) to \(Site.maximumLevel)")
            }
            return level
        }
        if floor != nil, case .room = place { throw UsageError("'--floor' applies to '--at X,Y' and '--path'; a room is on its own floor") }
        duration = try parsed.positiveDuration(Self.duration) ?? Self.defaultDuration
        outPath = parsed[Self.out]
        maximumLateness = Locator.Settings().maximumLateness
        if let text = parsed[Self.maxLateness] {
            maximumLateness = text == "none" ? nil : try CommonOptions.positiveDuration(text, option: Self.maxLateness)
        }
    }

    /// `X,Y` (two numbers within the site's range) or a room's name.
    static func place(_ text: String) throws(UsageError) -> Place {
        guard !text.isEmpty else { throw UsageError("Invalid value '' for '--at <x,y|room>': expected X,Y in metres or a room's name") }
        let parts = text.split(separator: ",", omittingEmptySubsequences: false)
        let numbers = parts.compactMap { Double($0.trimmingPrefix(" ")) }
        // Two parts, one of them a number, are meant as coordinates.
        guard parts.count == 2, !numbers.isEmpty else { return .room(text) }
        let limit = Site.maximumCoordinate
        guard numbers.count == 2, numbers.allSatisfy({ $0.isFinite && abs($0) <= limit }) else {
            throw UsageError("Invalid value '\(text)' for '--at <x,y|room>': expected X,Y in metres within ±\(Int(limit)), such as 3.2,1.5")
        }
        return .point(Point2(x: numbers[0], y: numbers[1]))
    }
}
