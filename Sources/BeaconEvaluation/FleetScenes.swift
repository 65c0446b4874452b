import BeaconCore
import BeaconSimulation

/// A site scene the fleet evaluation runs: beacons walking a floor plan, each gateway's capture replayed
/// through `beacon range --gateway`, every rule fed the same readings.
public struct FleetScene: Sendable {
    public var scene: Scene
    /// Each seed is one run of the scene.
    public var seeds: [UInt64]
    /// What the scene measures, for the table's heading.
    public var purpose: String
    /// Its beacons walk one straight line at a constant speed: the table gets `StraightWalkReference`'s rows.
    public var straightWalk: Bool

    public var name: String { scene.name }

    public init(_ scene: Scene, seeds: [UInt64], purpose: String, straightWalk: Bool = false) {
        self.scene = scene
        self.seeds = seeds
        self.purpose = purpose
        self.straightWalk = straightWalk
    }

    /// The seeds `count` runs use: the scene evaluation's seed and the ones after it.
    static func seeds(_ count: Int) -> [UInt64] { (0..<UInt64(count)).map { SceneEvaluation.seed + $0 } }
}

/// The scenes of `make eval-fleet`.
public enum FleetScenes {
    /// The UUID every fleet scene's beacons advertise, as `beacon range --uuid` ranges it.
    public static let uuid = BeaconUUID("E2C56DB5-DFFB-48D2-B060-D0F5A71096E0")!

    /// ESPresense's accuracy scenario (its firmware's `baseline_4node_6x4m`, the one ESPresense-companion's
    /// accuracy harness publishes figures for): a 6 × 4 m floor of a 4 m living room and a 2 m bedroom, a
    /// gateway 0.2 m in from each corner, RSSI by log-distance path loss from −59 dBm at 1 m with exponent
    /// 3, 2.5 dB of Gaussian noise, and one reading in ten 6 dB low. Its distances are measured across the
    /// floor (the harness ignores the gateways' 2.4 m height), so here the gateways stand as high as the
    /// beacon; each gateway hears one advertisement a second, one reading per gateway per sample as the
    /// harness draws them.
    public static let companionSite = Site(
        rooms: [Room(name: "living", polygon: rectangle(0, 0, 4, 4)), Room(name: "bedroom", polygon: rectangle(4, 0, 6, 4))],
        gateways: [SiteGateway(name: "node-living-nw", x: 0.2, y: 3.8, z: beaconHeight, room: "living"),
                   SiteGateway(name: "node-living-sw", x: 0.2, y: 0.2, z: beaconHeight, room: "living"),
                   SiteGateway(name: "node-bedroom-ne", x: 5.8, y: 3.8, z: beaconHeight, room: "bedroom"),
                   SiteGateway(name: "node-bedroom-se", x: 5.8, y: 0.2, z: beaconHeight, room: "bedroom")])
    static let beaconHeight = 1.0
    static let companionRadio = RadioModel(pathLossExponent: 3, shadowing: .init(sigma: 0), channelOffsets: [0, 0, 0],
                                           fastFading: 2.5, dips: .init(share: 0.1, depth: 6))
    /// The harness's published figures for its NelderMead locator (ESPresense-companion,
    /// tests/ESPresense.Companion.Simulation/AccuracyHarness/Reports/baseline-v1.md): one solve per
    /// sample, no filtering over time.
    public static let companionPublished: [String: Scores] = [
        "companion-diagonal": [.positionMedian: 0.60, .positionP95: 1.33, .wrongRoom: 6.6],
        "companion-crossing": [.positionMedian: 0.60, .positionP95: 1.61, .wrongRoom: 22.3],
    ]

    /// The harness's `diagonal_walk`: (0.5, 0.5) to (3, 2) to (5.5, 3.5), 30 samples a leg, a sample a second.
    public static let diagonal = FleetScene(
        companion("companion-diagonal", "ESPresense's accuracy scenario, its diagonal walk from the living room into the bedroom",
                  duration: .seconds(61), path: route([(0.5, 0.5, 0), (3, 2, 30), (5.5, 3.5, 60)])),
        seeds: FleetScene.seeds(20), purpose: "position and room while walking slowly across the rooms", straightWalk: true)

    /// The harness's `living_to_bedroom`: (1, 2) to (3, 2) to (3.9, 2) to (4.1, 2) to (5, 2), 30 samples a
    /// leg: a second of its 30 within 0.1 m either side of the wall.
    public static let crossing = FleetScene(
        companion("companion-crossing", "ESPresense's accuracy scenario, its walk from the living room to the bedroom, lingering at the wall",
                  duration: .seconds(121), path: route([(1, 2, 0), (3, 2, 30), (3.9, 2, 60), (4.1, 2, 90), (5, 2, 120)])),
        seeds: FleetScene.seeds(20), purpose: "the room at a wall, crossed slowly")

