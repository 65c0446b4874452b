import BeaconCore
import BeaconSimulation
import Testing

/// A 10 × 4 m site of two rooms split at x = 5, gateway "a" in the west room and "b" in the east one.
func twoRoomSite(walls: [Wall] = [], gatewayB: SiteGateway = SiteGateway(name: "b", x: 9, y: 2, z: 1)) -> Site {
    Site(rooms: [Room(name: "west", polygon: [Point2(x: 0, y: 0), Point2(x: 5, y: 0), Point2(x: 5, y: 4), Point2(x: 0, y: 4)]),
                 Room(name: "east", polygon: [Point2(x: 5, y: 0), Point2(x: 10, y: 0), Point2(x: 10, y: 4), Point2(x: 5, y: 4)])],
         gateways: [SiteGateway(name: "a", x: 1, y: 2, z: 1), gatewayB], walls: walls)
}

/// A site scene of one beacon on `path` (1 m up), the quiet radio unless given another.
func siteScene(_ path: BeaconPath = .at(Point2(x: 3, y: 2)), site: Site = twoRoomSite(), gateways: [SceneGateway] = [],
               radio: RadioModel = quietRadio, duration: Micros = .seconds(60)) -> Scene {
    var scene = oneBeaconScene(path, duration: duration, radio: radio)
    scene.site = site
    scene.gateways = gateways
    return scene
}

extension SimulationRecord {
    /// The RSSI of every report of the scene's beacons at gateway `receiver`, with its time.
    func reports(at receiver: Int) throws -> [(time: Timestamp, rssi: Int8)] {
        var found: [(time: Timestamp, rssi: Int8)] = []
        for packet in packets where packet.direction == .received && packet.receiver == receiver {
            try HCIEvent.forEachAdvertisingReport(inEvent: packet.packet.payload) { report in
                if !Self.isNeighbour(report.address) { found.append((packet.time, report.rssi)) }
            }
        }
        return found
    }
}

@Suite("Site scenes")
struct SiteSceneTests {
    @Test("every gateway of the site gets its own capture: scanning on and off, and the beacon's reports")
    func aCapturePerGateway() throws {
        let record = try simulate(siteScene(duration: .seconds(10)))
        #expect(Set(record.packets.map(\.receiver)) == [0, 1])
        for receiver in 0..<2 {
            let packets = record.packets.filter { $0.receiver == receiver }
            #expect(packets.filter { $0.direction == .sent }.count == 3) // parameters, enable, disable
            #expect(zip(packets, packets.dropFirst()).allSatisfy { $0.time <= $1.time })
            #expect(try record.reports(at: receiver).count > 50)
        }
    }

    @Test("a gateway that stops listening: its scanning goes off at its stop and nothing of it follows; the others go on")
    func gatewayStops() throws {
        let record = try simulate(siteScene(gateways: [SceneGateway(name: "a", stop: .seconds(4))], duration: .seconds(10)))
        let start = SceneSimulator.defaultStart
        let stop = start + .seconds(4), end = start + .seconds(10)
        let a = record.packets.filter { $0.receiver == 0 }, b = record.packets.filter { $0.receiver == 1 }
        #expect(a.filter { $0.direction == .sent }.map(\.time) == [start, start, stop])
        #expect(a.allSatisfy { $0.time <= stop })
        #expect(try record.reports(at: 0).allSatisfy { $0.time < stop })
        #expect(b.filter { $0.direction == .sent }.map(\.time).last == end)
        #expect(try record.reports(at: 1).contains { $0.time > stop })
        #expect(zip(record.packets, record.packets.dropFirst()).allSatisfy { $0.time <= $1.time })
    }

    @Test("one beacon, one air: every gateway that hears everything hears the same advertising events")
    func oneAir() throws {
        let record = try simulate(siteScene(.route(Route([Route.Stop(at: Point2(x: 1, y: 1)), Route.Stop(at: Point2(x: 9, y: 3))])),
                                            duration: .seconds(20)))
        let a = try record.reports(at: 0).map(\.time), b = try record.reports(at: 1).map(\.time)
        #expect(a.count > 150)
        #expect(a == b)
    }

