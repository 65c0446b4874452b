import BeaconCore

// The checks `Scene.validate()` runs, one extension per part of a scene.

/// Throws a `SceneError` for `field` unless `condition` holds.
func check(_ condition: Bool, _ field: String, _ reason: String) throws(SceneError) {
    guard condition else { throw SceneError(field: field, reason) }
}

/// A finite number in `range`.
func check(_ value: Double, in range: ClosedRange<Double>, _ field: String) throws(SceneError) {
    try check(value.isFinite && range.contains(value), field, "must be a number in \(format(range.lowerBound))...\(format(range.upperBound))")
}

/// Whole numbers without a decimal point.
private func format(_ value: Double) -> String {
    value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
}

extension RadioModel {
    func validate() throws(SceneError) {
        try check(pathLossExponent, in: 0.5...10, "radio.pathLossExponent")
        try check(shadowing.sigma, in: 0...30, "radio.shadowing.sigma")
        try check(shadowing.decorrelationDistance, in: 0.01...1000, "radio.shadowing.decorrelationDistance")
        try check(shadowing.decorrelationTime.value > 0, "radio.shadowing.decorrelationTime", "must be more than 0")
        try check(channelOffsets.count == 3, "radio.channelOffsets", "must be 3 numbers, for channels 37, 38 and 39")
        for (i, offset) in channelOffsets.enumerated() {
            try check(offset, in: -40...40, "radio.channelOffsets[\(i)]")
        }
        try check(fastFading, in: 0...30, "radio.fastFading")
        try check(loss, in: 0...1, "radio.loss")
        if let blocking = bodyBlocking {
            try check(blocking.attenuation, in: 0...100, "radio.bodyBlocking.attenuation")
            try blocking.episodes.validate(field: "radio.bodyBlocking")
        }
        if let interference {
            try check(interference.loss, in: 0...1, "radio.interference.loss")
            try interference.episodes.validate(field: "radio.interference")
        }
        if let dips {
            try check(dips.share, in: 0...1, "radio.dips.share")
            try check(dips.depth, in: 0...100, "radio.dips.depth")
        }
    }
}

extension RadioModel.Episodes {
    func validate(field: String) throws(SceneError) {
        try check(every.value > 0, "\(field).every", "must be more than 0")
        try check(lasting.value > 0, "\(field).lasting", "must be more than 0")
    }
}

extension ReceiverModel {
    func validate() throws(SceneError) {
        try check(sensitivity, in: -127...20, "receiver.sensitivity")
        try check(rssiUnavailable, in: 0...1, "receiver.rssiUnavailable")
        try check(extendedShare, in: 0...1, "receiver.extendedShare")
        // Core Vol 4 Part E 7.8.10: 0x0004...0x4000 slots of 0.625 ms.
        try check(scanInterval >= Micros(2500) && scanInterval <= .milliseconds(10_240), "receiver.scanInterval",
                  "must be 2.5ms...10.24s")
        try check(scanWindow >= Micros(2500) && scanWindow <= scanInterval, "receiver.scanWindow",
                  "must be at least 2.5ms and at most the scan interval")
    }
}

/// An advertising interval: Core Vol 6 Part B 4.4.2.2.1, advInterval 20 ms...10.24 s.
func checkAdvertisingInterval(_ interval: Micros, _ field: String) throws(SceneError) {
    try check(interval >= .milliseconds(20) && interval <= .milliseconds(10_240), field, "must be 20ms...10.24s")
}

extension Neighbours {
    func validate() throws(SceneError) {
        try check(Self.countRange.contains(count), "neighbours.count", "must be a whole number in 1...10000")
        try checkAdvertisingInterval(interval, "neighbours.interval")
    }
}

extension SceneBeacon {
    /// `inSite`: the scene has a site, so the beacon's path must be a point on its floor plan.
    func validate(field: String, inSite: Bool) throws(SceneError) {
        try checkAdvertisingInterval(interval, "\(field).interval")
        try check(jitter.value >= 0 && jitter <= interval, "\(field).jitter", "must be 0...the interval")
        try check(start.value >= 0, "\(field).start", "must not be negative")
        if let stop { try check(stop > start, "\(field).stop", "must be after start") }
        if inSite {
            try check(beacon.format == .iBeacon, "\(field).format",
                      "a site scene's beacons are iBeacons (its ground truth names them by UUID, major and minor), not \(beacon.format.rawValue)")
            try check(path.isOnFloorPlan, "\(field).path.kind",
                      "a site scene's beacons are points on its floor plan: expected \"at\" or \"route\", found \"\(path.kind)\"")
        } else {
            try check(!path.isOnFloorPlan, "\(field).path.kind",
                      "\"\(path.kind)\" is a point on a site's floor plan: give the scene a site, or a path that is a distance from the receiver")
        }
        try check(height, in: 0...1000, "\(field).height")
        try path.validate(field: "\(field).path")
    }
}

