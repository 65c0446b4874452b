#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import BeaconCore

/// Scene files: a `Scene` as JSON (docs/simulate.md), read and checked in one step.
extension Scene {
    /// The largest scene file read: a thousand times the built-in scenes' size, and a bound on the
    /// memory an endless file (/dev/zero, a FIFO) takes before it is refused.
    public static let maximumFileSize = 16 * 1024 * 1024
    /// `maximumFileSize` for messages.
    public static let maximumFileSizeText = "16 MiB"
    /// The deepest nesting of arrays and objects read: a scene needs 6 (7 with a site), and the JSON decoder refuses
    /// deeper than 512 without saying why.
    public static let maximumNesting = 64

    /// Decodes and validates a scene file. The error names the member at fault as a path
    /// (`beacons[0].path.speed`), or `scene` when the text is not JSON at all.
    public static func decode(json: [UInt8]) throws(SceneError) -> Scene {
        guard !nesting(of: json, exceeds: maximumNesting) else {
            throw SceneError(field: "scene", "arrays and objects nested more than \(maximumNesting) deep, the limit for a scene")
        }
        do {
            // The project's own reader names the line and column of a syntax error, which the decoder does not.
            _ = try JSONValue.parse(json, maximumDepth: maximumNesting, maximumBytes: json.count)
        } catch {
            throw SceneError(field: "scene", error.fileReason, position: error.position)
        }
        let scene: Scene
        do {
            scene = try JSONDecoder().decode(Scene.self, from: Data(json))
        } catch let error as DecodingError {
            throw SceneError(error)
        } catch let error as SiteInSceneError {
            throw SceneError(field: error.error.field.isEmpty ? "site" : "site." + error.error.field, error.error.reason)
        } catch {
            throw SceneError(field: "scene", "\(error)")
        }
        try scene.validate()
        return scene
    }

    /// Whether arrays and objects in `json` nest deeper than `limit`, brackets inside strings not counted.
    /// Text that is not JSON is left for the decoder to name.
    static func nesting(of json: [UInt8], exceeds limit: Int) -> Bool {
        var depth = 0, inString = false, escaped = false
        for byte in json {
            if inString {
                if escaped {
                    escaped = false
                } else if byte == UInt8(ascii: "\\") {
                    escaped = true
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""): inString = true
            case UInt8(ascii: "["), UInt8(ascii: "{"):
                depth += 1
                if depth > limit { return true }
            case UInt8(ascii: "]"), UInt8(ascii: "}"): depth -= 1
            default: break
            }
        }
        return false
    }

    /// The scene as a scene file: indented JSON with every member written out, members sorted by name
    /// (so the text is the same on every run), ending in a newline.
    public var json: [UInt8] { fileText(self) }
}

extension Site {
    /// The site as a site file (`jsonValue`), written as a scene file is: what `beacon locate --site` reads.
    public var json: [UInt8] { fileText(jsonValue) }
}

/// Indented JSON, members sorted by name, ending in a newline.
private func fileText(_ value: some Encodable) -> [UInt8] {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    // Every member is a string, number, bool, array or object of them: encoding cannot fail.
    let data = (try? encoder.encode(value)) ?? Data()
    return Array(data) + [UInt8(ascii: "\n")]
}

extension SceneError {
    /// The field and reason of a decoding failure, in the words of the scene file rather than Swift's.
    init(_ error: DecodingError) {
        switch error {
        case .keyNotFound(let key, let context):
            self.init(field: Self.path(context.codingPath + [key]), "missing")
        case .typeMismatch(let type, let context):
            self.init(field: Self.path(context.codingPath), "expected \(Self.jsonKind(type))")
        case .valueNotFound(let type, let context):
            self.init(field: Self.path(context.codingPath), "expected \(Self.jsonKind(type)), found null")
        case .dataCorrupted(let context):
            self.init(field: Self.path(context.codingPath), context.debugDescription)
        @unknown default:
            self.init(field: "scene", "\(error)")
        }
    }

    /// `beacons[0].path.speed`.
    static func path(_ keys: [any CodingKey]) -> String {
        var text = ""
        for key in keys {
            if let index = key.intValue {
                text += "[\(index)]"
            } else {
                text += (text.isEmpty ? "" : ".") + key.stringValue
            }
        }
        return text.isEmpty ? "scene" : text
    }

    static func jsonKind(_ type: Any.Type) -> String {
        switch type {
        case is Double.Type, is Float.Type: "a number"
        case is Int.Type, is UInt16.Type, is Int8.Type: "an integer"
        case is String.Type: "a string"
        case is Bool.Type: "true or false"
        case is [Any].Type: "an array"
        default: "an object"
        }
    }
}