    @Test("each gateway has neighbours of its own")
    func ownNeighbours() throws {
        let record = try simulate(siteScene(duration: .seconds(5)))
        var addresses: [Int: Set<DeviceAddress>] = [:]
        for packet in record.packets where packet.direction == .received {
            try HCIEvent.forEachAdvertisingReport(inEvent: packet.packet.payload) { report in
                if SimulationRecord.isNeighbour(report.address) { addresses[packet.receiver, default: []].insert(report.address) }
            }
        }
        #expect(addresses[0] == [Neighbours.address(index: 0)])
        #expect(addresses[1] == [Neighbours.address(index: 1)])
    }

    @Test("a wall between beacon and gateway takes exactly its attenuation off every report, and only at that gateway")
    func wallsLowerTheirAttenuation() throws {
        let wall = Wall(from: Point2(x: 5, y: 0), to: Point2(x: 5, y: 4), attenuation: 6)
        let open = try simulate(siteScene(site: twoRoomSite()))
        let walled = try simulate(siteScene(site: twoRoomSite(walls: [wall])))
        let openB = try open.reports(at: 1), walledB = try walled.reports(at: 1)
        #expect(openB.count > 500)
        #expect(openB.map(\.time) == walledB.map(\.time))
        #expect(zip(openB, walledB).allSatisfy { Int($0.rssi) - Int($1.rssi) == 6 })
        // The beacon and gateway a are on the same side of the wall.
        #expect(try open.reports(at: 0).map(\.rssi) == walled.reports(at: 0).map(\.rssi))
        #expect(walled.siteTruth.filter { $0.beaconIndex == 0 }.allSatisfy {
            abs($0.gateways[0].meanRSSI - open.siteTruth[0].gateways[0].meanRSSI) < 1e-9
                && abs($0.gateways[1].meanRSSI - (open.siteTruth[0].gateways[1].meanRSSI - 6)) < 1e-9
        })
    }

    @Test("a gateway's rssiOffset shifts everything it hears by that much")
    func rssiOffsetShifts() throws {
        let plain = try simulate(siteScene())
        let shifted = try simulate(siteScene(gateways: [SceneGateway(name: "b", rssiOffset: 3)]))
        #expect(try plain.reports(at: 1).map { Int($0.rssi) + 3 } == shifted.reports(at: 1).map { Int($0.rssi) })
        #expect(try plain.reports(at: 0).map(\.rssi) == shifted.reports(at: 0).map(\.rssi))
        #expect(abs(shifted.siteTruth[0].gateways[1].meanRSSI - plain.siteTruth[0].gateways[1].meanRSSI - 3) < 1e-9)
    }

    @Test("a gateway's noise spreads what it hears by about its standard deviation, around the same mean")
    func gatewayNoise() throws {
        let record = try simulate(siteScene(gateways: [SceneGateway(name: "b", noise: 4)], duration: .seconds(120)))
        let quiet = try record.reports(at: 0).map { Double($0.rssi) }, noisy = try record.reports(at: 1).map { Double($0.rssi) }
        let meanB = record.siteTruth[0].gateways[1].meanRSSI
        #expect(Set(quiet).count == 1)
        let deviation = (noisy.map { ($0 - meanB) * ($0 - meanB) }.reduce(0, +) / Double(noisy.count)).squareRoot()
        #expect(abs(mean(noisy) - meanB) < 0.5 && deviation > 3.5 && deviation < 4.5, "mean \(mean(noisy)), deviation \(deviation)")
    }

    @Test("dips: their share of packets, independently, comes exactly their depth low", arguments: [false, true])
    func dips(site: Bool) throws {
        var radio = quietRadio
        radio.dips = RadioModel.Dips(share: 0.25, depth: 6)
        let scene = site ? siteScene(radio: radio, duration: .seconds(120))
            : oneBeaconScene(.standing(distance: 2), duration: .seconds(120), radio: radio)
        let rssi = try simulate(scene, seed: 9).reports(at: 0).map(\.rssi)
        let top = try #require(rssi.max())
        #expect(rssi.allSatisfy { $0 == top || $0 == top - 6 })
        let share = Double(rssi.filter { $0 == top - 6 }.count) / Double(rssi.count)
        #expect(rssi.count > 1000 && abs(share - 0.25) < 0.05, "\(share) of \(rssi.count)")
    }

    @Test("the same site scene and seed give the same packets and rows; another seed gives others")
    func deterministic() throws {
        let scene = try #require(Scene.named("house")).with(duration: .seconds(20))
        let first = try simulate(scene, seed: 5)
        let again = try simulate(scene, seed: 5)
        let other = try simulate(scene, seed: 6)
        #expect(first.packets == again.packets && first.rows == again.rows)
        #expect(first.packets != other.packets)
        #expect(first.rows == other.rows) // the truth is the scene's, not the radio's
    }

    @Test("the truth: the beacon's point on its route, its room, and every gateway's distance, mean and audibility")
    func truthRows() throws {
        let route = Route([Route.Stop(at: Point2(x: 1, y: 3)), Route.Stop(at: Point2(x: 9, y: 3))], speed: 1)
        let wall = Wall(from: Point2(x: 5, y: 0), to: Point2(x: 5, y: 4), attenuation: 10)
        var scene = siteScene(.route(route), site: twoRoomSite(walls: [wall]), gateways: [SceneGateway(name: "a", rssiOffset: -2)],
                              duration: .seconds(12))
        scene.receiver.sensitivity = -75
        scene.beacons[0].stop = .seconds(11)
        let rows = try simulate(scene).siteTruth
        #expect(rows.count == 12)
        #expect(rows.map(\.point) == (0..<12).map { Point2(x: min(1 + Double($0), 9), y: 3) })
        #expect(rows.map(\.room) == (0..<12).map { 1 + $0 <= 5 ? "west" : "east" })
        let radio = scene.radio
        for row in rows {
            let toA = ((row.point.x - 1) * (row.point.x - 1) + 1).squareRoot(), toB = ((row.point.x - 9) * (row.point.x - 9) + 1).squareRoot()
            #expect(abs(row.gateways[0].distance - toA) < 1e-9 && abs(row.gateways[1].distance - toB) < 1e-9)
            let wallToA = row.point.x > 5 ? 10.0 : 0, wallToB = row.point.x < 5 ? 10.0 : 0
            #expect(abs(row.gateways[0].meanRSSI - (radio.meanRSSI(measuredPower: -59, distance: toA) - wallToA - 2)) < 1e-9)
            #expect(abs(row.gateways[1].meanRSSI - (radio.meanRSSI(measuredPower: -59, distance: toB) - wallToB)) < 1e-9)
            #expect(row.gateways.map(\.isAudible) == row.gateways.map { row.isAdvertising && $0.meanRSSI >= -75 })
        }
        #expect(rows.map(\.isAdvertising) == (0..<12).map { $0 < 11 })
    }

    @Test("a gateway on another floor hears through the slabs between, not the walls, from its floor's height above floor 0")
    func gatewayUpstairs() throws {
        let upstairs = SiteGateway(name: "b", x: 9, y: 2, z: 1.5, floor: 2)
        let wall = Wall(from: Point2(x: 5, y: 0), to: Point2(x: 5, y: 4), attenuation: 10)
        var site = twoRoomSite(walls: [wall], gatewayB: upstairs)
        // Floor 1's slab loses 7 dB, floor 2's is not described (none); floor 3's is above the gateway.
        site = Site(rooms: site.rooms, gateways: site.gateways, walls: site.walls,
                    floors: [Floor(level: 0, height: 2.5), Floor(level: 1, attenuation: 7), Floor(level: 3, attenuation: 30)])
        let row = try #require(try simulate(siteScene(site: site, duration: .seconds(1))).siteTruth.first)
        // Floor 2 is 2.5 m (floor 0) + 3 m (floor 1, by default) up; the gateway 1.5 m above it, the beacon 1 m up.
        let distance = (36.0 + 36.0).squareRoot()
        #expect(abs(row.gateways[1].distance - distance) < 1e-9)
        #expect(abs(row.gateways[1].meanRSSI - (quietRadio.meanRSSI(measuredPower: -59, distance: distance) - 7)) < 1e-9)
    }

    @Test("the nearest gateway hears the beacon loudest")
    func nearestIsLoudest() throws {
        let record = try simulate(siteScene(.at(Point2(x: 8, y: 1)), radio: RadioModel(), duration: .seconds(30)))
        let a = try record.reports(at: 0).map { Double($0.rssi) }, b = try record.reports(at: 1).map { Double($0.rssi) }
        #expect(mean(b) > mean(a) + 10, "\(mean(b)) vs \(mean(a))")
    }

    @Test("house: five gateways, three beacons, the walker in every room, the other out of every room and back")
    func house() throws {
        let scene = try #require(Scene.named("house"))
        try scene.validate()
        let site = try #require(scene.site)
        #expect(site.gateways.count == 5 && scene.beacons.count == 3 && scene.duration == .seconds(600))
        #expect(Set(site.gateways.compactMap(\.room)) == Set(site.rooms.map(\.name)))
        #expect(Set(site.gateways.map(\.z)).count == site.gateways.count)
        #expect(site.walls.contains { $0.attenuation == 6 })
        #expect(scene.radio.dips == RadioModel.Dips(share: 0.1, depth: 6))
        let ticks = (0..<600).map { Micros.seconds(Int64($0)) }
        let rooms = { (beacon: Int) in Set(ticks.map { site.room(containing: scene.beacons[beacon].path.place(at: $0), floor: 0) }) }
        #expect(rooms(0) == Set(site.rooms.indices.map { Optional($0) }))
        #expect(rooms(1).count == 1)
        #expect(rooms(2).contains(nil))
        let leaver = scene.beacons[2].path
        #expect(site.room(containing: leaver.place(at: .seconds(0)), floor: 0) == site.room(containing: leaver.place(at: .seconds(599)), floor: 0))
    }
}

