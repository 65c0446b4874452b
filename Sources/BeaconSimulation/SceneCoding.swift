import BeaconCore

// Scene files (docs/simulate.md): every member but a beacon's identity, its path and the scene's
// duration has a default, and every member is written out when a scene is encoded (a site scene's
// site, gateways and heights only in a site scene, like the impairments a scene does not have).

extension Scene: Codable {
    static let members = ["name", "description", "duration", "tick", "radio", "receiver", "regions", "beacons", "neighbours",
                          "site", "gateways"]

    public init(from decoder: any Decoder) throws {
        let fields = try FieldReader(decoder, members: Self.members)
        let duration = try fields.requiredDuration("duration")
        let beacons = try fields.decode("beacons", as: [SceneBeacon].self)
        // The site is read as a site file is, by the one site reader.
        let site: Site?
        do {
            site = try fields.decodeIfPresent("site", as: JSONValue.self).map { value throws(SiteError) in try Site.decode(value) }
        } catch let error as SiteError {
            throw SiteInSceneError(error: error)
        }
        self.init(name: try fields.decodeIfPresent("name") ?? "custom",
                  summary: try fields.decodeIfPresent("description") ?? "",
                  duration: duration,
                  tick: try fields.duration("tick") ?? .seconds(1),
                  radio: try fields.decodeIfPresent("radio") ?? RadioModel(),
                  receiver: try fields.decodeIfPresent("receiver") ?? ReceiverModel(),
                  regions: try fields.decodeIfPresent("regions") ?? Self.defaultRegions(for: beacons),
                  beacons: beacons,
                  neighbours: try fields.decodeIfPresent("neighbours") ?? Neighbours(),
                  site: site,
                  gateways: try fields.decodeIfPresent("gateways") ?? [])
    }

    public func encode(to encoder: any Encoder) throws {
        var fields = FieldWriter(encoder)
        try fields.encode(name, "name")
        try fields.encode(summary, "description")
        try fields.encode(duration, "duration")
        try fields.encode(tick, "tick")
        try fields.encode(radio, "radio")
        try fields.encode(receiver, "receiver")
        try fields.encode(regions, "regions")
        try fields.encode(beacons, "beacons")
        try fields.encode(neighbours, "neighbours")
        if let site {
            try fields.encode(site.jsonValue, "site")
            try fields.encode(gateways, "gateways")
        }
    }
}

/// A scene file's site that the site reader refused: `SceneError(_:)` names the field under `site.`.
struct SiteInSceneError: Error {
    let error: SiteError
}

extension SceneGateway: Codable {
    public init(from decoder: any Decoder) throws {
        let fields = try FieldReader(decoder, members: ["name", "rssiOffset", "pathLossExponent", "noise", "stop"])
        let defaults = SceneGateway(name: "")
        self.init(name: try fields.decode("name"),
                  rssiOffset: try fields.decodeIfPresent("rssiOffset") ?? defaults.rssiOffset,
                  pathLossExponent: try fields.decodeIfPresent("pathLossExponent"),
                  noise: try fields.decodeIfPresent("noise") ?? defaults.noise,
                  stop: try fields.duration("stop"))
    }

    public func encode(to encoder: any Encoder) throws {
        var fields = FieldWriter(encoder)
        try fields.encode(name, "name")
        try fields.encode(rssiOffset, "rssiOffset")
        if let pathLossExponent { try fields.encode(pathLossExponent, "pathLossExponent") }
        try fields.encode(noise, "noise")
        if let stop { try fields.encode(stop, "stop") }
    }
}

extension Neighbours: Codable {
    public init(from decoder: any Decoder) throws {
        let fields = try FieldReader(decoder, members: ["count", "interval"])
        let defaults = Neighbours()
        self.init(count: try fields.integer("count", in: Self.countRange) ?? defaults.count,
                  interval: try fields.duration("interval") ?? defaults.interval)
    }

    public func encode(to encoder: any Encoder) throws {
        var fields = FieldWriter(encoder)
        try fields.encode(count, "count")
        try fields.encode(interval, "interval")
    }
}

