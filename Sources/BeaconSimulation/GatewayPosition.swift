import BeaconCore

/// Where a beacon is at one instant: its point (a plain scene's beacons: their distance along the x axis
/// from the receiver at the origin) and its height above floor 0.
struct BeaconPlace {
    var point: Point2
    var height: Double
}

/// A gateway of a site scene as a receiver: where it stands, and what it adds to what it hears.
struct GatewayPosition {
    /// The site, for its walls.
    let site: Site
    let point: Point2
    /// Metres above floor 0: its floor's elevation and its height above that floor.
    let height: Double
    /// On floor 0, with the beacons: only then do walls stand between them (a gateway on another floor
    /// hears through the slabs between, `floorLoss`).
    let isOnBeaconsFloor: Bool
    /// dB lost through the slabs between floor 0 and the gateway's (a slab of unknown loss loses none).
    let floorLoss: Double
    let rssiOffset: Double
    /// nil: the scene radio's.
    let pathLossExponent: Double?
    let noise: Double

    init(_ gateway: SiteGateway, in site: Site, settings: SceneGateway) {
        self.site = site
        point = gateway.point
        height = site.elevation(ofFloor: gateway.floor) + gateway.z
        isOnBeaconsFloor = gateway.floor == 0
        floorLoss = site.slabs(between: 0, and: gateway.floor).loss
        rssiOffset = settings.rssiOffset
        pathLossExponent = settings.pathLossExponent
        noise = settings.noise
    }

    /// Straight-line distance in metres to a beacon at `place`.
    func distance(to place: BeaconPlace) -> Double {
        let dx = place.point.x - point.x, dy = place.point.y - point.y, dz = place.height - height
        return (dx * dx + dy * dy + dz * dz).squareRoot()
    }

    /// dB lost in the walls (or floors) between a beacon at `point` on floor 0 and the gateway.
    func wallLoss(from point: Point2) -> Double {
        isOnBeaconsFloor ? site.wallsCrossed(from: point, to: self.point, floor: 0) : floorLoss
    }
}