    /// A beacon on a shelf 1 m from the wall between the rooms, for an hour.
    public static let standing = FleetScene(
        companion("standing-near-wall", "ESPresense's accuracy scenario's floor, a beacon standing 1 m from the wall for an hour",
                  duration: .seconds(3_600), path: .at(Point2(x: 3, y: 2))),
        seeds: FleetScene.seeds(3), purpose: "room flaps of a beacon standing still")

    /// Walks between the rooms at 1 m/s, standing 30 s in each room between walks.
    public static let moves = FleetScene(
        companion("room-moves", "ESPresense's accuracy scenario's floor, a beacon walked between the rooms ten times, 30 s in each",
                  duration: .seconds(360), path: movesRoute),
        seeds: FleetScene.seeds(5), purpose: "time to the right room after a move")

    /// The moves with one gateway of four (the bedroom's south-east) failing half-way.
    public static let gatewayOffline: FleetScene = {
        var scene = companion("gateway-offline", "the room moves, the bedroom's south-east gateway failing after 180 s",
                              duration: .seconds(360), path: movesRoute)
        scene.gateways = [SceneGateway(name: "node-bedroom-se", stop: .seconds(180))]
        return FleetScene(scene, seeds: FleetScene.seeds(5), purpose: "rooms with one gateway of four offline")
    }()

    /// The room moves on the ground floor of a two-storey house: the companion's floor, the same rooms
    /// upstairs (2.5 m floor to floor) and a gateway upstairs at the middle of each, as far from a beacon
    /// below it as the gateways downstairs often are, so it is often the loudest. The slab loses nothing
    /// (real ones lose a few dB to 25) and the site gives no attenuation for it: the harder case for the floor.
    public static let twoFloors = twoStoreys(
        "two-floors", "the room moves on the ground floor, a gateway upstairs above each room",
        downstairs: companionSite.gateways,
        upstairs: [SiteGateway(name: "node-upstairs-living", x: 2, y: 2, z: beaconHeight, room: "upstairs-living", floor: 1),
                   SiteGateway(name: "node-upstairs-bedroom", x: 5, y: 2, z: beaconHeight, room: "upstairs-bedroom", floor: 1)],
        purpose: "rooms on one floor with gateways on the floor above")

    /// `twoFloors` with a slab that loses 12 dB, which the site file does not give: the gateways upstairs
    /// read a beacon downstairs 12 dB low.
    public static let twoFloorsSlab = throughSlab(
        twoFloors, "two-floors-slab", "the room moves on the ground floor, a gateway upstairs above each room, through a 12 dB slab the site file does not give",
        purpose: "rooms on one floor with gateways upstairs, through a slab of unknown loss")

    /// The room moves on a floor of two gateways, one mid-room, under a floor of the companion's four
    /// corner gateways, through a slab the site file does not give that loses nothing: the floor that hears
    /// the beacon through more gateways is not the beacon's.
    public static let sparseFloor = twoStoreys(
        "sparse-floor", "the room moves on a floor of two gateways, one mid-room, the four corner gateways upstairs",
        downstairs: [SiteGateway(name: "node-living", x: 2, y: 2, z: beaconHeight, room: "living"),
                     SiteGateway(name: "node-bedroom", x: 5, y: 2, z: beaconHeight, room: "bedroom")],
        upstairs: companionSite.gateways.map { corner in
            SiteGateway(name: "node-upstairs-" + corner.name.dropFirst("node-".count), x: corner.x, y: corner.y, z: corner.z,
                        room: corner.room.map { "upstairs-" + $0 }, floor: 1)
        },
        purpose: "a beacon on a floor of fewer gateways than the one above")

    /// `twoFloors`' house, the beacon walked between the rooms downstairs, up the stairs (3 m, 3 s) to the
    /// rooms upstairs, and down again, 30 s at each place: floors that change, under a slab that loses
    /// nothing and a gateway upstairs over each room.
    public static let stairs = twoStoreys(
        "stairs", "the room moves on the ground floor, up the stairs to the rooms upstairs and down again, a gateway upstairs above each room",
        downstairs: twoFloors.scene.site?.gateways.filter { $0.floor == 0 } ?? [],
        upstairs: twoFloors.scene.site?.gateways.filter { $0.floor == 1 } ?? [],
        path: .route(Route([(1.5, 2.0, 0), (5, 2, 0), (2, 1, 0), (5.5, 3.5, 0), (5.5, 0.5, 1), (2, 2, 1), (5, 3, 1), (1.5, 3, 1),
                            (1.5, 0.5, 0), (5, 1.5, 0), (2, 2, 0)].map { Route.Stop(at: Point2(x: $0.0, y: $0.1), pause: .seconds(30), floor: $0.2) },
                           speed: 1)),
        purpose: "a beacon carried up the stairs and down again")

