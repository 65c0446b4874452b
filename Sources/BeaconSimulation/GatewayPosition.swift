import BeaconCore

/// Where a beacon is at one instant: its point (a plain scene's beacons: their distance along the x axis
/// from the receiver at the origin), the floor it is on and its height above floor 0.
struct BeaconPlace {
    var point: Point2
    var floor = 0
    var height: Double

    /// Where `beacon` is `elapsed` after the start of the scene, on `site`'s floors (its height above its
    /// floor added to the floor's elevation; on stairs, to the elevation climbed so far).
    init(_ beacon: SceneBeacon, at elapsed: Micros, site: Site?) {
        switch (beacon.path, site) {
        case let (.at(point, floor), site?):
            self.init(point: point, floor: floor, height: site.elevation(ofFloor: floor) + beacon.height)
        case let (.route(route), site?):
            let position = route.position(at: elapsed.seconds)
            let from = site.elevation(ofFloor: position.between.from), to = site.elevation(ofFloor: position.between.to)
            self.init(point: position.point, floor: position.floor, height: from + (to - from) * position.between.share + beacon.height)
        default:
            self.init(point: beacon.path.place(at: elapsed), height: beacon.height)
        }
    }

    init(point: Point2, floor: Int = 0, height: Double) {
        self.point = point
        self.floor = floor
        self.height = height
    }
}

/// A gateway of a site scene as a receiver: where it stands, and what it adds to what it hears.
struct GatewayPosition {
    /// The site, for its walls.
    let site: Site
    let point: Point2
    /// Metres above floor 0: its floor's elevation and its height above that floor.
    let height: Double
    /// The gateway's floor: walls stand between it and a beacon on the same floor; a beacon on another
    /// floor is heard through the slabs between (a slab of unknown loss loses none).
    let floor: Int
    let rssiOffset: Double
    /// nil: the scene radio's.
    let pathLossExponent: Double?
    let noise: Double

    init(_ gateway: SiteGateway, in site: Site, settings: SceneGateway) {
        self.site = site
        point = gateway.point
        height = site.elevation(ofFloor: gateway.floor) + gateway.z
        floor = gateway.floor
        rssiOffset = settings.rssiOffset
        pathLossExponent = settings.pathLossExponent
        noise = settings.noise
    }

    /// Straight-line distance in metres to a beacon at `place`.
    func distance(to place: BeaconPlace) -> Double {
        let dx = place.point.x - point.x, dy = place.point.y - point.y, dz = place.height - height
        return (dx * dx + dy * dy + dz * dz).squareRoot()
    }

    /// dB lost in the walls (or floors) between a beacon at `place` and the gateway.
    func wallLoss(from place: BeaconPlace) -> Double {
        site.loss(from: place.point, floor: place.floor, toGatewayAt: point, floor: floor)
    }
}
