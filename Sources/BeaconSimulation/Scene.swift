import BeaconCore

/// Everything `beacon simulate` simulates: beacons moving about a receiver, the radio between them,
/// the receiver, and the regions the ground truth reports on; or, in a site scene, beacons moving about
/// a site's floor plan and every gateway of the site hearing them. Scene files are this type as JSON
/// (docs/simulate.md); `Scene.named(_:)` gives the built-in ones.
public struct Scene: Hashable, Sendable {
    /// A short name (built-in scenes: the name `--scene` takes).
    public var name: String
    /// One line on what the scene is for.
    public var summary: String
    /// How long the scene lasts.
    public var duration: Micros
    /// Time between ground-truth rows (default 1 s, as `beacon range --interval`).
    public var tick: Micros
    public var radio: RadioModel
    public var receiver: ReceiverModel
    public var regions: [NamedRegion]
    public var beacons: [SceneBeacon]
    /// The devices about the receiver (each gateway of a site) that are not beacons.
    public var neighbours: Neighbours
    /// The site of a site scene: its rooms, walls and floors, and its gateways, each simulated as a
    /// receiver of its own. Nil for a scene of one receiver.
    public var site: Site?
    /// How the site's gateways differ from `receiver`, by name; a gateway not listed takes the defaults.
    public var gateways: [SceneGateway]

    public init(name: String, summary: String = "", duration: Micros, tick: Micros = .seconds(1),
                radio: RadioModel = RadioModel(), receiver: ReceiverModel = ReceiverModel(),
                regions: [NamedRegion], beacons: [SceneBeacon], neighbours: Neighbours = Neighbours(),
                site: Site? = nil, gateways: [SceneGateway] = []) {
        self.name = name
        self.summary = summary
        self.duration = duration
        self.tick = tick
        self.radio = radio
        self.receiver = receiver
        self.regions = regions
        self.beacons = beacons
        self.neighbours = neighbours
        self.site = site
        self.gateways = gateways
    }

    /// The longest scene: a year, as the longest duration `beacon` takes.
    public static let longestDuration = Micros.seconds(366 * 86_400)
    /// The most beacons a scene holds, as many as neighbours and `make bench`'s busiest scene: a hundred
    /// times more took a minute and 686 MB to simulate.
    public static let maximumBeacons = 10_000
    /// The most gateways a site scene simulates: each is a capture file written at once, with its buffer.
    public static let maximumGateways = 100

    /// The regions of a scene that states none: one per distinct first identifier of `beacons` (an
    /// iBeacon's UUID, an AltBeacon's ID1, an Eddystone-UID's namespace), named as `beacon range
    /// --region` writes it. An Eddystone-URL beacon has no identity, so no region.
    public static func defaultRegions(for beacons: [SceneBeacon]) -> [NamedRegion] {
        var regions: [NamedRegion] = []
        for beacon in beacons {
            let constraint: IdentityConstraint
            switch beacon.beacon.identity {
            case .iBeacon(let id): constraint = .iBeacon(uuid: id.uuid, major: nil, minor: nil)
            case .altBeacon(let id): constraint = .altBeacon(id1: id.id1, id2: nil, id3: nil)
            case .eddystoneUID(let uid): constraint = .eddystoneUID(namespace: uid.namespace, instance: nil)
            case nil: continue
            }
            let region = BeaconRegion(constraint)
            guard !regions.contains(where: { $0.region == region }) else { continue }
            regions.append(NamedRegion(name: region.description, region: region))
        }
        return regions
    }

    /// Checks every value a simulation depends on; the error names the first field at fault.
    public func validate() throws(SceneError) {
        try check(beacons.count <= Self.maximumBeacons, "beacons", "must be at most \(Self.maximumBeacons) beacons, not \(beacons.count)")
        try check(duration.value > 0 && duration <= Self.longestDuration, "duration", "must be more than 0 and at most 366 days")
        try check(tick >= .milliseconds(10), "tick", "must be at least 10ms")
        try radio.validate()
        try receiver.validate()
        var names: Set<String> = []
        for (i, region) in regions.enumerated() {
            try check(!region.name.isEmpty, "regions[\(i)].name", "must not be empty")
            try check(names.insert(region.name).inserted, "regions[\(i)].name", "'\(region.name)' is used twice")
        }
        for (i, beacon) in beacons.enumerated() {
            try beacon.validate(field: "beacons[\(i)]", inSite: site != nil)
        }
        try neighbours.validate()
        try validateSite()
    }
}