    /// `sparseFloor` through a 12 dB slab the site file does not give.
    public static let sparseFloorSlab = throughSlab(
        sparseFloor, "sparse-floor-slab",
        "the room moves on a floor of two gateways, one mid-room, the four corner gateways upstairs, through a 12 dB slab the site file does not give",
        purpose: "a beacon on a floor of fewer gateways, through a slab of unknown loss")

    /// A beacon on `path` (the room moves unless given another) on the companion's rooms (floor 0,
    /// `downstairs` gateways) and the same rooms 2.5 m up (floor 1, `upstairs` gateways), the slab between
    /// not in the site file and losing nothing.
    static func twoStoreys(_ name: String, _ summary: String, downstairs: [SiteGateway], upstairs: [SiteGateway],
                           path: BeaconPath = movesRoute, duration: Micros = .seconds(360), purpose: String) -> FleetScene {
        var scene = companion(name, summary, duration: duration, path: path)
        let rooms = companionSite.rooms.map { Room(name: "upstairs-" + $0.name, polygon: $0.polygon, floor: 1) }
        scene.site = Site(rooms: companionSite.rooms + rooms, gateways: downstairs + upstairs,
                          floors: [Floor(level: 0, height: 2.5), Floor(level: 1, height: 2.5)])
        return FleetScene(scene, seeds: FleetScene.seeds(5), purpose: purpose)
    }

    /// `storeys` with its gateways upstairs reading the beacon 12 dB low: a slab that loses 12 dB, which
    /// the site file does not give.
    static func throughSlab(_ storeys: FleetScene, _ name: String, _ summary: String, purpose: String) -> FleetScene {
        var scene = storeys.scene
        scene.name = name
        scene.summary = summary
        scene.gateways = scene.site?.gateways.filter { $0.floor == 1 }.map { SceneGateway(name: $0.name, rssiOffset: -12) } ?? []
        return FleetScene(scene, seeds: storeys.seeds, purpose: purpose)
    }

    /// The built-in `house`: five rooms behind walls, a gateway in each, three beacons at 10 Hz.
    public static let house = FleetScene(Scene.named("house")!, seeds: FleetScene.seeds(3),
                                         purpose: "rooms and walls, beacons walking, standing and leaving")

    public static let all = [diagonal, crossing, standing, moves, gatewayOffline, twoFloors, twoFloorsSlab, sparseFloor, sparseFloorSlab, stairs, house]

    static var movesRoute: BeaconPath {
        let places: [(Double, Double)] = [(1.5, 2), (5, 2), (2, 1), (5, 3), (1, 3), (4.8, 1), (2.5, 3.2), (5.2, 2.5), (1.2, 0.8), (5, 1.5), (2, 2)]
        return .route(Route(places.map { Route.Stop(at: Point2(x: $0.0, y: $0.1), pause: .seconds(30)) }, speed: 1))
    }

    /// One beacon of `path` on the companion floor with its radio, advertising once a second.
    static func companion(_ name: String, _ summary: String, duration: Micros, path: BeaconPath) -> Scene {
        var beacon = SceneBeacon(beacon: .iBeacon(IBeacon(identity: IBeaconID(uuid: uuid, major: 1, minor: 1), measuredPower: -59)),
                                 address: SceneBeacon.defaultAddress(index: 0), interval: .seconds(1), path: path)
        beacon.height = beaconHeight
        return Scene(name: name, summary: summary, duration: duration, radio: companionRadio, regions: [], beacons: [beacon],
                     site: companionSite)
    }

    /// Stops at (x, y) reached at t seconds.
    static func route(_ stops: [(Double, Double, Int64)]) -> BeaconPath {
        .route(Route(stops.map { Route.Stop(at: Point2(x: $0.0, y: $0.1), time: .seconds($0.2)) }))
    }

    static func rectangle(_ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double) -> [Point2] {
        [Point2(x: x0, y: y0), Point2(x: x1, y: y0), Point2(x: x1, y: y1), Point2(x: x0, y: y1)]
    }
}