extension NamedRegion: Codable {
    public init(from decoder: any Decoder) throws {
        let fields = try FieldReader(decoder, members: ["name", "region"])
        let text = try fields.decode("region", as: String.self)
        switch BeaconRegion.parse(text) {
        case .success(let region): self.init(name: try fields.decode("name"), region: region)
        case .failure(let error): throw fields.invalid("region", "expected UUID[:MAJOR[:MINOR]], altbeacon:ID1[:ID2[:ID3]] or eddystone:NAMESPACE[:INSTANCE]: \(error)")
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var fields = FieldWriter(encoder)
        try fields.encode(name, "name")
        try fields.encode(region.description, "region")
    }
}

extension RadioModel: Codable {
    public init(from decoder: any Decoder) throws {
        let fields = try FieldReader(decoder, members: ["pathLossExponent", "shadowing", "channelOffsets", "fastFading",
                                                        "bodyBlocking", "loss", "interference", "dips"])
        let defaults = RadioModel()
        self.init(pathLossExponent: try fields.decodeIfPresent("pathLossExponent") ?? defaults.pathLossExponent,
                  shadowing: try fields.decodeIfPresent("shadowing") ?? defaults.shadowing,
                  channelOffsets: try fields.decodeIfPresent("channelOffsets") ?? defaults.channelOffsets,
                  fastFading: try fields.decodeIfPresent("fastFading") ?? defaults.fastFading,
                  bodyBlocking: try fields.decodeIfPresent("bodyBlocking"),
                  loss: try fields.decodeIfPresent("loss") ?? defaults.loss,
                  interference: try fields.decodeIfPresent("interference"),
                  dips: try fields.decodeIfPresent("dips"))
    }

    public func encode(to encoder: any Encoder) throws {
        var fields = FieldWriter(encoder)
        try fields.encode(pathLossExponent, "pathLossExponent")
        try fields.encode(shadowing, "shadowing")
        try fields.encode(channelOffsets, "channelOffsets")
        try fields.encode(fastFading, "fastFading")
        try fields.encodeIfPresent(bodyBlocking, "bodyBlocking")
        try fields.encode(loss, "loss")
        try fields.encodeIfPresent(interference, "interference")
        try fields.encodeIfPresent(dips, "dips")
    }
}

extension RadioModel.Dips: Codable {
    public init(from decoder: any Decoder) throws {
        let fields = try FieldReader(decoder, members: ["share", "depth"])
        let defaults = Self()
        self.init(share: try fields.decodeIfPresent("share") ?? defaults.share,
                  depth: try fields.decodeIfPresent("depth") ?? defaults.depth)
    }

    public func encode(to encoder: any Encoder) throws {
        var fields = FieldWriter(encoder)
        try fields.encode(share, "share")
        try fields.encode(depth, "depth")
    }
}

extension RadioModel.Shadowing: Codable {
    public init(from decoder: any Decoder) throws {
        let fields = try FieldReader(decoder, members: ["sigma", "decorrelationDistance", "decorrelationTime"])
        let defaults = Self()
        self.init(sigma: try fields.decodeIfPresent("sigma") ?? defaults.sigma,
                  decorrelationDistance: try fields.decodeIfPresent("decorrelationDistance") ?? defaults.decorrelationDistance,
                  decorrelationTime: try fields.duration("decorrelationTime") ?? defaults.decorrelationTime)
    }

    public func encode(to encoder: any Encoder) throws {
        var fields = FieldWriter(encoder)
        try fields.encode(sigma, "sigma")
        try fields.encode(decorrelationDistance, "decorrelationDistance")
        try fields.encode(decorrelationTime, "decorrelationTime")
    }
}

extension RadioModel.BodyBlocking: Codable {
    public init(from decoder: any Decoder) throws {
        let defaults = Self()
        let (value, episodes) = try FieldReader.episodic(decoder, "attenuation", defaults: (defaults.attenuation, defaults.episodes))
        self.init(attenuation: value, every: episodes.every, lasting: episodes.lasting)
    }

    public func encode(to encoder: any Encoder) throws {
        var fields = FieldWriter(encoder)
        try fields.encode(attenuation, "attenuation")
        try fields.encode(episodes)
    }
}

extension RadioModel.InterferenceBursts: Codable {
    public init(from decoder: any Decoder) throws {
        let defaults = Self()
        let (value, episodes) = try FieldReader.episodic(decoder, "loss", defaults: (defaults.loss, defaults.episodes))
        self.init(loss: value, every: episodes.every, lasting: episodes.lasting)
    }

