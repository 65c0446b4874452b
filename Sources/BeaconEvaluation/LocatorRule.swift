import BeaconCore

/// beacon locate's fuser (`Locator`) as a row of the fleet tables: fed the gateways' readings messages in
/// time order, each message arriving at its own time, and asked for the latest location it printed.
public struct LocatorRule: RoomRule {
    public let name = "beacon locate"
    private var locator: Locator
    private var latest: [String: LocatedBeacon] = [:]
    private var away: Set<String> = []

    public init(site: Site) {
        locator = Locator(site: site)
    }

    public mutating func add(_ message: GatewayReadings) {
        _ = locator.receive(message, arrival: message.time)
        var outputs: [LocateOutput] = []
        locator.advance(arrival: message.time) { outputs.append($0) }
        for output in outputs {
            switch output {
            case .location(let located):
                latest[located.beacon] = located
                away.remove(located.beacon)
            case .away(_, let beacon, _, _):
                away.insert(beacon)
            case .room:
                break
            }
        }
    }

    public mutating func add(_ reading: RoomReading) {
        // The fuser takes whole readings messages (add(_: GatewayReadings)), with their spreads.
    }

    public mutating func estimate(of beacon: String, at time: Timestamp) -> RoomEstimate {
        guard let located = latest[beacon], !away.contains(beacon) else { return RoomEstimate(time: time, room: nil) }
        return RoomEstimate(time: time, room: located.room, x: located.fix?.point.x, y: located.fix?.point.y)
    }
}
