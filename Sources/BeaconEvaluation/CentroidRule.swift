import BeaconCore

/// ESPresense-companion's default locator, the Nadaraya-Watson multilateralizer
/// (ESPresense/ESPresense-companion, src/Locators/NadarayaWatsonMultilateralizer.cs): the gateways heard
/// (`DeviceNode.Current`: a reading within the node's timeout, 30 s by default), nearest first; none or one
/// gives no room; two give the midpoint of their positions; three or more the centroid of the gateways'
/// positions weighted 1 / (d² + 10⁻⁶). The room is the one whose polygon holds the point's floor projection.
/// The companion smooths the point (a 1€ or Kalman filter) and keeps the room while the point moves less
/// than 0.1 m; neither is modelled here, so this is the centroid as computed.
public struct CentroidRule: RoomRule {
    public let name = "ESPresense centroid"
    public let site: Site
    public let window: Micros
    private var latest = LatestReadings()

    public init(site: Site, window: Micros = .seconds(30)) {
        self.site = site
        self.window = window
    }

    public mutating func add(_ reading: RoomReading) {
        latest.add(reading)
    }

    public mutating func estimate(of beacon: String, at time: Timestamp) -> RoomEstimate {
        let heard = latest.heard(beacon, at: time, within: window)
            .compactMap { reading in site.gateway(named: reading.gateway).map { (distance: reading.distance, gateway: $0) } }
            .sorted { $0.distance < $1.distance }
        guard heard.count > 1 else { return RoomEstimate(time: time, room: nil) }
        let x: Double, y: Double
        if heard.count < 3 {
            x = (heard[0].gateway.x + heard[1].gateway.x) / 2
            y = (heard[0].gateway.y + heard[1].gateway.y) / 2
        } else {
            let weights = heard.map { 1 / ($0.distance * $0.distance + 1e-6) }
            let total = weights.reduce(0, +)
            x = zip(heard, weights).reduce(0) { $0 + $1.0.gateway.x * $1.1 } / total
            y = zip(heard, weights).reduce(0) { $0 + $1.0.gateway.y * $1.1 } / total
        }
        // The companion locates per floor; the site's floor here is the nearest gateway's.
        return RoomEstimate(time: time, room: site.roomName(containing: Point2(x: x, y: y), floor: heard[0].gateway.floor), x: x, y: y)
    }
}