@Suite("Site scene files")
struct SiteSceneFileTests {
    static let site = #"{"rooms": [{"name": "hall", "polygon": [[0, 0], [4, 0], [4, 4], [0, 4]]}], "gateways": [{"name": "gw1", "position": [2, 2, 1]}]}"#
    static let beacon = #"{"uuid": "E2C56DB5-DFFB-48D2-B060-D0F5A71096E0", "path": {"kind": "at", "point": [1, 1]}}"#

    func decode(_ text: String) throws(SceneError) -> Scene {
        try Scene.decode(json: Array(text.utf8))
    }

    @Test("a beacon climbing stairs: on the floor it left until half-way, its height climbing, the walls of its own floor and the slabs to the others")
    func stairs() throws {
        // Floor 0 (2.5 m high) with gateway a and a wall at x = 2; floor 1 (slab 7 dB) with gateway b and a wall at x = 8.
        let base = twoRoomSite(walls: [Wall(from: Point2(x: 2, y: 0), to: Point2(x: 2, y: 4), attenuation: 10),
                                       Wall(from: Point2(x: 8, y: 0), to: Point2(x: 8, y: 4), attenuation: 20, floor: 1)],
                               gatewayB: SiteGateway(name: "b", x: 9, y: 2, z: 1, floor: 1))
        let site = Site(rooms: base.rooms + base.rooms.map { Room(name: "up-" + $0.name, polygon: $0.polygon, floor: 1) },
                        gateways: base.gateways, walls: base.walls,
                        floors: [Floor(level: 0, height: 2.5), Floor(level: 1, attenuation: 7)])
        let route = Route([Route.Stop(at: Point2(x: 3, y: 2)), Route.Stop(at: Point2(x: 7, y: 2), time: .seconds(10), floor: 1)])
        let rows = try simulate(siteScene(.route(route), site: site, duration: .seconds(12))).siteTruth
        #expect(rows.map(\.floor) == [0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1])
        // At 5 s, half-way, it steps onto floor 1 on the rooms' shared wall (the first listed holds it).
        #expect(rows.map(\.room) == ["west", "west", "west", "west", "west", "up-west", "up-east", "up-east", "up-east", "up-east", "up-east", "up-east"])
        for row in rows {
            let share = min(row.elapsed.seconds / 10, 1), x = 3 + 4 * share, height = 2.5 * share + 1
            #expect(abs(row.point.x - x) < 1e-9)
            let toA = ((x - 1) * (x - 1) + (height - 1) * (height - 1)).squareRoot()
            let toB = ((x - 9) * (x - 9) + (height - 3.5) * (height - 3.5)).squareRoot()
            #expect(abs(row.gateways[0].distance - toA) < 1e-9 && abs(row.gateways[1].distance - toB) < 1e-9)
            // On its own floor a gateway hears through that floor's walls (a's at x = 2, b's at x = 8, each
            // always between); across the slab, the slab's 7 dB alone.
            let lossA = row.floor == 0 ? 10 : 7.0, lossB = row.floor == 1 ? 20 : 7.0
            #expect(abs(row.gateways[0].meanRSSI - (quietRadio.meanRSSI(measuredPower: -59, distance: toA) - lossA)) < 1e-9)
            #expect(abs(row.gateways[1].meanRSSI - (quietRadio.meanRSSI(measuredPower: -59, distance: toB) - lossB)) < 1e-9)
        }
        #expect(rows[6].jsonLine(gatewayNames: ["a", "b"]).contains(#""floor":1,"room":"up-east""#))
    }

