import BeaconCore
import BeaconSimulation
import Testing

@Suite("Scene files")
struct SceneFileTests {
    func decode(_ text: String) throws(SceneError) -> Scene {
        try Scene.decode(json: Array(text.utf8))
    }

    @Test("every built-in scene is valid and survives a trip through its scene file", arguments: Scene.allNamed.map(\.name))
    func roundTrip(name: String) throws {
        let scene = try #require(Scene.named(name))
        try scene.validate()
        #expect(try Scene.decode(json: scene.json) == scene)
        #expect(scene.json == scene.json) // the same text every time
    }

    @Test("a minimal file takes the documented defaults")
    func defaults() throws {
        let scene = try decode("""
        {"duration": 60, "beacons": [{"uuid": "E2C56DB5-DFFB-48D2-B060-D0F5A71096E0", "path": {"kind": "standing", "distance": 2}},
                                     {"uuid": "E2C56DB5-DFFB-48D2-B060-D0F5A71096E0", "minor": 7,
                                      "path": {"kind": "walkingAwayAndBack", "near": 1, "far": 5}}]}
        """)
        #expect(scene.duration == .seconds(60))
        #expect(scene.tick == .seconds(1))
        #expect(scene.radio == RadioModel())
        #expect(scene.receiver == ReceiverModel())
        #expect(scene.regions == [NamedRegion(name: "E2C56DB5-DFFB-48D2-B060-D0F5A71096E0", region: BeaconRegion(uuid: sceneUUID))])
        let beacon = scene.beacons[0]
        #expect(beacon.beacon == .iBeacon(IBeacon(identity: IBeaconID(uuid: sceneUUID, major: 0, minor: 0), measuredPower: -59)))
        #expect(beacon.address == DeviceAddress("C0:00:00:00:00:01"))
        #expect(scene.beacons[1].address == DeviceAddress("C0:00:00:00:00:02"))
        #expect(beacon.addressType == .randomDevice)
        #expect(beacon.interval == .milliseconds(100) && beacon.jitter == .milliseconds(10))
        #expect(beacon.start == Micros(0) && beacon.stop == nil && beacon.scanResponse == SceneBeacon.ScanResponse.none)
        #expect(scene.beacons[1].path == .walkingAwayAndBack(near: 1, far: 5, speed: 1.2, pause: Micros(0)))
    }

    @Test("durations are seconds as numbers or text with a unit")
    func durations() throws {
        let scene = try decode("""
        {"duration": "2m", "tick": 0.5, "beacons": [{"uuid": "E2C56DB5-DFFB-48D2-B060-D0F5A71096E0", "interval": "250ms",
         "start": 1.5, "stop": "90s", "path": {"kind": "passingBy", "closest": 1, "closestAt": "1m"}}]}
        """)
        #expect(scene.duration == .seconds(120))
        #expect(scene.tick == .milliseconds(500))
        #expect(scene.beacons[0].interval == .milliseconds(250))
        #expect(scene.beacons[0].start == .milliseconds(1500))
        #expect(scene.beacons[0].stop == .seconds(90))
        #expect(scene.beacons[0].path == .passingBy(closest: 1, speed: 1.2, closestAt: .seconds(60)))
    }

    static let beacon = #"{"uuid": "E2C56DB5-DFFB-48D2-B060-D0F5A71096E0", "path": {"kind": "standing", "distance": 1}}"#

