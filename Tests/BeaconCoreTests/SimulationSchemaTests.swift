import BeaconCore
import BeaconSimulation
import Foundation
import SchemaValidation
import Testing

/// Scene files and ground-truth lines against docs/scene.schema.json and docs/truth.schema.json; the
/// shipped scene files and the examples in docs/simulate.md are real scenes.
@Suite("Simulation schemas")
struct SimulationSchemaTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// For each JSON document, nil when it is valid against docs/`schema`, else the reason.
    static func problems(_ documents: [String], schema: String) throws -> [String?] {
        // One document per line: newlines in JSON are whitespace between tokens.
        try SchemaValidator.problems(documents.map { $0.replacingOccurrences(of: "\n", with: " ") }, schema: schema)
    }

    /// The files in scenes/, by name.
    static var shippedScenes: [String] {
        let directory = root.appendingPathComponent("scenes")
        return ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? [])
            .filter { $0.hasSuffix(".json") }.sorted()
    }

    /// The ```json blocks of docs/simulate.md that are whole scenes (they have "beacons").
    static func documentedScenes() throws -> [String] {
        let markdown = try String(contentsOf: root.appendingPathComponent("docs/simulate.md"), encoding: .utf8)
        return markdown.components(separatedBy: "```json\n").dropFirst()
            .compactMap { $0.components(separatedBy: "```").first }
            .filter { $0.contains("\"beacons\"") }
    }

    @Test("every built-in scene, written as a scene file, validates", arguments: Scene.allNamed.map(\.name))
    func builtInScenes(name: String) throws {
        let scene = try #require(Scene.named(name))
        let text = String(decoding: scene.json, as: UTF8.self)
        #expect(try Self.problems([text], schema: "scene.schema.json") == [nil])
    }

    @Test("the shipped scene files validate, decode and simulate", arguments: shippedScenes)
    func shippedScene(file: String) throws {
        let bytes = Array(try Data(contentsOf: Self.root.appendingPathComponent("scenes").appendingPathComponent(file)))
        #expect(try Self.problems([String(decoding: bytes, as: UTF8.self)], schema: "scene.schema.json") == [nil])
        var scene = try Scene.decode(json: bytes)
        scene.duration = .seconds(5)
        var reports = 0
        try SceneSimulator(scene: scene, seed: 1).run(packet: { _ in reports += 1 }, truth: { _ in })
        #expect(reports > 10)
    }

    @Test("there is a shipped scene file")
    func someShippedScene() {
        #expect(!Self.shippedScenes.isEmpty)
    }

    @Test("the scene examples in docs/simulate.md validate and decode")
    func documentedExamples() throws {
        let examples = try Self.documentedScenes()
        #expect(examples.count >= 2)
        #expect(try Self.problems(examples, schema: "scene.schema.json") == examples.map { _ in nil })
        for example in examples {
            #expect(throws: Never.self) { try Scene.decode(json: Array(example.utf8)) }
        }
    }

    @Test("ground-truth lines validate", arguments: Scene.allNamed.map(\.name))
    func truthLines(name: String) throws {
        var scene = try #require(Scene.named(name))
        scene.duration = .seconds(3)
        var lines: [String] = []
        let gateways = scene.site?.gateways.map(\.name) ?? []
        try SceneSimulator(scene: scene, seed: 1).run(packet: { _ in }, truth: {
            lines.append($0.jsonLine(regions: scene.regions, gatewayNames: gateways))
        })
        #expect(lines.count == 3 * scene.beacons.count)
        #expect(try Self.problems(lines, schema: "truth.schema.json") == lines.map { _ in nil })
    }
}
