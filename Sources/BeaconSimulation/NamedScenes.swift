import BeaconCore

/// The scenes `beacon simulate --scene NAME` knows, each made to exercise one thing a ranger must get right.
extension Scene {
    /// Every built-in scene, in the order `beacon simulate --list` shows them.
    public static let allNamed: [Scene] = [desk, still, hallway, walkAway, lossyOffice, crowd, house]

    /// The built-in scene called `name`, nil when there is none.
    public static func named(_ name: String) -> Scene? {
        allNamed.first { $0.name == name }
    }

    /// Apple's AirLocate UUID, the one the README and docs/ use.
    static let sceneUUID = BeaconUUID(high: 0xE2C5_6DB5_DFFB_48D2, low: 0xB060_D0F5_A710_96E0)
    /// A second company's beacons, which the regions on `sceneUUID` must not count.
    static let otherUUID = BeaconUUID(high: 0x0000_0000_0000_4000, low: 0x8000_0000_0000_0001)

    static func beacon(_ index: Int, uuid: BeaconUUID = sceneUUID, major: UInt16, minor: UInt16, measuredPower: Int8 = -59,
                       path: BeaconPath) -> SceneBeacon {
        SceneBeacon(beacon: .iBeacon(IBeacon(identity: BeaconIdentity(uuid: uuid, major: major, minor: minor), measuredPower: measuredPower)),
                    address: SceneBeacon.defaultAddress(index: index), path: path)
    }

    static func region(_ name: String, uuid: BeaconUUID = sceneUUID, major: UInt16? = nil, minor: UInt16? = nil) -> NamedRegion {
        NamedRegion(name: name, region: BeaconRegion(uuid: uuid, major: major, minor: minor))
    }

    /// The steady baseline: little to get wrong.
    static let desk = Scene(
        name: "desk",
        summary: "One beacon on a desk 0.8 m from the receiver for 5 minutes: the steady baseline.",
        duration: .seconds(300),
        radio: RadioModel(shadowing: .init(sigma: 2)),
        regions: [region("desk", major: 1)],
        beacons: [beacon(0, major: 1, minor: 1, path: .standing(distance: 0.8))])

    /// On a proximity boundary: any change of proximity in the output is noise.
    static let still = Scene(
        name: "still",
        summary: "One beacon standing still 3 m away, on the near/far boundary, for 10 minutes: count the proximity flips.",
        duration: .seconds(600),
        regions: [region("still", major: 4)],
        beacons: [beacon(0, major: 4, minor: 1, path: .standing(distance: 3))])

    /// Movement of every kind, with bodies in the way.
    static let hallway = Scene(
        name: "hallway",
        summary: "A hallway for 10 minutes: a beacon on the wall 4 m away, one carried up and down between 1 m and 20 m, "
            + "two carried past by people walking by; bodies block now and then.",
        duration: .seconds(600),
        radio: RadioModel(pathLossExponent: 2.2, shadowing: .init(sigma: 4),
                          bodyBlocking: .init(attenuation: 8, every: .seconds(45), lasting: .seconds(4)), loss: 0.05),
        regions: [region("hallway"), region("wall", major: 1, minor: 1)],
        beacons: [
            beacon(0, major: 1, minor: 1, path: .standing(distance: 4)),
            beacon(1, major: 1, minor: 2, path: .walkingAwayAndBack(near: 1, far: 20, speed: 1.2, pause: .seconds(5))),
            withTimes(beacon(2, major: 2, minor: 3, path: .passingBy(closest: 1.5, speed: 1.4, closestAt: .seconds(120))),
                      start: .seconds(60), stop: .seconds(180)),
            withTimes(beacon(3, major: 2, minor: 4, path: .passingBy(closest: 0.5, speed: 1.3, closestAt: .seconds(420))),
                      start: .seconds(360), stop: .seconds(480)),
        ])

    /// Out of range and back: an exit, then an enter.
    static let walkAway = Scene(
        name: "walk-away",
        summary: "One beacon carried from 1 m to 60 m away (out of range beyond about 19 m), left there for a minute and "
            + "brought back, over 4 minutes: the region is exited and entered again.",
        duration: .seconds(240),
        radio: RadioModel(pathLossExponent: 3.2, shadowing: .init(sigma: 4), loss: 0.1),
        regions: [region("walk-away", major: 3)],
        beacons: [beacon(0, major: 3, minor: 1, path: .leavingAndReturning(distance: 1, away: 60, speed: 1.2,
                                                                             leaveAt: .seconds(30), awayFor: .seconds(60)))])