    public func encode(to encoder: any Encoder) throws {
        var fields = FieldWriter(encoder)
        try fields.encode(loss, "loss")
        try fields.encode(episodes)
    }
}

extension ReceiverModel: Codable {
    public init(from decoder: any Decoder) throws {
        let fields = try FieldReader(decoder, members: ["sensitivity", "reports", "extendedShare", "activeScanning",
                                                        "rssiUnavailable", "scanInterval", "scanWindow"])
        let defaults = ReceiverModel()
        self.init(sensitivity: try fields.decodeIfPresent("sensitivity") ?? defaults.sensitivity,
                  reports: try fields.choice("reports", as: ReportFormat.self) ?? defaults.reports,
                  extendedShare: try fields.decodeIfPresent("extendedShare") ?? defaults.extendedShare,
                  activeScanning: try fields.decodeIfPresent("activeScanning") ?? defaults.activeScanning,
                  rssiUnavailable: try fields.decodeIfPresent("rssiUnavailable") ?? defaults.rssiUnavailable,
                  scanInterval: try fields.duration("scanInterval") ?? defaults.scanInterval,
                  scanWindow: try fields.duration("scanWindow") ?? defaults.scanWindow)
    }

    public func encode(to encoder: any Encoder) throws {
        var fields = FieldWriter(encoder)
        try fields.encode(sensitivity, "sensitivity")
        try fields.encode(reports.rawValue, "reports")
        try fields.encode(extendedShare, "extendedShare")
        try fields.encode(activeScanning, "activeScanning")
        try fields.encode(rssiUnavailable, "rssiUnavailable")
        try fields.encode(scanInterval, "scanInterval")
        try fields.encode(scanWindow, "scanWindow")
    }
}

extension SceneBeacon: Codable {
    /// The identity members of each format, besides "format" and "measuredPower".
    static let identityMembers: [(format: BeaconFormat, members: [String])] = [
        (.iBeacon, ["uuid", "major", "minor"]),
        (.altBeacon, ["id1", "id2", "id3"]),
        (.eddystoneUID, ["namespace", "instance"]),
        (.eddystoneURL, ["url"]),
    ]
    static let members = ["format"] + identityMembers.flatMap(\.members)
        + ["measuredPower", "address", "addressType", "interval", "jitter", "start", "stop", "scanResponse", "path", "height"]

    public init(from decoder: any Decoder) throws {
        let fields = try FieldReader(decoder, members: Self.members)
        let beacon = try Self.advertisement(fields)
        // A beacon without an address gets one from its place in the list.
        let index = decoder.codingPath.last?.intValue ?? 0
        let defaults = SceneBeacon(beacon: beacon, address: Self.defaultAddress(index: index), path: .standing(distance: 1))
        let path = try fields.decode("path", as: BeaconPath.self)
        // A distance from the receiver has no height; a point on a site's floor plan does.
        if fields.has("height"), !path.isOnFloorPlan {
            throw fields.invalid("height", "only a beacon on a site's floor plan (a path of kind \"at\" or \"route\") has a height")
        }
        self.init(beacon: beacon,
                  address: try fields.parsed("address", expected: "an address such as C0:00:00:00:00:01", DeviceAddress.init)
                      ?? defaults.address,
                  addressType: try fields.parsed("addressType", expected: "\"public\" or \"random\"", Self.addressType(named:))
                      ?? defaults.addressType,
                  interval: try fields.duration("interval") ?? defaults.interval,
                  jitter: try fields.duration("jitter") ?? defaults.jitter,
                  start: try fields.duration("start") ?? defaults.start,
                  stop: try fields.duration("stop"),
                  path: path,
                  height: try fields.decodeIfPresent("height") ?? defaults.height,
                  scanResponse: try fields.choice("scanResponse", as: ScanResponse.self) ?? defaults.scanResponse)
    }

