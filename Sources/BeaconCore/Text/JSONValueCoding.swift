/// `JSONValue` through Swift's `Codable`, so a document read by a `Decoder` (a scene file) can hold a
/// part that is read by the project's own readers (a site, `Site.decode(_:)`), and written back.
extension JSONValue: Codable {
    /// Any member name.
    private struct MemberKey: CodingKey {
        let stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    /// Reads any JSON value. A `Decoder` does not keep the order of an object's members, so they come in
    /// the order of their names (errors about them name the same member on every run). A number that
    /// does not fit a Double is refused, as `JSONValue.parse` refuses it.
    public init(from decoder: any Decoder) throws {
        let single = try decoder.singleValueContainer()
        if single.decodeNil() {
            self = .null
        } else if let bool = try? single.decode(Bool.self) {
            self = .bool(bool)
        } else if let string = try? single.decode(String.self) {
            self = .string(string)
        } else if var array = try? decoder.unkeyedContainer() {
            var elements: [JSONValue] = []
            while !array.isAtEnd { elements.append(try array.decode(JSONValue.self)) }
            self = .array(elements)
        } else if let object = try? decoder.container(keyedBy: MemberKey.self) {
            let keys = object.allKeys.sorted { $0.stringValue < $1.stringValue }
            var members: [(String, JSONValue)] = []
            for key in keys { members.append((key.stringValue, try object.decode(JSONValue.self, forKey: key))) }
            self = .object(members)
        } else {
            let number = try single.decode(Double.self)
            guard number.isFinite else {
                throw DecodingError.dataCorruptedError(in: single, debugDescription: "a number that does not fit a Double")
            }
            self = .number(number)
        }
    }

    /// Writes the value; the encoder orders an object's members (scene files sort them by name).
    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .null:
            var single = encoder.singleValueContainer()
            try single.encodeNil()
        case .bool(let value):
            var single = encoder.singleValueContainer()
            try single.encode(value)
        case .number(let value):
            var single = encoder.singleValueContainer()
            try single.encode(value)
        case .string(let value):
            var single = encoder.singleValueContainer()
            try single.encode(value)
        case .array(let elements):
            var array = encoder.unkeyedContainer()
            for element in elements { try array.encode(element) }
        case .object(let members):
            var object = encoder.container(keyedBy: MemberKey.self)
            for (name, value) in members { try object.encode(value, forKey: MemberKey(stringValue: name)) }
        }
    }
}