    /// Everything that makes reports scarce or odd, at once; the beacons never leave.
    static let lossyOffice = Scene(
        name: "lossy-office",
        summary: "An office for 10 minutes with 50 % packet loss, interference bursts, bodies in the way, RSSI not available "
            + "in some reports, scan responses, and legacy and extended reports mixed: the region must never be exited.",
        duration: .seconds(600),
        radio: RadioModel(pathLossExponent: 2.5, shadowing: .init(sigma: 5),
                          bodyBlocking: .init(attenuation: 10, every: .seconds(60), lasting: .seconds(5)), loss: 0.5,
                          interference: .init(loss: 0.95, every: .seconds(90), lasting: .seconds(4))),
        receiver: ReceiverModel(reports: .mixed, activeScanning: true, rssiUnavailable: 0.05),
        regions: [region("office", major: 2)],
        beacons: [
            withResponse(beacon(0, major: 2, minor: 1, path: .standing(distance: 2)), .name),
            withResponse(beacon(1, major: 2, minor: 2, path: .standing(distance: 5)), .beacon),
            withResponse(beacon(2, major: 2, minor: 3, path: .standing(distance: 8)), .empty),
        ])

    /// Many beacons coming and going, and another company's among them.
    static let crowd = Scene(
        name: "crowd",
        summary: "A busy floor for 10 minutes: 40 beacons standing, pacing, passing, leaving and returning, some switched on "
            + "late or off early, some advertising slowly, a quarter of them another company's.",
        duration: .seconds(600),
        radio: RadioModel(pathLossExponent: 2.4, shadowing: .init(sigma: 4),
                          bodyBlocking: .init(attenuation: 8, every: .seconds(90), lasting: .seconds(3)), loss: 0.1),
        regions: [region("floor"), region("floor-major-1", major: 1), region("other", uuid: otherUUID)],
        beacons: (0..<40).map(crowdBeacon))

    /// Beacon `i` of the crowd: every property cycles with a different period, so the mix is varied but fixed.
    static func crowdBeacon(_ i: Int) -> SceneBeacon {
        let path: BeaconPath
        switch i % 4 {
        case 0: path = .standing(distance: 1 + Double(i * 37 % 150) / 10)
        case 1: path = .walkingAwayAndBack(near: 1 + Double(i % 3), far: 8 + Double(i % 12), speed: 0.8 + 0.1 * Double(i % 6),
                                           pause: .seconds(3))
        case 2: path = .passingBy(closest: 0.5 + Double(i % 5), speed: 1 + 0.1 * Double(i % 5), closestAt: .seconds(Int64(i) * 14))
        default: path = .leavingAndReturning(distance: 2 + Double(i % 4), away: 35, speed: 1.2,
                                             leaveAt: .seconds(Int64(i * 10 % 300)), awayFor: .seconds(60))
        }
        var beacon = beacon(i, uuid: i % 4 == 3 ? otherUUID : sceneUUID, major: UInt16(1 + i % 3), minor: UInt16(i),
                            measuredPower: Int8(-62 + i % 7), path: path)
        if i % 6 == 5 { beacon.interval = .milliseconds(1000) }
        if i % 5 == 0 { beacon.start = .seconds(Int64(i) * 7) }
        if i % 7 == 3 { beacon.stop = .seconds(300 + Int64(i) * 5) }
        return beacon
    }