    /// The advertisement a beacon's members describe: its format (default ibeacon), that format's
    /// identity, and the measured power, built by the encoders `beacon advertise` sends with.
    private static func advertisement(_ fields: FieldReader) throws -> AdvertisedBeacon {
        let formatText = try fields.decodeIfPresent("format", as: String.self) ?? BeaconFormat.iBeacon.rawValue
        guard let format = BeaconFormat(rawValue: formatText), let own = identityMembers.first(where: { $0.format == format }) else {
            let formats = identityMembers.map { "\"\($0.format.rawValue)\"" }.joined(separator: ", ")
            throw fields.invalid("format", "expected one of \(formats), found \"\(formatText)\"")
        }
        for (_, members) in identityMembers where members != own.members {
            if let other = members.first(where: fields.has) {
                throw fields.invalid(other, "does not apply to format \"\(format.rawValue)\", whose identity is "
                                     + own.members.map { "'\($0)'" }.joined(separator: ", "))
            }
        }
        let power = Int8(try fields.integer("measuredPower", in: -127...20) ?? -59)
        func uuid(_ key: String) throws -> BeaconUUID {
            guard let uuid = try fields.parsed(key, expected: "a UUID of 8-4-4-4-12 hex digits", BeaconUUID.init) else {
                throw fields.missing(key)
            }
            return uuid
        }
        func eddystone(_ frame: EddystonePayload.Frame) throws -> AdvertisedBeacon {
            // Eddystone carries the power at 0 m: the measured power plus 41 dB, at most 20 dBm.
            guard let txPower = EddystonePayload.txPowerAt0m(measuredPower: power) else {
                throw fields.invalid("measuredPower", "an Eddystone beacon sends it as the power at 0 m, 41 dB more: expected -127...-21")
            }
            return .eddystone(EddystonePayload(frame: frame, txPowerAt0m: txPower))
        }
        switch format {
        case .altBeacon:
            return .altBeacon(AltBeacon(id1: try uuid("id1"), id2: UInt16(try fields.integer("id2", in: 0...65535) ?? 0),
                                        id3: UInt16(try fields.integer("id3", in: 0...65535) ?? 0), referenceRSSI: power))
        case .eddystoneUID:
            guard let namespace = try fields.parsed("namespace", expected: "20 hex digits", EddystoneNamespace.init) else {
                throw fields.missing("namespace")
            }
            let instance = try fields.parsed("instance", expected: "12 hex digits", EddystoneInstance.init) ?? EddystoneInstance(value: 0)
            return try eddystone(.uid(EddystoneUID(namespace: namespace, instance: instance)))
        case .eddystoneURL:
            let text = try fields.decode("url", as: String.self)
            let url: EddystoneURL
            do {
                url = try EddystoneURL(text)
            } catch {
                throw fields.invalid("url", "\(error)")
            }
            return try eddystone(.url(url))
        default:
            return .iBeacon(IBeacon(identity: IBeaconID(uuid: try uuid("uuid"), major: UInt16(try fields.integer("major", in: 0...65535) ?? 0),
                                                             minor: UInt16(try fields.integer("minor", in: 0...65535) ?? 0)),
                                    measuredPower: power))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var fields = FieldWriter(encoder)
        try fields.encode(beacon.format.rawValue, "format")
        switch beacon {
        case .iBeacon(let iBeacon):
            try fields.encode(iBeacon.identity.uuid.description, "uuid")
            try fields.encode(iBeacon.identity.major, "major")
            try fields.encode(iBeacon.identity.minor, "minor")
        case .altBeacon(let altBeacon):
            try fields.encode(altBeacon.identity.id1.description, "id1")
            try fields.encode(altBeacon.identity.id2, "id2")
            try fields.encode(altBeacon.identity.id3, "id3")
        case .eddystone(let payload):
            switch payload.frame {
            case .uid(let uid):
                try fields.encode(uid.namespace.description, "namespace")
                try fields.encode(uid.instance.description, "instance")
            case .url(let url):
                try fields.encode(url.description, "url")
            }
        }
        try fields.encode(beacon.measuredPower, "measuredPower")
        try fields.encode(address.description, "address")
        try fields.encode(addressType.name, "addressType")
        try fields.encode(interval, "interval")
        try fields.encode(jitter, "jitter")
        try fields.encode(start, "start")
        if let stop { try fields.encode(stop, "stop") }
        try fields.encode(scanResponse.rawValue, "scanResponse")
        try fields.encode(path, "path")
        if path.isOnFloorPlan { try fields.encode(height, "height") }
    }

    static func addressType(named name: String) -> AddressType? {
        switch name {
        case "public": .publicDevice
        case "random": .randomDevice
        default: nil
        }
    }
}

extension BeaconPath: Codable {
    /// The members of each kind of path, besides "kind".
    static let membersByKind: [(kind: String, members: [String])] = [
        ("standing", ["distance"]),
        ("walkingAwayAndBack", ["near", "far", "speed", "pause"]),
        ("passingBy", ["closest", "speed", "closestAt"]),
        ("leavingAndReturning", ["distance", "away", "speed", "leaveAt", "awayFor"]),
        ("at", ["point", "floor"]),
        ("route", ["speed", "points"]),
    ]
    public init(from decoder: any Decoder) throws {
        // The kind first: it says which members the path may have.
        let anyKind = try FieldReader(decoder, members: nil)
        let kind = try anyKind.decode("kind", as: String.self)
        guard let members = Self.membersByKind.first(where: { $0.kind == kind })?.members else {
            let kinds = Self.membersByKind.map { "\"\($0.kind)\"" }.joined(separator: ", ")
            throw anyKind.invalid("kind", "expected one of \(kinds), found \"\(kind)\"")
        }
        let fields = try FieldReader(decoder, members: ["kind"] + members)
        let speed = try fields.decodeIfPresent("speed") ?? Self.defaultSpeed
        switch kind {
        case "standing":
            self = .standing(distance: try fields.decode("distance"))
        case "walkingAwayAndBack":
            self = .walkingAwayAndBack(near: try fields.decode("near"), far: try fields.decode("far"), speed: speed,
                                       pause: try fields.duration("pause") ?? Micros(0))
        case "passingBy":
            self = .passingBy(closest: try fields.decode("closest"), speed: speed,
                              closestAt: try fields.requiredDuration("closestAt"))
        case "at":
            self = .at(try fields.point("point"), floor: try fields.integer("floor", in: -Site.maximumLevel...Site.maximumLevel) ?? 0)
        case "route":
            self = .route(Route(try fields.decode("points"), speed: speed))
        default:
            self = .leavingAndReturning(distance: try fields.decode("distance"), away: try fields.decode("away"), speed: speed,
                                        leaveAt: try fields.requiredDuration("leaveAt"),
                                        awayFor: try fields.requiredDuration("awayFor"))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var fields = FieldWriter(encoder)
        try fields.encode(kind, "kind")
        switch self {
        case .standing(let distance):
            try fields.encode(distance, "distance")
        case let .walkingAwayAndBack(near, far, speed, pause):
            try fields.encode(near, "near")
            try fields.encode(far, "far")
            try fields.encode(speed, "speed")
            try fields.encode(pause, "pause")
        case let .passingBy(closest, speed, closestAt):
            try fields.encode(closest, "closest")
            try fields.encode(speed, "speed")
            try fields.encode(closestAt, "closestAt")
        case let .leavingAndReturning(distance, away, speed, leaveAt, awayFor):
            try fields.encode(distance, "distance")
            try fields.encode(away, "away")
            try fields.encode(speed, "speed")
            try fields.encode(leaveAt, "leaveAt")
            try fields.encode(awayFor, "awayFor")
        case let .at(point, floor):
            try fields.encode(point, "point")
            if floor != 0 { try fields.encode(floor, "floor") }
        case .route(let route):
            try fields.encode(route.speed, "speed")
            try fields.encode(route.stops, "points")
        }
    }
}

extension Route.Stop: Codable {
    public init(from decoder: any Decoder) throws {
        let fields = try FieldReader(decoder, members: ["at", "time", "pause", "floor"])
        self.init(at: try fields.point("at"), time: try fields.duration("time"), pause: try fields.duration("pause") ?? Micros(0),
                  floor: try fields.integer("floor", in: -Site.maximumLevel...Site.maximumLevel) ?? 0)
    }

    public func encode(to encoder: any Encoder) throws {
        var fields = FieldWriter(encoder)
        try fields.encode(at, "at")
        if let time { try fields.encode(time, "time") }
        try fields.encode(pause, "pause")
        if floor != 0 { try fields.encode(floor, "floor") }
    }
}
