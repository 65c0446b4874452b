import BeaconCore
import BeaconSimulation

/// Where the beacon really was at one time.
public struct TruthPoint: Equatable, Sendable {
    public var time: Timestamp
    public var x: Double
    public var y: Double
    /// The room containing the point; nil outside every room.
    public var room: String?

    public init(time: Timestamp, x: Double, y: Double, room: String?) {
        self.time = time
        self.x = x
        self.y = y
        self.room = room
    }
}

/// A walk on a floor plan: stand at the first waypoint, walk through the others at a steady speed, stand at
/// the last.
public struct FleetTrack: Sendable {
    public var name: String
    public var waypoints: [Point2]
    public var speed: Double
    public var standing: Micros

    public init(name: String, waypoints: [Point2], speed: Double = 0.5, standing: Micros = .seconds(60)) {
        self.name = name
        self.waypoints = waypoints
        self.speed = speed
        self.standing = standing
    }

    public var length: Double {
        zip(waypoints, waypoints.dropFirst()).reduce(0) { $0 + $1.0.distance(to: $1.1) }
    }

    /// Standing, walking, standing, rounded up to whole seconds.
    public var duration: Micros {
        let walking = Int64((length / speed * 1_000_000).rounded(.up))
        let total = 2 * standing.value + walking
        return Micros((total + 999_999) / 1_000_000 * 1_000_000)
    }

    /// The position `elapsed` after the start.
    public func position(after elapsed: Micros) -> Point2 {
        var remaining = max(0, Micros(elapsed.value - standing.value).seconds) * speed
        for (from, to) in zip(waypoints, waypoints.dropFirst()) {
            let leg = from.distance(to: to)
            if remaining < leg {
                let share = remaining / leg
                return Point2(x: from.x + (to.x - from.x) * share, y: from.y + (to.y - from.y) * share)
            }
            remaining -= leg
        }
        return waypoints[waypoints.count - 1]
    }
}

/// One track walked through the fleet scenario's radio: every gateway's readings messages and the truth.
public struct FleetScenario: Sendable {
    public var track: FleetTrack
    public var seed: UInt64
    /// Every gateway's messages, in time order.
    public var messages: [GatewayReadings]
    /// The truth at every whole second of the track.
    public var truth: [TruthPoint]

    /// The scenario ESPresense-companion's locators are usually shown on; their documentation publishes no
    /// accuracy scenario of its own, so its parts are the ones this evaluation fixes: a 6 × 4 m floor of two
    /// 3 × 4 m rooms side by side, one gateway in each corner 2.0 m up, the beacon carried 1.0 m up; RSSI
    /// by log-distance path loss (−59 dBm at 1 m, exponent 2.0), 2.5 dB Gaussian noise, and one reading in ten
    /// 6 dB low (a body in the way). Each gateway reports once a second, the gateways a quarter second apart;
    /// distances are estimated with the same path-loss model.
    public static let site = Site(
        rooms: [Room(name: "west", polygon: [Point2(x: 0, y: 0), Point2(x: 3, y: 0), Point2(x: 3, y: 4), Point2(x: 0, y: 4)]),
                Room(name: "east", polygon: [Point2(x: 3, y: 0), Point2(x: 6, y: 0), Point2(x: 6, y: 4), Point2(x: 3, y: 4)])],
        gateways: [SiteGateway(name: "west-south", x: 0, y: 0, z: gatewayHeight, room: "west"),
                   SiteGateway(name: "west-north", x: 0, y: 4, z: gatewayHeight, room: "west"),
                   SiteGateway(name: "east-south", x: 6, y: 0, z: gatewayHeight, room: "east"),
                   SiteGateway(name: "east-north", x: 6, y: 4, z: gatewayHeight, room: "east")])
    public static let gatewayHeight = 2.0
    public static let beaconHeight = 1.0
    public static let measuredPower: Int8 = -59
    public static let pathLossExponent = 2.0
    public static let noise = 2.5
    public static let lowShare = 0.1
    public static let lowBy = 6.0
    public static let beacon = "fleet-tag"
    /// 2026-01-01T00:00:00Z.
    public static let start = Timestamp(microseconds: 1_767_225_600_000_000)
    static let gatewayStagger = Micros.milliseconds(250)

    /// Corner to corner, half a metre in from the walls: west room to east room across the middle.
    public static let diagonal = FleetTrack(name: "diagonal", waypoints: [Point2(x: 0.5, y: 0.5), Point2(x: 5.5, y: 3.5)])
    /// A quarter metre from the rooms' shared wall: up its west side, across, down its east side.
    public static let boundary = FleetTrack(name: "boundary", waypoints: [
        Point2(x: 2.75, y: 0.5), Point2(x: 2.75, y: 3.5), Point2(x: 3.25, y: 3.5), Point2(x: 3.25, y: 0.5)])
    public static let tracks = [diagonal, boundary]

    public init(_ track: FleetTrack, seed: UInt64) {
        self.track = track
        self.seed = seed
        let radio = RadioModel(pathLossExponent: Self.pathLossExponent, shadowing: .init(sigma: 0), channelOffsets: [0, 0, 0], fastFading: 0)
        let estimate = DistanceModel.logDistance(exponent: Self.pathLossExponent)
        var draws = Self.site.gateways.indices.map { SplitMix64.stream(seed: seed, index: UInt64($0)) }
        var messages: [GatewayReadings] = []
        var truth: [TruthPoint] = []
        var second: Int64 = 0
        while Micros.seconds(second) <= track.duration {
            let elapsed = Micros.seconds(second)
            let here = track.position(after: elapsed)
            truth.append(TruthPoint(time: Self.start + elapsed, x: here.x, y: here.y,
                                    room: Self.site.roomName(containing: here, floor: 0)))
            for (index, gateway) in Self.site.gateways.enumerated() {
                let offset = Micros(elapsed.value + Int64(index) * Self.gatewayStagger.value)
                let position = track.position(after: offset)
                let height = gateway.z - Self.beaconHeight
                let distance = (position.distance(to: gateway.point) * position.distance(to: gateway.point)
                                + height * height).squareRoot()
                var rssi = radio.meanRSSI(measuredPower: Self.measuredPower, distance: distance) + Self.noise * draws[index].normal()
                if draws[index].chance(Self.lowShare) { rssi -= Self.lowBy }
                let reading = BeaconReading(id: Self.beacon, rssi: rssi, filteredRSSI: rssi, spread: 0, samples: 1,
                                            measuredPower: Int(Self.measuredPower),
                                            accuracy: estimate.distance(rssi: rssi, measuredPower: Double(Self.measuredPower)))
                messages.append(GatewayReadings(gateway: gateway.name, time: Self.start + offset, sequence: Int(second) + 1,
                                                readings: [reading]))
            }
            second += 1
        }
        self.messages = messages
        self.truth = truth
    }
}