    /// A flat for `beacon locate`: rooms, walls, a gateway in each room, and beacons going from room to
    /// room and out of the flat.
    static let house = Scene(
        name: "house",
        summary: "A flat of five rooms behind 6 dB walls for 10 minutes, a gateway in each (--out is a directory of their captures): "
            + "a beacon carried through every room, one on a shelf 1 m from the living room's wall with the kitchen, one carried "
            + "out of the flat and back; range E2C56DB5-DFFB-48D2-B060-D0F5A71096E0.",
        duration: .seconds(600),
        radio: RadioModel(pathLossExponent: 2.2, dips: .init(share: 0.1, depth: 6)),
        regions: [],
        beacons: [
            beacon(0, major: 5, minor: 1, path: .route(Route([
                stop(3, 2.5, pause: .seconds(60)), stop(3, 6), stop(8, 6),
                stop(8, 2.5, pause: .seconds(120)), stop(8, 6),
                stop(8, 9, pause: .seconds(60)), stop(8, 6), stop(3, 6),
                stop(3, 9, time: .seconds(300), pause: .seconds(150)), stop(3, 6), stop(3, 2.5),
            ], speed: 1.0))),
            withHeight(beacon(1, major: 5, minor: 2, path: .at(Point2(x: 5, y: 2.5))), 1.5),
            beacon(2, major: 5, minor: 3, path: .route(Route([
                stop(2, 9, pause: .seconds(60)), stop(2, 6), stop(0, 6),
                stop(-150, 6, pause: .seconds(180)), stop(0, 6), stop(2, 6), stop(2, 9),
            ], speed: 1.4))),
        ],
        site: houseSite,
        gateways: [SceneGateway(name: "gw-kitchen", rssiOffset: -4, noise: 1.5), SceneGateway(name: "gw-bedroom", rssiOffset: 3),
                   SceneGateway(name: "gw-bathroom", noise: 2.5)])

    /// The flat: living room and kitchen on one side of the hall, bedroom and bathroom on the other;
    /// 6 dB between rooms, 12 dB outside walls.
    static let houseSite = Site(
        rooms: [
            Room(name: "living", polygon: rectangle(0, 0, 6, 5)),
            Room(name: "kitchen", polygon: rectangle(6, 0, 10, 5)),
            Room(name: "hall", polygon: rectangle(0, 5, 10, 7)),
            Room(name: "bedroom", polygon: rectangle(0, 7, 6, 11)),
            Room(name: "bathroom", polygon: rectangle(6, 7, 10, 11)),
        ],
        gateways: [
            SiteGateway(name: "gw-living", x: 0.5, y: 2.5, z: 1.0, room: "living"),
            SiteGateway(name: "gw-kitchen", x: 9.5, y: 0.5, z: 2.2, room: "kitchen"),
            SiteGateway(name: "gw-hall", x: 5, y: 6, z: 2.4, room: "hall"),
            SiteGateway(name: "gw-bedroom", x: 0.5, y: 10.5, z: 0.5, room: "bedroom"),
            SiteGateway(name: "gw-bathroom", x: 9.5, y: 10.5, z: 1.8, room: "bathroom"),
        ],
        walls: [
            wall(6, 0, 6, 5, 6), wall(0, 5, 10, 5, 6), wall(0, 7, 10, 7, 6), wall(6, 7, 6, 11, 6),
            wall(0, 0, 10, 0, 12), wall(10, 0, 10, 11, 12), wall(10, 11, 0, 11, 12), wall(0, 11, 0, 0, 12),
        ],
        floors: [Floor(level: 0, name: "flat", height: 2.6)])

    static func rectangle(_ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double) -> [Point2] {
        [Point2(x: x0, y: y0), Point2(x: x1, y: y0), Point2(x: x1, y: y1), Point2(x: x0, y: y1)]
    }

    static func wall(_ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double, _ attenuation: Double) -> Wall {
        Wall(from: Point2(x: x0, y: y0), to: Point2(x: x1, y: y1), attenuation: attenuation)
    }

    static func stop(_ x: Double, _ y: Double, time: Micros? = nil, pause: Micros = Micros(0)) -> Route.Stop {
        Route.Stop(at: Point2(x: x, y: y), time: time, pause: pause)
    }

    static func withHeight(_ beacon: SceneBeacon, _ height: Double) -> SceneBeacon {
        var beacon = beacon
        beacon.height = height
        return beacon
    }

    static func withTimes(_ beacon: SceneBeacon, start: Micros, stop: Micros) -> SceneBeacon {
        var beacon = beacon
        beacon.start = start
        beacon.stop = stop
        return beacon
    }

    static func withResponse(_ beacon: SceneBeacon, _ response: SceneBeacon.ScanResponse) -> SceneBeacon {
        var beacon = beacon
        beacon.scanResponse = response
        return beacon
    }
}
