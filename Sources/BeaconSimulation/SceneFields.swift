import BeaconCore

/// Any member name of a scene file.
struct FieldKey: CodingKey {
    let stringValue: String
    let intValue: Int? = nil
    init(_ name: String) { stringValue = name }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}

/// Reads one JSON object of a scene file: only the members it names (a misspelt member is an error,
/// not a default silently taken), each with the value the documentation promises, and errors that
/// say which member is wrong.
struct FieldReader {
    private let container: KeyedDecodingContainer<FieldKey>

    /// The object's members, refusing any not in `members`; nil reads any member, for an object whose
    /// members depend on one of them (a path's "kind").
    init(_ decoder: any Decoder, members: [String]?) throws {
        container = try decoder.container(keyedBy: FieldKey.self)
        guard let members else { return }
        let unknown = container.allKeys.map(\.stringValue).filter { !members.contains($0) }.sorted()
        if let first = unknown.first {
            throw DecodingError.dataCorruptedError(forKey: FieldKey(first), in: container,
                                                   debugDescription: NearestMatch.unknownMember(first, among: members))
        }
    }

    func has(_ key: String) -> Bool { container.contains(FieldKey(key)) }

    func decode<T: Decodable>(_ key: String, as type: T.Type = T.self) throws -> T {
        try container.decode(T.self, forKey: FieldKey(key))
    }

    func decodeIfPresent<T: Decodable>(_ key: String, as type: T.Type = T.self) throws -> T? {
        try container.decodeIfPresent(T.self, forKey: FieldKey(key))
    }

    /// A failure of the value of `key`.
    func invalid(_ key: String, _ reason: String) -> DecodingError {
        DecodingError.dataCorruptedError(forKey: FieldKey(key), in: container, debugDescription: reason)
    }

    /// A member that must be there and is not.
    func missing(_ key: String) -> DecodingError {
        DecodingError.keyNotFound(FieldKey(key), .init(codingPath: container.codingPath, debugDescription: "missing"))
    }

    func requiredDuration(_ key: String) throws -> Micros {
        guard let value = try duration(key) else { throw missing(key) }
        return value
    }

    /// A duration: a number of seconds or a string such as "500ms", "10s", "2m".
    func duration(_ key: String) throws -> Micros? {
        guard has(key) else { return nil }
        if let seconds = try? decode(key, as: Double.self) {
            let micros = (seconds * 1_000_000).rounded()
            guard micros.isFinite, micros >= 0, micros <= Double(Scene.longestDuration.value) else {
                throw invalid(key, "expected a duration of 0 to 366 days")
            }
            return Micros(Int64(micros))
        }
        guard let text = try? decode(key, as: String.self), let micros = DurationText.parse(text) else {
            throw invalid(key, "expected a duration: seconds as a number, or a string such as \"500ms\", \"10s\", \"2m\"")
        }
        return micros
    }

    /// An impairment that comes and goes: an object with its strength (`member`), "every" and "lasting".
    static func episodic(_ decoder: any Decoder, _ member: String,
                         defaults: (Double, RadioModel.Episodes)) throws -> (Double, RadioModel.Episodes) {
        let fields = try FieldReader(decoder, members: [member, "every", "lasting"])
        let episodes = RadioModel.Episodes(every: try fields.duration("every") ?? defaults.1.every,
                                           lasting: try fields.duration("lasting") ?? defaults.1.lasting)
        return (try fields.decodeIfPresent(member) ?? defaults.0, episodes)
    }

    /// A point of a site's floor plan: `[x, y]` in metres.
    func point(_ key: String) throws -> Point2 {
        let coordinates = try decode(key, as: [Double].self)
        guard coordinates.count == 2 else { throw invalid(key, "expected [x, y] in metres") }
        return Point2(x: coordinates[0], y: coordinates[1])
    }

    /// A whole number in `range`.
    func integer(_ key: String, in range: ClosedRange<Int>) throws -> Int? {
        guard let value = try decodeIfPresent(key, as: Double.self) else { return nil }
        guard value == value.rounded(), value >= Double(range.lowerBound), value <= Double(range.upperBound) else {
            throw invalid(key, "expected an integer in \(range.lowerBound)...\(range.upperBound)")
        }
        return Int(value)
    }

    /// A string that `parse` turns into a value, or the error `expected` describes.
    func parsed<T>(_ key: String, expected: String, _ parse: (String) -> T?) throws -> T? {
        guard let text = try decodeIfPresent(key, as: String.self) else { return nil }
        guard let value = parse(text) else { throw invalid(key, "expected \(expected), found \"\(text)\"") }
        return value
    }

    /// One of the raw values of `T`.
    func choice<T: RawRepresentable & CaseIterable>(_ key: String, as type: T.Type) throws -> T? where T.RawValue == String {
        try parsed(key, expected: "one of " + T.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", ")) { T(rawValue: $0) }
    }
}

/// Writes one JSON object of a scene file.
struct FieldWriter {
    private var container: KeyedEncodingContainer<FieldKey>

    init(_ encoder: any Encoder) {
        container = encoder.container(keyedBy: FieldKey.self)
    }

    mutating func encode<T: Encodable>(_ value: T, _ key: String) throws {
        try container.encode(value, forKey: FieldKey(key))
    }

    mutating func encodeIfPresent<T: Encodable>(_ value: T?, _ key: String) throws {
        try container.encodeIfPresent(value, forKey: FieldKey(key))
    }

    /// Durations as text ("100ms", "5s"), as users write them.
    mutating func encode(_ duration: Micros, _ key: String) throws {
        try encode(duration.description, key)
    }

    /// `[x, y]`.
    mutating func encode(_ point: Point2, _ key: String) throws {
        try encode([point.x, point.y], key)
    }

    /// "every" and "lasting", members of the impairment's own object.
    mutating func encode(_ episodes: RadioModel.Episodes) throws {
        try encode(episodes.every, "every")
        try encode(episodes.lasting, "lasting")
    }
}