extension BeaconPath {
    /// Distances up to 10 km, speeds up to 100 m/s: anything a scene needs, and no overflow in the arithmetic.
    func validate(field: String) throws(SceneError) {
        let distances = 0.0...10_000
        let speeds = 0.01...100.0
        switch self {
        case .standing(let distance):
            try check(distance, in: distances, "\(field).distance")
        case let .walkingAwayAndBack(near, far, speed, pause):
            try check(near, in: distances, "\(field).near")
            try check(far, in: distances, "\(field).far")
            try check(speed, in: speeds, "\(field).speed")
            try check(pause.value >= 0, "\(field).pause", "must not be negative")
        case let .passingBy(closest, speed, _):
            try check(closest, in: distances, "\(field).closest")
            try check(speed, in: speeds, "\(field).speed")
        case let .leavingAndReturning(distance, away, speed, leaveAt, awayFor):
            try check(distance, in: distances, "\(field).distance")
            try check(away, in: distances, "\(field).away")
            try check(speed, in: speeds, "\(field).speed")
            try check(leaveAt.value >= 0, "\(field).leaveAt", "must not be negative")
            try check(awayFor.value >= 0, "\(field).awayFor", "must not be negative")
        case .at(let point, _):
            try check(point: point, "\(field).point")
        case .route(let route):
            try check(!route.stops.isEmpty, "\(field).points", "must hold at least one point")
            try check(route.stops.count <= Route.maximumStops, "\(field).points", "must hold at most \(Route.maximumStops) points")
            try check(route.speed, in: speeds, "\(field).speed")
            for (i, stop) in route.stops.enumerated() {
                try check(point: stop.at, "\(field).points[\(i)].at")
                try check(stop.pause.value >= 0, "\(field).points[\(i)].pause", "must not be negative")
            }
            if let i = route.firstBackwardsStop {
                try check(false, "\(field).points[\(i)].time",
                          "goes back in time: the beacon leaves points[\(i - 1)] at \(Route.text(seconds: route.departures[i - 1]))")
            }
        }
    }
}

/// A point of a site's floor plan, as far from the origin as a site's coordinates go.
func check(point: Point2, _ field: String) throws(SceneError) {
    let coordinates = -Site.maximumCoordinate...Site.maximumCoordinate
    try check(point.x, in: coordinates, "\(field)[0]")
    try check(point.y, in: coordinates, "\(field)[1]")
}

extension Scene {
    /// A site scene's site and gateways; a scene without a site has no gateways.
    func validateSite() throws(SceneError) {
        guard let site else {
            try check(gateways.isEmpty, "gateways", "only a site scene has gateways: give the scene a site")
            return
        }
        try check(!site.gateways.isEmpty, "site.gateways", "a site scene needs at least one gateway to hear its beacons")
        try check(site.gateways.count <= Self.maximumGateways, "site.gateways",
                  "must be at most \(Self.maximumGateways) gateways in a scene, not \(site.gateways.count)")
        var named: Set<String> = []
        for (i, gateway) in gateways.enumerated() {
            try check(site.gatewayIndex(named: gateway.name) != nil, "gateways[\(i)].name",
                      "the site has no gateway named '\(gateway.name)'")
            try check(named.insert(gateway.name).inserted, "gateways[\(i)].name", "'\(gateway.name)' is described twice")
            try check(gateway.rssiOffset, in: -50...50, "gateways[\(i)].rssiOffset")
            if let exponent = gateway.pathLossExponent { try check(exponent, in: 0.5...6, "gateways[\(i)].pathLossExponent") }
            try check(gateway.noise, in: 0...30, "gateways[\(i)].noise")
            if let stop = gateway.stop {
                try check(stop.value > 0 && stop <= duration, "gateways[\(i)].stop", "must be after the start and no later than the scene's duration")
            }
        }
    }
}
