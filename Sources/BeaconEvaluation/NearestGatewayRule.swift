import BeaconCore

/// The room of the gateway with the smallest latest distance among those heard within `window` (5 s), the
/// position that gateway's: the baseline every fuser has to beat (ESPresense-companion's NearestNode locator
/// without its hysteresis margin, whose default is 0).
public struct NearestGatewayRule: RoomRule {
    public let name = "nearest gateway"
    public let site: Site
    public let window: Micros
    private var latest = LatestReadings()

    public init(site: Site, window: Micros = .seconds(5)) {
        self.site = site
        self.window = window
    }

    public mutating func add(_ reading: RoomReading) {
        latest.add(reading)
    }

    public mutating func estimate(of beacon: String, at time: Timestamp) -> RoomEstimate {
        let nearest = latest.heard(beacon, at: time, within: window)
            .compactMap { reading in site.gateway(named: reading.gateway).map { (reading, $0) } }
            .min { $0.0.distance < $1.0.distance }
        guard let (_, gateway) = nearest else { return RoomEstimate(time: time, room: nil) }
        return RoomEstimate(time: time, room: site.roomName(of: gateway), x: gateway.x, y: gateway.y)
    }
}

/// Each beacon's latest reading from each gateway.
struct LatestReadings: Sendable {
    private var readings: [String: [String: RoomReading]] = [:]

    mutating func add(_ reading: RoomReading) {
        readings[reading.beacon, default: [:]][reading.gateway] = reading
    }

    /// The beacon's latest readings no older than `window` at `time`, in gateway name order (so ties fall
    /// the same way every run).
    func heard(_ beacon: String, at time: Timestamp, within window: Micros) -> [RoomReading] {
        (readings[beacon] ?? [:]).values.filter { time - $0.time <= window }.sorted { $0.gateway < $1.gateway }
    }
}
