import BeaconCore
import BeaconSimulation
import Foundation
import Testing

/// Scene files and ground-truth lines against docs/scene.schema.json and docs/truth.schema.json; the
/// shipped scene files and the examples in docs/simulate.md are real scenes.
@Suite("Simulation schemas")
struct SimulationSchemaTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static func validator(_ name: String) throws -> JSONSchemaValidator {
        let text = try String(contentsOf: root.appendingPathComponent("docs").appendingPathComponent(name), encoding: .utf8)
        return JSONSchemaValidator(schema: try JSONValue.parse(text))
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

    @Test func schemasUseOnlyCheckedKeywords() throws {
        #expect(try Self.validator("scene.schema.json").unsupportedKeywords() == [])
        #expect(try Self.validator("truth.schema.json").unsupportedKeywords() == [])
    }

    @Test("every built-in scene, written as a scene file, validates", arguments: Scene.allNamed.map(\.name))
    func builtInScenes(name: String) throws {
        let scene = try #require(Scene.named(name))
        let text = String(decoding: scene.json, as: UTF8.self)
        #expect(try Self.validator("scene.schema.json").errors(try JSONValue.parse(text)) == [])
    }

    @Test("the shipped scene files validate, decode and simulate", arguments: shippedScenes)
    func shippedScene(file: String) throws {
        let bytes = Array(try Data(contentsOf: Self.root.appendingPathComponent("scenes").appendingPathComponent(file)))
        #expect(try Self.validator("scene.schema.json").errors(try JSONValue.parse(String(decoding: bytes, as: UTF8.self))) == [])
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
        let validator = try Self.validator("scene.schema.json")
        for example in examples {
            #expect(validator.errors(try JSONValue.parse(example)) == [], "\(example)")
            #expect(throws: Never.self) { try Scene.decode(json: Array(example.utf8)) }
        }
    }

    @Test("ground-truth lines validate", arguments: Scene.allNamed.map(\.name))
    func truthLines(name: String) throws {
        var scene = try #require(Scene.named(name))
        scene.duration = .seconds(3)
        let validator = try Self.validator("truth.schema.json")
        var lines: [String] = []
        try SceneSimulator(scene: scene, seed: 1).run(packet: { _ in }, truth: { lines.append($0.jsonLine(regions: scene.regions)) })
        #expect(lines.count == 3 * scene.beacons.count)
        for line in lines { #expect(validator.errors(try JSONValue.parse(line)) == [], "\(line)") }
    }
}
