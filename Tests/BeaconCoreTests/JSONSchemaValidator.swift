import Foundation

/// A JSON value read with Foundation's JSONSerialization, in a form that compares by value.
/// Booleans are told from numbers by the class JSONSerialization gives them (`__NSCFBoolean`).
indirect enum JSONValue: Equatable, CustomStringConvertible {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    struct ParseError: Error, CustomStringConvertible {
        let description: String
    }

    static func parse(_ text: String) throws -> JSONValue {
        let any = try JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed])
        return try JSONValue(any)
    }

    init(_ any: Any) throws {
        switch any {
        case is NSNull: self = .null
        case let s as String: self = .string(s)
        case let n as NSNumber where String(describing: type(of: n)).contains("Boolean"): self = .bool(n.boolValue)
        case let n as NSNumber: self = .number(n.doubleValue)
        case let a as [Any]: self = .array(try a.map(JSONValue.init))
        case let d as [String: Any]: self = .object(try d.mapValues(JSONValue.init))
        default: throw ParseError(description: "unexpected value \(type(of: any))")
        }
    }

    var description: String {
        switch self {
        case .null: "null"
        case .bool(let b): "\(b)"
        case .number(let n): "\(n)"
        case .string(let s): "\"\(s)\""
        case .array(let a): "[\(a.map(\.description).joined(separator: ","))]"
        case .object(let o): "{\(o.sorted { $0.key < $1.key }.map { "\($0.key):\($0.value)" }.joined(separator: ","))}"
        }
    }
}

/// Validates JSON values against a JSON Schema (draft 2020-12), supporting only the keywords
/// docs/output.schema.json uses: type, required, properties, additionalProperties, enum, const,
/// pattern, items, minimum, maximum, oneOf, dependentRequired and `$ref` to `#/...` pointers.
/// Any other keyword is reported as an error, so the schema cannot silently rely on one that is
/// not checked.
struct JSONSchemaValidator {
    let root: JSONValue

    /// Keywords that only annotate and never make an instance invalid.
    static let annotations: Set<String> = ["$schema", "$id", "$comment", "$defs", "title", "description", "examples", "default"]
    static let assertions: Set<String> = [
        "$ref", "type", "required", "properties", "additionalProperties", "enum", "const", "pattern",
        "items", "minimum", "maximum", "oneOf", "dependentRequired",
    ]

    init(schema: JSONValue) {
        root = schema
    }

    /// Errors for `instance`, each prefixed with the JSON pointer of the offending value; empty when valid.
    func errors(_ instance: JSONValue) -> [String] {
        var errors: [String] = []
        validate(instance, root, "", &errors)
        return errors
    }

    /// Keywords anywhere in the schema that this validator does not implement.
    func unsupportedKeywords() -> [String] {
        var found: [String] = []
        func walk(_ schema: JSONValue, _ path: String) {
            guard case .object(let members) = schema else { return }
            for (key, value) in members {
                switch key {
                case "$defs", "properties":
                    if case .object(let subschemas) = value {
                        for (name, sub) in subschemas { walk(sub, "\(path)/\(key)/\(name)") }
                    }
                case "items", "additionalProperties": walk(value, "\(path)/\(key)")
                case "oneOf":
                    if case .array(let subschemas) = value {
                        for (i, sub) in subschemas.enumerated() { walk(sub, "\(path)/oneOf/\(i)") }
                    }
                default:
                    if !Self.annotations.contains(key) && !Self.assertions.contains(key) { found.append("\(path)/\(key)") }
                }
            }
        }
        walk(root, "")
        return found.sorted()
    }

    private func resolve(_ ref: String) -> JSONValue? {
        guard ref.hasPrefix("#") else { return nil }
        var node = root
        for token in ref.dropFirst().split(separator: "/") {
            let name = token.replacingOccurrences(of: "~1", with: "/").replacingOccurrences(of: "~0", with: "~")
            guard case .object(let members) = node, let next = members[name] else { return nil }
            node = next
        }
        return node
    }

