/// A beacon region as CoreLocation's CLBeaconIdentityConstraint: the UUID is required, major and
/// minor are optional. An absent value matches any; 0 is a real value that matches only 0.
/// A region may carry a name, as CLBeaconRegion's identifier, which every line about it repeats.
public struct BeaconRegion: Hashable, Sendable, CustomStringConvertible {
    public var name: String?
    public var uuid: BeaconUUID
    public var major: UInt16?
    /// Only meaningful with a major, as in CoreLocation.
    public var minor: UInt16?

    public init(name: String? = nil, uuid: BeaconUUID, major: UInt16? = nil, minor: UInt16? = nil) {
        precondition(minor == nil || major != nil, "a region's minor needs a major")
        self.name = name
        self.uuid = uuid
        self.major = major
        self.minor = minor
    }

    public func matches(_ identity: BeaconIdentity) -> Bool {
        identity.uuid == uuid
            && (major.map { $0 == identity.major } ?? true)
            && (minor.map { $0 == identity.minor } ?? true)
    }

    /// `[NAME=]UUID[:MAJOR[:MINOR]]`, the form `parse` reads.
    public var description: String {
        var s = name.map { "\($0)=" } ?? ""
        s += uuid.description
        if let major { s += ":\(major)" }
        if let minor { s += ":\(minor)" }
        return s
    }

    /// Parses `[NAME=]UUID[:MAJOR[:MINOR]]`; the error text says what is wrong. A name is 1 to 64
    /// characters without control characters, `=`, `/`, `+` or `#` (it becomes part of MQTT topics).
    public static func parse(_ text: String) -> Result<BeaconRegion, RegionParseError> {
        var name: String?
        var constraint = Substring(text)
        if let equals = text.firstIndex(of: "=") {
            let given = String(text[..<equals])
            guard isValidName(given) else {
                return .failure(.init("region name '\(given)' must be 1 to 64 characters without control characters, '=', '/', '+' or '#'"))
            }
            name = given
            constraint = text[text.index(after: equals)...]
        }
        switch parseConstraint(String(constraint)) {
        case .success(var region):
            region.name = name
            return .success(region)
        case .failure(let error):
            return .failure(error)
        }
    }

    public static func isValidName(_ name: String) -> Bool {
        !name.isEmpty && name.unicodeScalars.count <= 64
            && name.unicodeScalars.allSatisfy { $0.properties.generalCategory != .control && !"=/+#".unicodeScalars.contains($0) }
    }

    private static func parseConstraint(_ text: String) -> Result<BeaconRegion, RegionParseError> {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
        guard parts.count <= 3 else { return .failure(.init("'\(text)' has more than UUID:MAJOR:MINOR")) }
        guard let uuid = BeaconUUID(parts[0]) else {
            return .failure(.init("'\(parts[0])' is not a UUID (expected 8-4-4-4-12 hex digits)"))
        }
        var values: [UInt16] = []
        for (name, part) in zip(["major", "minor"], parts.dropFirst()) {
            guard let v = parseUInt16(part) else {
                return .failure(.init("\(name) '\(part)' is not an integer in 0...65535"))
            }
            values.append(v)
        }
        return .success(BeaconRegion(uuid: uuid, major: values.first, minor: values.count > 1 ? values[1] : nil))
    }

    /// Decimal 0...65535 (or 0x-prefixed hex).
    public static func parseUInt16(_ text: String) -> UInt16? {
        if text.hasPrefix("0x") || text.hasPrefix("0X") { return UInt16(text.dropFirst(2), radix: 16) }
        guard !text.isEmpty, text.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }) else { return nil }
        return UInt16(text)
    }
}

public struct RegionParseError: Error, Equatable, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