    @Test("a beacon standing upstairs: its room there, its height above floor 0, the slab to the gateway below")
    func standingUpstairs() throws {
        let base = twoRoomSite()
        let site = Site(rooms: base.rooms + base.rooms.map { Room(name: "up-" + $0.name, polygon: $0.polygon, floor: 1) },
                        gateways: base.gateways, floors: [Floor(level: 0, height: 2.5), Floor(level: 1, attenuation: 9)])
        let row = try #require(try simulate(siteScene(.at(Point2(x: 3, y: 2), floor: 1), site: site, duration: .seconds(1))).siteTruth.first)
        #expect(row.floor == 1 && row.room == "up-west")
        let distance = (4.0 + 2.5 * 2.5).squareRoot()
        #expect(abs(row.gateways[0].distance - distance) < 1e-9)
        #expect(abs(row.gateways[0].meanRSSI - (quietRadio.meanRSSI(measuredPower: -59, distance: distance) - 9)) < 1e-9)
    }

    @Test("a site scene file: the site read as a site file is, gateways, dips, at, route and height")
    func decodes() throws {
        let scene = try decode("""
        {"duration": 60, "site": \(Self.site), "gateways": [{"name": "gw1", "rssiOffset": -3, "noise": 1.5}],
         "radio": {"dips": {"share": 0.1, "depth": 6}},
         "beacons": [\(Self.beacon), {"uuid": "E2C56DB5-DFFB-48D2-B060-D0F5A71096E0", "height": 0.5,
                      "path": {"kind": "route", "speed": 0.5, "points": [{"at": [1, 1], "pause": "5s"}, {"at": [3, 1], "time": 20, "floor": 1}]}},
                     {"uuid": "E2C56DB5-DFFB-48D2-B060-D0F5A71096E0", "path": {"kind": "at", "point": [2, 2], "floor": -1}}]}
        """)
        #expect(scene.site == (try Site.decode(Array(Self.site.utf8))))
        #expect(scene.gateways == [SceneGateway(name: "gw1", rssiOffset: -3, noise: 1.5)])
        #expect(scene.radio.dips == RadioModel.Dips(share: 0.1, depth: 6))
        #expect(scene.beacons[0].path == .at(Point2(x: 1, y: 1)) && scene.beacons[0].height == 1)
        #expect(scene.beacons[1].height == 0.5)
        #expect(scene.beacons[2].path == .at(Point2(x: 2, y: 2), floor: -1))
        #expect(scene.beacons[1].path == .route(Route([Route.Stop(at: Point2(x: 1, y: 1), pause: .seconds(5)),
                                                        Route.Stop(at: Point2(x: 3, y: 1), time: .seconds(20), floor: 1)], speed: 0.5)))
    }

    @Test("a site scene survives a trip through its scene file, site and all")
    func roundTrip() throws {
        let scene = try #require(Scene.named("house"))
        #expect(try Scene.decode(json: scene.json) == scene)
        let text = String(decoding: scene.json, as: UTF8.self)
        #expect(text.contains(#""gateways" : ["#) && text.contains(#""dips" : {"#) && text.contains(#""height" : 1.5"#))
    }

    @Test("a plain scene's file has no site, gateways, dips or heights")
    func plainSceneUnchanged() throws {
        let text = String(decoding: try #require(Scene.named("hallway")).json, as: UTF8.self)
        for member in ["\"site\"", "\"gateways\"", "\"dips\"", "\"height\""] { #expect(!text.contains(member), "\(member)") }
    }

    @Test("errors in a site scene name the field", arguments: [
        (#"{"duration": 60, "site": {"rooms": [{"name": "hall", "polygon": [[0, 0], [4, 0]]}], "gateways": []}, "beacons": []}"#,
         "site.rooms[0].polygon", "a polygon needs at least 3 points"),
        (#"{"duration": 60, "site": {"rooms": [], "gateways": [], "wals": []}, "beacons": []}"#, "site.wals", "did you mean 'walls'?"),
        (#"{"duration": 60, "site": [], "beacons": []}"#, "site", "expected an object, found an array"),
        (#"{"duration": 60, "site": {"rooms": [], "gateways": []}, "beacons": []}"#, "site.gateways", "at least one gateway"),
        (#"{"duration": 60, "site": \#(site), "gateways": [{"name": "gw9"}], "beacons": []}"#,
         "gateways[0].name", "the site has no gateway named 'gw9'"),
        (#"{"duration": 60, "site": \#(site), "gateways": [{"name": "gw1"}, {"name": "gw1"}], "beacons": []}"#,
         "gateways[1].name", "'gw1' is described twice"),
        (#"{"duration": 60, "site": \#(site), "gateways": [{"name": "gw1", "noise": -1}], "beacons": []}"#,
         "gateways[0].noise", "must be a number in 0...30"),
        (#"{"duration": 60, "site": \#(site), "gateways": [{"name": "gw1", "gain": 1}], "beacons": []}"#,
         "gateways[0].gain", "unknown member"),
        (#"{"duration": 60, "gateways": [{"name": "gw1"}], "beacons": []}"#, "gateways", "only a site scene has gateways"),
        (#"{"duration": 60, "site": \#(site), "beacons": [{"uuid": "E2C56DB5-DFFB-48D2-B060-D0F5A71096E0", "path": {"kind": "standing", "distance": 1}}]}"#,
         "beacons[0].path.kind", #"expected "at" or "route", found "standing""#),
        (#"{"duration": 60, "site": \#(site), "beacons": [{"uuid": "E2C56DB5-DFFB-48D2-B060-D0F5A71096E0", "path": {"kind": "passingBy", "closest": 1, "closestAt": 5}}]}"#,
         "beacons[0].path.kind", #"found "passingBy""#),
        (#"{"duration": 60, "beacons": [\#(beacon)]}"#, "beacons[0].path.kind", #""at" is a point on a site's floor plan: give the scene a site"#),
        (#"{"duration": 60, "beacons": [{"uuid": "E2C56DB5-DFFB-48D2-B060-D0F5A71096E0", "path": {"kind": "route", "points": [{"at": [0, 0]}]}}]}"#,
         "beacons[0].path.kind", #""route" is a point on a site's floor plan"#),
        (#"{"duration": 60, "beacons": [{"uuid": "E2C56DB5-DFFB-48D2-B060-D0F5A71096E0", "height": 2, "path": {"kind": "standing", "distance": 1}}]}"#,
         "beacons[0].height", "only a beacon on a site's floor plan"),
        (#"{"duration": 60, "site": \#(site), "beacons": [{"uuid": "E2C56DB5-DFFB-48D2-B060-D0F5A71096E0", "height": -1, "path": {"kind": "at", "point": [1, 1]}}]}"#,
         "beacons[0].height", "must be a number in 0...1000"),
        (#"{"duration": 60, "site": \#(site), "beacons": [{"uuid": "E2C56DB5-DFFB-48D2-B060-D0F5A71096E0", "path": {"kind": "at", "point": [1, 1, 1]}}]}"#,
         "beacons[0].path.point", "expected [x, y] in metres"),
        (#"{"duration": 60, "site": \#(site), "beacons": [{"uuid": "E2C56DB5-DFFB-48D2-B060-D0F5A71096E0", "path": {"kind": "at", "point": [20000, 1]}}]}"#,
         "beacons[0].path.point[0]", "must be a number in -10000...10000"),
        (#"{"duration": 60, "site": \#(site), "beacons": [{"uuid": "E2C56DB5-DFFB-48D2-B060-D0F5A71096E0", "path": {"kind": "route", "points": []}}]}"#,
         "beacons[0].path.points", "must hold at least one point"),
        (#"{"duration": 60, "site": \#(site), "beacons": [{"uuid": "E2C56DB5-DFFB-48D2-B060-D0F5A71096E0", "path": {"kind": "route", "points": [{"at": [0, 0], "time": 10}, {"at": [1, 0], "time": "5s"}]}}]}"#,
         "beacons[0].path.points[1].time", "goes back in time: the beacon leaves points[0] at 10.000s"),
        (#"{"duration": 60, "site": \#(site), "beacons": [{"uuid": "E2C56DB5-DFFB-48D2-B060-D0F5A71096E0", "path": {"kind": "route", "speed": 0, "points": [{"at": [0, 0]}]}}]}"#,
         "beacons[0].path.speed", "must be a number in 0.01...100"),
        (#"{"duration": 60, "site": \#(site), "beacons": [{"uuid": "E2C56DB5-DFFB-48D2-B060-D0F5A71096E0", "path": {"kind": "route", "points": [{"at": [0, 0], "wait": 1}]}}]}"#,
         "beacons[0].path.points[0].wait", "unknown member"),
        (#"{"duration": 60, "site": \#(site), "beacons": [{"uuid": "E2C56DB5-DFFB-48D2-B060-D0F5A71096E0", "path": {"kind": "route", "points": [{"at": [0, 0], "floor": 1001}]}}]}"#,
         "beacons[0].path.points[0].floor", "expected an integer in -1000...1000"),
        (#"{"duration": 60, "site": \#(site), "beacons": [{"uuid": "E2C56DB5-DFFB-48D2-B060-D0F5A71096E0", "path": {"kind": "route", "points": [{"at": [0, 0], "floor": 0.5}]}}]}"#,
         "beacons[0].path.points[0].floor", "expected an integer in -1000...1000"),
        (#"{"duration": 60, "site": \#(site), "beacons": [{"uuid": "E2C56DB5-DFFB-48D2-B060-D0F5A71096E0", "path": {"kind": "at", "point": [1, 1], "floor": "up"}}]}"#,
         "beacons[0].path.floor", "expected a number"),
        (#"{"duration": 60, "radio": {"dips": {"share": 2}}, "beacons": []}"#, "radio.dips.share", "must be a number in 0...1"),
        (#"{"duration": 60, "radio": {"dips": {"depth": -6}}, "beacons": []}"#, "radio.dips.depth", "must be a number in 0...100"),
    ])
    func errors(text: String, field: String, reason: String) {
        expectRefusal(text, field: field, reason: reason)
    }

    @Test("a site scene of more gateways than the limit is refused, naming it")
    func tooManyGateways() {
        let gateways = (0...Scene.maximumGateways).map { #"{"name": "g\#($0)", "position": [1, 1]}"# }.joined(separator: ",")
        let text = #"{"duration": 60, "site": {"rooms": [], "gateways": [\#(gateways)]}, "beacons": []}"#
        #expect(throws: SceneError(field: "site.gateways", "must be at most 100 gateways in a scene, not 101")) { try decode(text) }
    }
}

extension Scene {
    func with(duration: Micros) -> Scene {
        var scene = self
        scene.duration = duration
        return scene
    }
}