    private func validate(_ instance: JSONValue, _ schema: JSONValue, _ path: String, _ errors: inout [String]) {
        guard case .object(let keywords) = schema else {
            errors.append("\(path): schema is not an object: \(schema)")
            return
        }
        for (keyword, value) in keywords.sorted(by: { $0.key < $1.key }) {
            switch (keyword, value) {
            case (_, _) where Self.annotations.contains(keyword):
                continue
            case ("$ref", .string(let ref)):
                guard let target = resolve(ref) else {
                    errors.append("\(path): unresolvable $ref \(ref)")
                    continue
                }
                validate(instance, target, path, &errors)
            case ("type", .string(let type)):
                if !Self.has(instance, type: type) { errors.append("\(path): \(instance) is not of type \(type)") }
            case ("type", .array(let types)):
                if !types.contains(where: { if case .string(let t) = $0 { Self.has(instance, type: t) } else { false } }) {
                    errors.append("\(path): \(instance) is not of any type in \(value)")
                }
            case ("required", .array(let names)):
                guard case .object(let members) = instance else { continue }
                for case .string(let name) in names where members[name] == nil {
                    errors.append("\(path): missing required member \(name)")
                }
            case ("properties", .object(let properties)):
                guard case .object(let members) = instance else { continue }
                for (name, member) in members {
                    if let sub = properties[name] { validate(member, sub, "\(path)/\(name)", &errors) }
                }
            case ("additionalProperties", _):
                guard case .object(let members) = instance else { continue }
                var declared: Set<String> = []
                if case .object(let properties)? = keywords["properties"] { declared = Set(properties.keys) }
                for (name, member) in members.sorted(by: { $0.key < $1.key }) where !declared.contains(name) {
                    if case .number(0) = value {
                        errors.append("\(path): member \(name) is not allowed")
                    } else {
                        validate(member, value, "\(path)/\(name)", &errors)
                    }
                }
            case ("enum", .array(let allowed)):
                if !allowed.contains(instance) { errors.append("\(path): \(instance) is not one of \(value)") }
            case ("const", _):
                if instance != value { errors.append("\(path): \(instance) is not \(value)") }
            case ("pattern", .string(let pattern)):
                guard case .string(let text) = instance else { continue }
                do {
                    let regex = try NSRegularExpression(pattern: pattern)
                    let range = NSRange(text.startIndex..<text.endIndex, in: text)
                    if regex.firstMatch(in: text, range: range) == nil {
                        errors.append("\(path): \"\(text)\" does not match \(pattern)")
                    }
                } catch {
                    errors.append("\(path): invalid pattern \(pattern): \(error)")
                }
            case ("items", _):
                guard case .array(let elements) = instance else { continue }
                for (i, element) in elements.enumerated() { validate(element, value, "\(path)/\(i)", &errors) }
            case ("minimum", .number(let limit)):
                if case .number(let n) = instance, n < limit { errors.append("\(path): \(n) is below \(limit)") }
            case ("maximum", .number(let limit)):
                if case .number(let n) = instance, n > limit { errors.append("\(path): \(n) is above \(limit)") }
            case ("oneOf", .array(let subschemas)):
                let passing = subschemas.filter { sub in
                    var subErrors: [String] = []
                    validate(instance, sub, path, &subErrors)
                    return subErrors.isEmpty
                }.count
                if passing != 1 { errors.append("\(path): \(passing) of \(subschemas.count) oneOf alternatives match, not 1") }
            case ("dependentRequired", .object(let dependencies)):
                guard case .object(let members) = instance else { continue }
                for (name, needed) in dependencies where members[name] != nil {
                    guard case .array(let neededNames) = needed else { continue }
                    for case .string(let other) in neededNames where members[other] == nil {
                        errors.append("\(path): member \(name) requires member \(other)")
                    }
                }
            default:
                errors.append("\(path): unsupported keyword or value \(keyword): \(value)")
            }
        }
    }

    private static func has(_ instance: JSONValue, type: String) -> Bool {
        switch (type, instance) {
        case ("null", .null), ("boolean", .bool), ("string", .string), ("number", .number), ("array", .array), ("object", .object): true
        case ("integer", .number(let n)): n.rounded() == n
        default: false
        }
    }
}
