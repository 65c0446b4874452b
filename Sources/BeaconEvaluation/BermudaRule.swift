import BeaconCore

/// Bermuda's area race (agittins/bermuda, the `MinDistanceSelector` of custom_components/bermuda and the
/// `_refresh_area_by_min_distance` it came from; constants from const.py), run at every query. The race is
/// between gateways, not rooms: the incumbent is the gateway that won last, and each other gateway
/// challenges it in turn (here in the site's order):
///
/// - A challenger older than `maxAdvertAge` (AREA_MAX_AD_AGE = max(DISTANCE_TIMEOUT / 3, 2 × UPDATE_INTERVAL)
///   = 10 s) or further than `maxRadius` (20 m) cannot race.
/// - With no incumbent, or one with no distance (Bermuda drops a distance older than DISTANCE_TIMEOUT, 30 s),
///   the challenger wins.
/// - A challenger further than the incumbent loses.
/// - A challenger in the incumbent's room wins when the incumbent's reading is more than 1 s older.
/// - With more than 3 readings of history, it wins when the furthest of its last 5 is nearer than the nearest
///   of the incumbent's last 5 and the difference is over 15 %.
/// - Otherwise it wins when the difference is at least 30 %.
///
/// The difference is Bermuda's `|a − b| / mean(a, b)`, not a share of the incumbent's distance: 30 % means
/// the challenger is at most 0.74 of the incumbent's distance, 15 % at most 0.86. Bermuda smooths distances
/// before the race; the readings here are raced as they come, and a gateway's history is its last readings
/// (Bermuda keeps one distance per update interval, about a second, which the scenario's gateways match).
public struct BermudaRule: DistanceRoomRule {
    public let name = "Bermuda"
    public let site: Site
    public static let maxAdvertAge = Micros.seconds(10)
    public static let distanceTimeout = Micros.seconds(30)
    public static let maxRadius = 20.0
    public static let outrightDifference = 0.30
    public static let historicalDifference = 0.15
    public static let minHistory = 3
    public static let historyWindow = 5
    /// HIST_KEEP_COUNT.
    static let historyKept = 10

    /// A gateway's readings of one beacon, newest first.
    private struct Advert {
        var history: [RoomReading]
        var latest: RoomReading { history[0] }
    }
    private var adverts: [String: [String: Advert]] = [:]
    private var incumbents: [String: String] = [:]

    public init(site: Site) {
        self.site = site
    }

    public mutating func add(_ reading: RoomReading) {
        var advert = adverts[reading.beacon]?[reading.gateway] ?? Advert(history: [])
        advert.history.insert(reading, at: 0)
        if advert.history.count > Self.historyKept { advert.history.removeLast() }
        adverts[reading.beacon, default: [:]][reading.gateway] = advert
    }

    public mutating func estimate(of beacon: String, at time: Timestamp) -> RoomEstimate {
        let heard = adverts[beacon] ?? [:]
        var incumbent = incumbents[beacon].flatMap { heard[$0] }
        for gateway in site.gateways {
            guard let challenger = heard[gateway.name], challenger.latest.gateway != incumbent?.latest.gateway,
                  time - challenger.latest.time <= Self.maxAdvertAge, challenger.latest.distance <= Self.maxRadius else { continue }
            guard let current = incumbent, time - current.latest.time <= Self.distanceTimeout else {
                incumbent = challenger
                continue
            }
            if wins(challenger, over: current, at: time) { incumbent = challenger }
        }
        incumbents[beacon] = incumbent?.latest.gateway
        let room = incumbent.flatMap { site.roomName(ofGateway: $0.latest.gateway) }
        return RoomEstimate(time: time, room: room)
    }

    private func wins(_ challenger: Advert, over incumbent: Advert, at time: Timestamp) -> Bool {
        let a = challenger.latest.distance, b = incumbent.latest.distance
        guard a <= b else { return false }
        let difference = a + b > 0 ? abs(a - b) / ((a + b) / 2) : 0
        let sameRoom = site.roomName(ofGateway: challenger.latest.gateway) == site.roomName(ofGateway: incumbent.latest.gateway)
        if sameRoom && (time - incumbent.latest.time).value > (time - challenger.latest.time).value + 1_000_000 { return true }
        if challenger.history.count > Self.minHistory,
           let furthest = challenger.history.prefix(Self.historyWindow).map(\.distance).max(),
           let nearest = incumbent.history.prefix(Self.historyWindow).map(\.distance).min(),
           furthest < nearest && difference > Self.historicalDifference {
            return true
        }
        return difference >= Self.outrightDifference
    }
}
