import BeaconCore

/// A rule that places the beacon from the latest distances of the gateways heard within `window`, then
/// takes the room the place is in: two of ESPresense-companion's locators.
///
/// - `centroid`: its default, the Nadaraya-Watson multilateralizer (ESPresense/ESPresense-companion,
///   src/Locators/NadarayaWatsonMultilateralizer.cs). The gateways heard (`DeviceNode.Current`: a reading
///   within the node's timeout, 30 s by default), nearest first; none or one give no room; two give the
///   midpoint of their positions; three or more the centroid of the gateways' positions weighted
///   1 / (d² + 10⁻⁶). The room is the one whose polygon holds the point. The companion smooths the point (a
///   1€ or Kalman filter) and keeps the room while the point moves less than 0.1 m; neither is modelled
///   here, so this is the centroid as computed.
/// - `nearestGateway`: the gateway with the smallest distance heard within 5 s, its position and room (its
///   NearestNode locator, src/Locators/NearestNode.cs, at its default hysteresis margin of 0): the baseline
///   every fuser has to beat.
public struct GatewayPlacementRule: DistanceRoomRule {
    public enum Placement: Sendable {
        case centroid, nearestGateway
    }

    public let placement: Placement
    private var gateways: HeardGateways

    public static func centroid(site: Site, window: Micros = .seconds(30)) -> GatewayPlacementRule {
        GatewayPlacementRule(placement: .centroid, gateways: HeardGateways(site: site, window: window))
    }

    public static func nearestGateway(site: Site, window: Micros = .seconds(5)) -> GatewayPlacementRule {
        GatewayPlacementRule(placement: .nearestGateway, gateways: HeardGateways(site: site, window: window))
    }

    private init(placement: Placement, gateways: HeardGateways) {
        self.placement = placement
        self.gateways = gateways
    }

    public var name: String {
        switch placement {
        case .centroid: "ESPresense centroid"
        case .nearestGateway: "nearest gateway"
        }
    }

    public mutating func add(_ reading: RoomReading) { gateways.add(reading) }

    public mutating func estimate(of beacon: String, at time: Timestamp) -> RoomEstimate {
        let heard = gateways.heard(beacon, at: time).sorted { $0.distance < $1.distance }
        switch placement {
        case .nearestGateway:
            guard let nearest = heard.first else { return RoomEstimate(time: time, room: nil) }
            return RoomEstimate(time: time, room: gateways.site.roomName(of: nearest.gateway), x: nearest.gateway.x, y: nearest.gateway.y)
        case .centroid:
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
            // The companion locates per floor; the floor here is the nearest gateway's.
            let room = gateways.site.roomName(containing: Point2(x: x, y: y), floor: heard[0].gateway.floor)
            return RoomEstimate(time: time, room: room, x: x, y: y)
        }
    }
}

/// Each beacon's latest reading from each gateway of a site, and which of them are recent.
struct HeardGateways: Sendable {
    let site: Site
    /// How old a reading may be and still count as heard.
    let window: Micros
    private var readings: [String: [String: RoomReading]] = [:]

    init(site: Site, window: Micros) {
        self.site = site
        self.window = window
    }

    mutating func add(_ reading: RoomReading) {
        readings[reading.beacon, default: [:]][reading.gateway] = reading
    }

    /// The site's gateways that heard the beacon within `window` of `time`, with their latest distances, in
    /// gateway name order (so ties fall the same way every run).
    func heard(_ beacon: String, at time: Timestamp) -> [(distance: Double, gateway: SiteGateway)] {
        (readings[beacon] ?? [:]).values.filter { time - $0.time <= window }.sorted { $0.gateway < $1.gateway }
            .compactMap { reading in site.gateway(named: reading.gateway).map { (reading.distance, $0) } }
    }
}
