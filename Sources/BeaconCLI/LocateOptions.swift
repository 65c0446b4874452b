import BeaconCore
import BeaconMQTT

/// Everything `beacon locate` needs, validated (the site file is read when the command runs).
struct LocateOptions {
    var broker: BrokerOptions
    var sitePath: String
    /// A survey file (docs/survey.md): its radio map places the beacons where it reaches.
    var surveyPath: String?
    var settings: Locator.Settings
    var duration: Micros?
    /// Ends the run once every gateway of the site has gone offline (replays into the broker).
    var untilOffline: Bool
    /// The beacons this fuser owns; nil: all.
    var shard: BeaconShard?

    /// The longest --smoothing: a minute of windows held back per beacon is already far more than a room needs.
    static let maximumSmoothing = Micros.seconds(60)

    static let site = OptionSpec("site", .value(placeholder: "file"), "The site, JSON in metres: rooms as polygons, the gateways' positions, and optionally walls, floors and beacons' names, for example "
        + #"{"rooms": [{"name": "hall", "polygon": [[0,0], [4,0], [4,4], [0,4]]}], "gateways": [{"name": "gw1", "position": [2,2,1], "room": "hall"}]}."#)
    static let survey = OptionSpec("survey", .value(placeholder: "file"),
        "A survey of the site (JSON lines, one per point and gateway, for example "
        + #"{"x":3.2,"y":1.5,"gateway":"gw1","rssi":-71.5,"samples":3400}; what `beacon survey` writes): "#
        + "a radio map per gateway interpolated from it places the beacons where the survey reaches, the "
        + "distance model beyond. A survey that contradicts itself, and a gateway whose readings no longer "
        + "fit it, are warned about.")
    static let interval = OptionSpec("interval", .value(placeholder: "duration"), "Time between a beacon's location lines.",
        default: Locator.Settings().interval.description)
    static let awayAfter = OptionSpec("away-after", .value(placeholder: "duration"),
        "No gateway has heard a beacon for this long: an away line, and its room not_home.",
        default: Locator.Settings().awayAfter.description)
    static let maxLateness = OptionSpec("max-lateness", .value(placeholder: "duration"),
        "How far behind the other gateways one may fall before the fuser stops waiting for it; 'none' "
        + "waits for every online gateway of the site, as the fuser does by itself while replays' readings come "
        + "(they run at any pace).",
        default: Locator.Settings().maximumLateness?.description ?? "none")
    static let smoothing = OptionSpec("smoothing", .value(placeholder: "duration"),
        "Publish each window's lines this much later, its estimate weighed by the readings of the windows "
        + "since too, so a beacon walked slowly across a room boundary is placed where it was rather than "
        + "where its readings so far suggest; a line's time stays the window it describes. 0 publishes at once; "
        + "at most \(LocateOptions.maximumSmoothing.value / 1_000_000)s.", default: "0")
    static let untilOffline = OptionSpec("until-offline", .flag,
        "Stop once every gateway of the site has gone offline (one never heard: once no longer waited for), "
        + "after fusing everything they sent (replays).")
    static let shard = OptionSpec("shard", .value(placeholder: "K/N"),
        "Locate only the beacons whose id hashes to share K of N (1 ≤ K ≤ N), so N fusers against one broker "
        + "split the beacons, each located by exactly one; every fuser reads every gateway's readings and learns "
        + "the gateways' offsets from its own beacons (with --calibrate, each fits the gateways from all their own "
        + "beacons, alike).")
    static let calibrate = OptionSpec("calibrate", .flag,
        "Fit each gateway's RSSI offset and path-loss exponent from how the gateways hear each other's own "
        + "beacons (gateways[].beacon in the site file; `beacon range --advertise-self` or a `beacon advertise` "
        + "beside each gateway), print it as a gatewayCalibration line, publish it to PREFIX/calibration (retained) "
        + "and locate with it.")

    static let help = CommandHelp(
        name: "locate",
        overview: "Fuse the readings of several gateways into each beacon's room and position, printing JSON lines.",
        usage: "beacon locate --mqtt <url> --site <file> [<options>]",
        options: [
            MQTTOptions.mqtt.withHelp(
                "The broker the gateways (`beacon range --mqtt URL --gateway NAME`) publish to: \(BrokerAddress.forms). "
                    + "Reads PREFIX/\(GatewayTopics.level)/+/readings and /status; publishes PREFIX/beacons/ID/room and "
                    + "/location (retained), Home Assistant discovery under \(LocateTopics.discoveryPrefix)/, and "
                    + "PREFIX/locate/status (online, or offline as the last will).", default: nil),
        ] + BrokerOptions.options
            + [site, survey, interval, awayAfter, maxLateness, smoothing, untilOffline, shard, calibrate, CommonOptions.duration],
        discussion: """
        Each gateway is a `beacon range --mqtt URL --gateway NAME` whose NAME is a gateway of the site file.
        Readings are fused on their own times, never on their arrival: a window is fused once every live \
        gateway has reported past its end, so late and reordered messages land where they belong, and the \
        same readings replayed at any pace give the same lines. Every --interval, one "location" line per \
        beacon heard: its name (the site's beacons[].name, else its id), its room (null when none) and the \
        room's probability (confidence), x and y in the site's frame (metres), the 1-sigma error radius, \
        and the gateways heard with their distances; a "room" line on each change of room; an "away" line \
        when no gateway has heard it for --away-after. Each beacon is tracked by a particle filter: guesses \
        of its place and motion (standing, or walking at up to 2 m/s) weighed by the log-distance path loss \
        less the site's walls (the exponent 2.5 hedged: the readings judged under 1.75, 2.5 and 3.25 alike, \
        unless --calibrate measured it), the beacon's own power at 1 m learned from the readings, a few of them drawn \
        afresh each second about the gateways that hear it (so a filter the readings have left behind finds \
        the beacon again); each gateway's RSSI \
        offset (without a --calibrate fit or a --survey) is learned from the readings of walking beacons \
        placed confidently, used once known within 1 dB. The room is the likeliest one, and another room \
        takes over only when it is more likely by 0.2, so a beacon near a wall does not flap; a gateway going offline is not evidence that a beacon left (a beacon it heard \
        last is held for 60 s). SIGINT, SIGTERM, SIGHUP: what every gateway has reported is printed and \
        published, then exit 0.
        A gateway's own beacon (the site's gateways[].beacon) is never located. With --calibrate, each pair of \
        gateways counts once one has heard the other's beacon in 20 ticks (its level the mean of the middle 80 % \
        of the latest 1,200); the first fit is made 30 s after the first pair counts, then every 60 s, each on \
        the readings' own times. Each gateway's offset and exponent are fitted robustly (a gateway behind a wall \
        the site does not have is set aside as an outlier, not followed), the transmitter's power pinned to what \
        its beacon advertises. A fit that moves the level a gateway reads by more than 3 dB or its exponent by \
        more than 0.5, beyond twice their uncertainty, from the fit the gateway is held to (its first, or the \
        last that changed) is warned about on stderr (the gateway moved, or something new is in the way) and \
        marked changed; the freshest fit is always the one used, except for a gateway a --survey covers, which \
        keeps the survey's radio map (it holds the gateway's offset already). A restarted locate --calibrate continues from \
        the calibration retained on PREFIX/calibration (locating with it, and holding its first fit to it) \
        instead of starting cold; one that is malformed or names gateways the site does not have is warned \
        about and ignored.
        Output: one JSON object per line with "event" location, room, away or gatewayCalibration (fields in \
        beacon(1), OUTPUT).
        """,
        exitCodes: [.success, .usage, .dataError, .noInput, .unavailable, .software, .ioError]
    )

    init(_ parsed: ParsedOptions, environment: [String: String]) throws(UsageError) {
        guard let broker = try BrokerOptions.parse(parsed, environment: environment) else {
            throw UsageError("Missing expected argument '--mqtt <url>'")
        }
        self.broker = broker
        guard let site = parsed[Self.site] else { throw UsageError("Missing expected argument '--site <file>'") }
        sitePath = site
        surveyPath = parsed[Self.survey]
        settings = Locator.Settings()
        if let interval = try parsed.positiveDuration(Self.interval) {
            settings.interval = interval
            if settings.interval < Micros.milliseconds(100) { throw UsageError("'--interval' must be at least 100ms") }
        }
        if let awayAfter = try parsed.positiveDuration(Self.awayAfter) { settings.awayAfter = awayAfter }
        if let text = parsed[Self.maxLateness] {
            settings.maximumLateness = text == "none" ? nil : try CommonOptions.positiveDuration(text, option: Self.maxLateness)
        }
        if let text = parsed[Self.smoothing] {
            guard let smoothing = DurationText.parse(text), smoothing <= Self.maximumSmoothing else {
                throw UsageError("Invalid value '\(text)' for '--smoothing <duration>': expected a duration from 0 to 60s such as 0, 3 or 2500ms")
            }
            settings.smoothing = smoothing
        }
        duration = try parsed.positiveDuration(CommonOptions.duration)
        untilOffline = parsed.has(Self.untilOffline)
        if parsed.has(Self.calibrate) { settings.calibration = SelfCalibration() }
        shard = try parsed[Self.shard].map { text throws(UsageError) in
            guard let shard = BeaconShard(text) else {
                throw UsageError("Invalid value '\(text)' for '--shard <K/N>': expected K/N with 1 <= K <= N <= \(BeaconShard.maximumCount), such as 1/2")
            }
            return shard
        }
    }
}
