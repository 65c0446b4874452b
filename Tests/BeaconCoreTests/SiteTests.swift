import BeaconCore
import BeaconSimulation
import Foundation
import SchemaValidation
import Testing

@Suite struct SiteTests {
    static let minimal = #"{"rooms":[{"name":"hall","polygon":[[0,0],[4,0],[4,4],[0,4]]}],"gateways":[{"name":"gw1","position":[2,2,1],"room":"hall"}]}"#

    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The ```json blocks of docs/site.md.
    static func documentedSites() throws -> [String] {
        let markdown = try String(contentsOf: root.appendingPathComponent("docs/site.md"), encoding: .utf8)
        return markdown.components(separatedBy: "```json\n").dropFirst().compactMap { $0.components(separatedBy: "```").first }
    }

    private func decode(_ text: String) throws(SiteError) -> Site { try Site.decode(Array(text.utf8)) }

    private func refusal(_ text: String) -> String? {
        do {
            _ = try decode(text)
            return nil
        } catch {
            return error.description
        }
    }

    /// `minimal` with its gateways replaced.
    private func withGateways(_ gateways: String) -> String {
        #"{"rooms":[{"name":"hall","polygon":[[0,0],[4,0],[4,4],[0,4]]},{"name":"up","polygon":[[0,0],[4,0],[4,4]],"floor":1}],"gateways":\#(gateways)}"#
    }

    @Test func decodesTheMinimalFormWithItsDefaults() throws {
        let site = try decode(Self.minimal)
        #expect(site.rooms == [Room(name: "hall", polygon: [Point2(x: 0, y: 0), Point2(x: 4, y: 0), Point2(x: 4, y: 4), Point2(x: 0, y: 4)])])
        #expect(site.rooms[0].floor == 0)
        #expect(site.rooms[0].centre == Point2(x: 2, y: 2))
        #expect(site.gateways == [SiteGateway(name: "gw1", x: 2, y: 2, z: 1, room: "hall", floor: 0)])
        #expect(site.walls.isEmpty && site.floors.isEmpty)
    }

    @Test func theDocumentedSitesDecodeOneWithEveryMember() throws {
        let documents = try Self.documentedSites()
        #expect(documents.count >= 2)
        for text in documents {
            #expect(throws: Never.self) { try decode(text) }
        }
        let full = try decode(documents.last!)
        #expect(!full.walls.isEmpty && !full.floors.isEmpty)
        #expect(full.floors.contains { $0.name != nil })
        #expect(full.floors.contains { $0.attenuation != nil })
        #expect(full.rooms.contains { $0.floor != 0 })
    }

    @Test func aSiteWrittenInSiteFileFormReadsBackTheSameSite() throws {
        for text in try Self.documentedSites() {
            let site = try decode(text)
            #expect(try Site.decode(site.jsonValue) == site)
            #expect(try Site.decode(site.json) == site)
        }
        let inferred = try decode(withGateways(#"[{"name":"a","position":[3,1]},{"name":"b","position":[9,9],"floor":1}]"#))
        #expect(try Site.decode(inferred.jsonValue) == inferred)
    }

    @Test func aSiteWrittenInSiteFileFormValidatesAgainstTheSchema() throws {
        let documents = try Self.documentedSites().map { text in
            String(decoding: try decode(text).json, as: UTF8.self).replacingOccurrences(of: "\n", with: " ")
        }
        #expect(try SchemaValidator.problems(documents, schema: "site.schema.json") == documents.map { _ in nil })
    }

    @Test func floorsStackTheirHeightsAboveAndBelowFloorZero() {
        let site = Site(rooms: [], gateways: [], floors: [Floor(level: 0, height: 2.5), Floor(level: 1, height: 4), Floor(level: -1, height: 2)])
        #expect(site.elevation(ofFloor: 0) == 0)
        #expect(site.elevation(ofFloor: 1) == 2.5)
        #expect(site.elevation(ofFloor: 3) == 2.5 + 4 + 3)
        #expect(site.elevation(ofFloor: -1) == -2)
        #expect(site.elevation(ofFloor: -2) == -5)
    }

    @Test func theDocumentedSitesValidateAgainstTheSchema() throws {
        // One document per line: newlines in JSON are whitespace between tokens.
        let documents = try Self.documentedSites().map { $0.replacingOccurrences(of: "\n", with: " ") }
        #expect(try SchemaValidator.problems(documents, schema: "site.schema.json") == documents.map { _ in nil })
    }

    @Test func aGatewayWithoutARoomIsInTheRoomHoldingItsPositionAndOnItsFloor() throws {
        let site = try decode(withGateways(#"[{"name":"a","position":[3,1]},{"name":"b","position":[3,1],"floor":1},{"name":"c","position":[9,9]},{"name":"d","position":[1,1],"room":"up"}]"#))
        #expect(site.gateways.map(\.room) == ["hall", "up", nil, "up"])
        #expect(site.gateways.map(\.floor) == [0, 1, 0, 1])
        #expect(site.gateways[0].z == 1.0)
        #expect(site.gatewayIndex(named: "c") == 2)
        #expect(site.gatewayIndex(named: "zz") == nil)
    }

    @Test("a gateway's own beacon is found by its id, and written back")
    func gatewayBeacon() throws {
        let site = try decode(withGateways(#"[{"name":"a","position":[3,1],"beacon":"b1"},{"name":"b","position":[3,2]}]"#))
        #expect(site.gateways.map(\.beacon) == ["b1", nil])
        #expect(site.gatewayIndex(ofBeacon: "b1") == 0)
        #expect(site.gatewayIndex(ofBeacon: "b") == nil)
        #expect(site.hasGatewayBeacons)
        #expect(try Site.decode(site.jsonValue) == site)
    }

    @Test("a path between floors crosses each slab between them, the upper floor's of each pair, whichever way it goes; a slab without an attenuation is unknown")
    func slabsBetweenFloors() {
        let site = Site(rooms: [], gateways: [], floors: [Floor(level: 0, attenuation: 5), Floor(level: 1, attenuation: 12),
                                                          Floor(level: 2, attenuation: 15), Floor(level: -1, attenuation: 20),
                                                          Floor(level: 5)])
        #expect(site.slabs(between: 0, and: 0) == (0, 0))
        #expect(site.slabs(between: 0, and: 1) == (12, 0))
        #expect(site.slabs(between: 1, and: 0) == (12, 0))
        #expect(site.slabs(between: 0, and: 2) == (27, 0))
        #expect(site.slabs(between: -1, and: 1) == (17, 0))
        #expect(site.slabs(between: 2, and: 5) == (0, 3), "floors 3 and 4 are not described, 5 has no attenuation")
        #expect(site.slabs(between: 1, and: 4) == (15, 2))
    }

    @Test(arguments: [
        (#"{"rooms":[{"name":"hall","polgon":[[0,0],[4,0],[4,4]]}],"gateways":[]}"#, "rooms[0].polgon: unknown member (expected 'name', 'polygon', 'floor'); did you mean 'polygon'?"),
        (#"{"rooms":[],"gateways":[],"extra":1}"#, "extra: unknown member (expected 'rooms', 'gateways', 'walls', 'floors', 'beacons')"),
        (#"{"rooms":[]}"#, "gateways: missing"),
        (#"{"rooms":[{"name":"hall","polygon":[[0,0],[4,0]]}],"gateways":[]}"#, "rooms[0].polygon: a polygon needs at least 3 points, found 2"),
        (#"{"rooms":[{"name":"","polygon":[[0,0],[4,0],[4,4]]}],"gateways":[]}"#, "rooms[0].name: a name may not be empty"),
        (#"{"rooms":[{"name":"a\u0007","polygon":[[0,0],[4,0],[4,4]]}],"gateways":[]}"#, "rooms[0].name: a name may not hold control characters or noncharacters"),
        (#"{"rooms":[{"name":"a","polygon":[[0,0],[4,0],[4,4]]},{"name":"a","polygon":[[0,0],[4,0],[4,4]]}],"gateways":[]}"#, "rooms[1].name: duplicate room name 'a' (also rooms[0])"),
        (#"{"rooms":[{"name":"a","polygon":[[0,0],[4,0],[4,10001]]}],"gateways":[]}"#, "rooms[0].polygon[2][1]: expected a coordinate within ±10000 m"),
        (#"{"rooms":[{"name":"a","polygon":[[0,0],[4,0],[4,1e400]]}],"gateways":[]}"#, "not valid JSON: number out of range"),
        (#"{"rooms":[],"gateways":[{"name":"g","position":[1]}]}"#, "gateways[0].position: expected [x, y] or [x, y, z] in metres"),
        (#"{"rooms":[],"gateways":[{"name":"g","position":[1,2]},{"name":"g","position":[1,2]}]}"#, "gateways[1].name: duplicate gateway name 'g' (also gateways[0])"),
        (#"{"rooms":[],"gateways":[{"name":"g","position":[1,2],"room":"kitchen"}]}"#, "gateways[0].room: no room is named 'kitchen'"),
        (#"{"rooms":[],"gateways":[{"name":"g","position":[1,2],"beacon":"x"},{"name":"h","position":[1,2],"beacon":"x"}]}"#, "gateways[1].beacon: duplicate gateway beacon 'x' (also gateways[0])"),
        (#"{"rooms":[],"gateways":[{"name":"g","position":[1,2],"beacon":""}]}"#, "gateways[0].beacon: a name may not be empty"),
        (#"{"rooms":[],"gateways":[],"walls":[{"from":[0,0],"to":[1,1],"attenuation":-1}]}"#, "walls[0].attenuation: -1.0 is outside 0.0...100.0"),
        (#"{"rooms":[],"gateways":[],"floors":[{"level":0.5}]}"#, "floors[0].level: a floor level is a whole number, found 0.5"),
        (#"{"rooms":[],"gateways":[],"floors":[{"level":1,"attenuation":101}]}"#, "floors[0].attenuation: 101.0 is outside 0.0...100.0"),
        (#"{"rooms":[],"gateways":[],"floors":[{"level":1},{"level":1}]}"#, "floors[1].level: duplicate floor level '1' (also floors[0])"),
        (#"{"rooms":{},"gateways":[]}"#, "rooms: expected an array, found an object"),
        ("[]", "expected an object, found an array"),
        ("{", "not valid JSON: unexpected end of input, expected a member name in quotes"),
    ])
    func refusesNamingTheField(text: String, reason: String) {
        #expect(refusal(text) == reason)
    }

    @Test("text that is not JSON names the line and column of the fault, as FILE:LINE:COLUMN")
    func syntaxErrorCarriesItsPosition() {
        #expect(throws: SiteError(field: "", reason: "not valid JSON: expected ':'", position: .init(line: 3, column: 14))) {
            try Site.decode(Array("{\n  \"rooms\": [],\n  \"gateways\" []\n}".utf8))
        }
        #expect(JSONParseError.Position(line: 3, column: 14).inFile("site.json") == "site.json:3:14")
    }

    @Test func refusesMoreRoomsThanTheLimit() {
        let rooms = (0...Site.maximumRooms).map { #"{"name":"r\#($0)","polygon":[[0,0],[1,0],[1,1]]}"# }.joined(separator: ",")
        #expect(refusal(#"{"rooms":[\#(rooms)],"gateways":[]}"#) == "rooms: more than 1000 entries (the limit)")
    }

    @Test func refusesMorePolygonPointsGatewaysOrWallsThanTheLimits() {
        let points = Array(repeating: "[0,0]", count: Site.maximumPolygonPoints + 1).joined(separator: ",")
        #expect(refusal(#"{"rooms":[{"name":"a","polygon":[\#(points)]}],"gateways":[]}"#) == "rooms[0].polygon: more than 100000 entries (the limit)")
        let gateways = (0...Site.maximumGateways).map { #"{"name":"g\#($0)","position":[0,0]}"# }.joined(separator: ",")
        #expect(refusal(#"{"rooms":[],"gateways":[\#(gateways)]}"#) == "gateways: more than 1000 entries (the limit)")
        let walls = Array(repeating: #"{"from":[0,0],"to":[1,1]}"#, count: Site.maximumWalls + 1).joined(separator: ",")
        #expect(refusal(#"{"rooms":[],"gateways":[],"walls":[\#(walls)]}"#) == "walls: more than 10000 entries (the limit)")
    }

    @Test func refusesAFileLargerThanSixteenMebibytes() {
        let padding = [UInt8](repeating: 0x20, count: Site.maximumFileBytes)
        #expect(throws: SiteError(field: "", reason: "larger than the limit of 16777216 bytes")) {
            try Site.decode(Array(Self.minimal.utf8) + padding)
        }
    }

    @Test func findsTheRoomHoldingAPointEdgesIncludedFirstOfOverlappingRooms() {
        let square = [Point2(x: 0, y: 0), Point2(x: 4, y: 0), Point2(x: 4, y: 4), Point2(x: 0, y: 4)]
        let lShape = [Point2(x: 4, y: 0), Point2(x: 8, y: 0), Point2(x: 8, y: 8), Point2(x: 6, y: 8), Point2(x: 6, y: 2), Point2(x: 4, y: 2)]
        let site = Site(rooms: [Room(name: "a", polygon: square), Room(name: "b", polygon: lShape), Room(name: "c", polygon: square, floor: 1)],
                        gateways: [])
        #expect(site.room(containing: Point2(x: 2, y: 2), floor: 0) == 0)
        #expect(site.room(containing: Point2(x: 4, y: 1), floor: 0) == 0)  // the shared edge: the first room
        #expect(site.room(containing: Point2(x: 0, y: 4), floor: 0) == 0)  // a vertex
        #expect(site.room(containing: Point2(x: 7, y: 7), floor: 0) == 1)
        #expect(site.room(containing: Point2(x: 5, y: 5), floor: 0) == nil) // the L's notch
        #expect(site.room(containing: Point2(x: 2, y: 2), floor: 1) == 2)
        #expect(site.room(containing: Point2(x: 2, y: 2), floor: 2) == nil)
        #expect(site.room(containing: Point2(x: .nan, y: 2), floor: 0) == nil)
    }

    @Test func roomCentresAreAreaCentroidsOrTheVertexMeanWhenFlat() {
        let lShape = [Point2(x: 0, y: 0), Point2(x: 2, y: 0), Point2(x: 2, y: 1), Point2(x: 1, y: 1), Point2(x: 1, y: 2), Point2(x: 0, y: 2)]
        let centre = Room(name: "l", polygon: lShape).centre
        #expect(abs(centre.x - 5.0 / 6) < 1e-12 && abs(centre.y - 5.0 / 6) < 1e-12)
        let flat = Room(name: "f", polygon: [Point2(x: 0, y: 0), Point2(x: 1, y: 0), Point2(x: 3, y: 0)]).centre
        #expect(abs(flat.x - 4.0 / 3) < 1e-12 && flat.y == 0)
    }

    @Test func boundsCoverTheRoomsAndGatewaysOfAFloor() throws {
        let site = try decode(withGateways(#"[{"name":"a","position":[-1,6]},{"name":"b","position":[50,50],"floor":3}]"#))
        let bounds = try #require(site.bounds(floor: 0))
        #expect(bounds.min == Point2(x: -1, y: 0) && bounds.max == Point2(x: 4, y: 6))
        #expect(site.bounds(floor: 3).map { [$0.min, $0.max] } == [Point2(x: 50, y: 50), Point2(x: 50, y: 50)])
        #expect(site.bounds(floor: 7) == nil)
    }

    @Test func sumsTheWallsAPathProperlyCrosses() {
        let site = Site(rooms: [], gateways: [], walls: [
            Wall(from: Point2(x: 2, y: -5), to: Point2(x: 2, y: 5)),
            Wall(from: Point2(x: 4, y: -5), to: Point2(x: 4, y: 5), attenuation: 10),
            Wall(from: Point2(x: 3, y: -5), to: Point2(x: 3, y: 5), attenuation: 7, floor: 1),
            Wall(from: Point2(x: 0, y: 1), to: Point2(x: 9, y: 1), attenuation: 20),  // along the path's line, above it
        ])
        #expect(site.wallsCrossed(from: Point2(x: 0, y: 0), to: Point2(x: 5, y: 0), floor: 0) == 13)
        #expect(site.wallsCrossed(from: Point2(x: 0, y: 0), to: Point2(x: 3, y: 0), floor: 0) == 3)
        #expect(site.wallsCrossed(from: Point2(x: 0, y: 0), to: Point2(x: 2, y: 0), floor: 0) == 0) // ends on the wall
        #expect(site.wallsCrossed(from: Point2(x: 0, y: 0), to: Point2(x: 5, y: 0), floor: 1) == 7)
        #expect(site.wallsCrossed(from: Point2(x: 0, y: 1), to: Point2(x: 9, y: 1), floor: 0) == 13)  // along a wall
    }
}