    @Test("errors name the member at fault", arguments: [
        ("", "scene", "not valid JSON"),
        ("[1]", "scene", "expected an object"),
        (#"{"beacons": []}"#, "duration", "missing"),
        (#"{"duration": "soon", "beacons": []}"#, "duration", "expected a duration"),
        (#"{"duration": 60, "beacons": [], "radius": 3}"#, "radius", "unknown member"),
        (#"{"duration": 60, "beacons": {}}"#, "beacons", "expected an array"),
        (#"{"duration": 60, "beacons": [{"path": {"kind": "standing", "distance": 1}}]}"#, "beacons[0].uuid", "missing"),
        (#"{"duration": 60, "beacons": [{"uuid": "nope", "path": {"kind": "standing", "distance": 1}}]}"#,
         "beacons[0].uuid", "expected a UUID"),
        (#"{"duration": 60, "beacons": [\#(beacon), {"uuid": "E2C56DB5-DFFB-48D2-B060-D0F5A71096E0", "major": 70000, "path": {"kind": "standing", "distance": 1}}]}"#,
         "beacons[1].major", "expected an integer in 0...65535"),
        (#"{"duration": 60, "beacons": [{"uuid": "E2C56DB5-DFFB-48D2-B060-D0F5A71096E0", "measuredPower": -59.5, "path": {"kind": "standing", "distance": 1}}]}"#,
         "beacons[0].measuredPower", "expected an integer in -127...20"),
        (#"{"duration": 60, "beacons": [{"uuid": "E2C56DB5-DFFB-48D2-B060-D0F5A71096E0", "path": {"kind": "flying"}}]}"#,
         "beacons[0].path.kind", #"expected one of "standing", "walkingAwayAndBack", "passingBy", "leavingAndReturning", "at", "route", found "flying""#),
        (#"{"duration": 60, "beacons": [{"uuid": "E2C56DB5-DFFB-48D2-B060-D0F5A71096E0", "path": {"kind": "standing"}}]}"#,
         "beacons[0].path.distance", "missing"),
        (#"{"duration": 60, "beacons": [{"uuid": "E2C56DB5-DFFB-48D2-B060-D0F5A71096E0", "path": {"kind": "standing", "distance": "far"}}]}"#,
         "beacons[0].path.distance", "expected a number"),
        (#"{"duration": 60, "beacons": [{"uuid": "E2C56DB5-DFFB-48D2-B060-D0F5A71096E0", "path": {"kind": "standing", "distance": 1, "far": 3}}]}"#,
         "beacons[0].path.far", "unknown member"),
        (#"{"duration": 60, "beacons": [{"uuid": "E2C56DB5-DFFB-48D2-B060-D0F5A71096E0", "address": "C0:00", "path": {"kind": "standing", "distance": 1}}]}"#,
         "beacons[0].address", "expected an address"),
        (#"{"duration": 60, "beacons": [{"uuid": "E2C56DB5-DFFB-48D2-B060-D0F5A71096E0", "scanResponse": "yes", "path": {"kind": "standing", "distance": 1}}]}"#,
         "beacons[0].scanResponse", #"expected one of "none", "empty", "name", "beacon""#),
        (#"{"duration": 60, "beacons": [{"format": "eddystone-tlm", "path": {"kind": "standing", "distance": 1}}]}"#,
         "beacons[0].format", #"expected one of "ibeacon", "altbeacon", "eddystone-uid", "eddystone-url", found "eddystone-tlm""#),
        (#"{"duration": 60, "beacons": [{"format": "altbeacon", "uuid": "E2C56DB5-DFFB-48D2-B060-D0F5A71096E0", "path": {"kind": "standing", "distance": 1}}]}"#,
         "beacons[0].uuid", #"does not apply to format "altbeacon", whose identity is 'id1', 'id2', 'id3'"#),
        (#"{"duration": 60, "beacons": [{"id1": "E2C56DB5-DFFB-48D2-B060-D0F5A71096E0", "path": {"kind": "standing", "distance": 1}}]}"#,
         "beacons[0].id1", #"does not apply to format "ibeacon", whose identity is 'uuid', 'major', 'minor'"#),
        (#"{"duration": 60, "beacons": [{"format": "altbeacon", "id2": 1, "path": {"kind": "standing", "distance": 1}}]}"#,
         "beacons[0].id1", "missing"),
        (#"{"duration": 60, "beacons": [{"format": "eddystone-uid", "namespace": "0102", "path": {"kind": "standing", "distance": 1}}]}"#,
         "beacons[0].namespace", "expected 20 hex digits"),
        (#"{"duration": 60, "beacons": [{"format": "eddystone-uid", "namespace": "00010203040506070809", "measuredPower": -10, "path": {"kind": "standing", "distance": 1}}]}"#,
         "beacons[0].measuredPower", "an Eddystone beacon sends it as the power at 0 m, 41 dB more: expected -127...-21"),
        (#"{"duration": 60, "beacons": [{"format": "eddystone-url", "url": "example.com", "path": {"kind": "standing", "distance": 1}}]}"#,
         "beacons[0].url", "expected a URL starting with http:// or https://"),
        (#"{"duration": 60, "beacons": [{"format": "eddystone-url", "path": {"kind": "standing", "distance": 1}}]}"#,
         "beacons[0].url", "missing"),
        (#"{"duration": 60, "site": {"rooms": [{"name": "hall", "polygon": [[0, 0], [4, 0], [4, 4], [0, 4]]}], "gateways": [{"name": "gw1", "position": [2, 2, 1]}]}, "beacons": [{"format": "altbeacon", "id1": "E2C56DB5-DFFB-48D2-B060-D0F5A71096E0", "path": {"kind": "at", "point": [1, 1]}}]}"#,
         "beacons[0].format", "a site scene's beacons are iBeacons"),
        (#"{"duration": 60, "receiver": {"reports": "both"}, "beacons": []}"#, "receiver.reports", #"expected one of "legacy", "extended", "mixed""#),
        (#"{"duration": 60, "receiver": {"activeScanning": 1}, "beacons": []}"#, "receiver.activeScanning", "expected true or false"),
        (#"{"duration": 60, "beacons": null}"#, "beacons", "expected an array, found null"),
        (#"{"duration": 60, "regions": [{"name": "x", "region": "E2C56DB5-DFFB-48D2-B060-D0F5A71096E0:1:2:3"}], "beacons": []}"#,
         "regions[0].region", "expected UUID[:MAJOR[:MINOR]]"),
        // Well-formed but impossible values.
        (#"{"duration": 0, "beacons": []}"#, "duration", "must be more than 0"),
        (#"{"duration": 60, "radio": {"loss": 1.5}, "beacons": []}"#, "radio.loss", "must be a number in 0...1"),
        (#"{"duration": 60, "radio": {"channelOffsets": [1, 2]}, "beacons": []}"#, "radio.channelOffsets", "must be 3 numbers"),
        (#"{"duration": 60, "receiver": {"scanWindow": "200ms"}, "beacons": []}"#, "receiver.scanWindow", "at most the scan interval"),
        (#"{"duration": 60, "receiver": {"extendedShare": 2}, "beacons": []}"#, "receiver.extendedShare", "must be a number in 0...1"),
        (#"{"duration": 60, "neighbours": {"count": 0}, "beacons": []}"#, "neighbours.count", "expected an integer in 1...10000"),
        (#"{"duration": 60, "neighbours": {"interval": "5ms"}, "beacons": []}"#, "neighbours.interval", "must be 20ms...10.24s"),
        (#"{"duration": 60, "neighbours": {"every": "1s"}, "beacons": []}"#, "neighbours.every", "unknown member"),
        (#"{"duration": 60, "regions": [{"name": "x", "region": "E2C56DB5-DFFB-48D2-B060-D0F5A71096E0"}, {"name": "x", "region": "E2C56DB5-DFFB-48D2-B060-D0F5A71096E0:1"}], "beacons": []}"#,
         "regions[1].name", "'x' is used twice"),
        (#"{"duration": 60, "beacons": [\#(beacon), {"uuid": "E2C56DB5-DFFB-48D2-B060-D0F5A71096E0", "start": 10, "stop": 5, "path": {"kind": "standing", "distance": 1}}]}"#,
         "beacons[1].stop", "must be after start"),
        (#"{"duration": 60, "beacons": [{"uuid": "E2C56DB5-DFFB-48D2-B060-D0F5A71096E0", "path": {"kind": "passingBy", "closest": 1, "speed": 0, "closestAt": 5}}]}"#,
         "beacons[0].path.speed", "must be a number in 0.01...100"),
    ])
    func errors(text: String, field: String, reason: String) {
        expectRefusal(text, field: field, reason: reason)
    }

    @Test("text that is not JSON is refused with the line and column of the fault; a member given twice too")
    func syntaxErrorsCarryTheirPosition() {
        #expect(throws: SceneError(field: "scene", "not valid JSON: expected ',' or '}'", position: .init(line: 3, column: 17))) {
            try decode("{\n  \"duration\": 60,\n  \"beacons\": [] \"x\"\n}\n")
        }
        #expect(throws: SceneError(field: "scene", "not valid JSON: duplicate member \"duration\"", position: .init(line: 1, column: 18))) {
            try decode(#"{"duration": 60, "duration": 5, "beacons": []}"#)
        }
    }

    @Test("an unknown member of a path lists only the members of that kind of path, each once, and the one likely meant")
    func unknownPathMemberListsItsKindsMembers() {
        expectRefusal(#"{"duration": 60, "beacons": [{"uuid": "E2C56DB5-DFFB-48D2-B060-D0F5A71096E0", "path": {"kind": "standing", "distnace": 1}}]}"#,
                      field: "beacons[0].path.distnace", reason: "unknown member (expected 'kind', 'distance'); did you mean 'distance'?")
        expectRefusal(#"{"duration": 60, "beacons": [{"uuid": "E2C56DB5-DFFB-48D2-B060-D0F5A71096E0", "path": {"kind": "passingBy", "closest": 1, "closestAt": 5, "sped": 1}}]}"#,
                      field: "beacons[0].path.sped", reason: "unknown member (expected 'kind', 'closest', 'speed', 'closestAt'); did you mean 'speed'?")
        expectRefusal(#"{"duration": 60, "beacons": [], "radius": 3}"#, field: "radius",
                      reason: "unknown member (expected 'name', 'description', 'duration', ")
    }

    @Test("JSON nested deeper than the limit is refused as too deep, naming the limit, however deep it goes",
          arguments: [Scene.maximumNesting + 1, 600, 100_000])
    func tooDeep(depth: Int) {
        let text = #"{"duration": 60, "beacons": [], "x": "# + String(repeating: "[", count: depth - 1) + String(repeating: "]", count: depth - 1) + "}"
        #expect(throws: SceneError(field: "scene", "arrays and objects nested more than \(Scene.maximumNesting) deep, the limit for a scene")) {
            try decode(text)
        }
    }

    @Test("nesting up to the limit, and brackets inside strings, are read as JSON")
    func deepButWithinTheLimit() throws {
        let deep = #"{"duration": 60, "beacons": [], "x": "# + String(repeating: "[", count: Scene.maximumNesting - 1)
            + String(repeating: "]", count: Scene.maximumNesting - 1) + "}"
        let error = #expect(throws: SceneError.self) { try decode(deep) }
        #expect(error?.field == "x" && error?.reason.hasPrefix("unknown member") == true, "\(String(describing: error))")
        let quoted = #"{"duration": 60, "beacons": [], "name": "\"\#(String(repeating: "[", count: 600))"}"#
        #expect(try decode(quoted).name == "\"" + String(repeating: "[", count: 600))
    }

    @Test("a scene of more beacons than the limit is refused, naming it")
    func tooManyBeacons() throws {
        let beacon = #"{"uuid": "E2C56DB5-DFFB-48D2-B060-D0F5A71096E0", "path": {"kind": "standing", "distance": 1}}"#
        func scene(_ count: Int) -> String {
            #"{"duration": 1, "beacons": ["# + Array(repeating: beacon, count: count).joined(separator: ",") + "]}"
        }
        #expect(try decode(scene(Scene.maximumBeacons)).beacons.count == 10_000)
        #expect(throws: SceneError(field: "beacons", "must be at most 10000 beacons, not 10001")) { try decode(scene(Scene.maximumBeacons + 1)) }
    }
}
