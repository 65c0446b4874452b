/// What a region asks of a beacon's identity, per format. The first identifier is required, the
/// others optional: an absent value matches any, and 0 is a real value that matches only 0.
public enum IdentityConstraint: Hashable, Sendable {
    /// iBeacon: proximity UUID, major, minor (a minor only within a major).
    case iBeacon(uuid: BeaconUUID, major: UInt16?, minor: UInt16?)
    /// AltBeacon: ID1, ID2, ID3 (an ID3 only within an ID2).
    case altBeacon(id1: BeaconUUID, id2: UInt16?, id3: UInt16?)
    /// Eddystone-UID: namespace and instance.
    case eddystoneUID(namespace: EddystoneNamespace, instance: EddystoneInstance?)

    public var format: BeaconFormat {
        switch self {
        case .iBeacon: .iBeacon
        case .altBeacon: .altBeacon
        case .eddystoneUID: .eddystoneUID
        }
    }
}

/// A beacon region as CoreLocation's CLBeaconIdentityConstraint, for any rangeable format: the first
/// identifier (UUID, AltBeacon ID1, Eddystone namespace) is required, the rest optional. An absent
/// value matches any; 0 is a real value that matches only 0. A region only matches beacons of its own
/// format. A region may carry a name, as CLBeaconRegion's identifier, which every line about it repeats.
public struct BeaconRegion: Hashable, Sendable, CustomStringConvertible {
    public var name: String?
    public var constraint: IdentityConstraint

    public init(name: String? = nil, _ constraint: IdentityConstraint) {
        switch constraint {
        case .iBeacon(_, let major, let minor):
            precondition(minor == nil || major != nil, "a region's minor needs a major")
        case .altBeacon(_, let id2, let id3):
            precondition(id3 == nil || id2 != nil, "a region's ID3 needs an ID2")
        case .eddystoneUID:
            break
        }
        self.name = name
        self.constraint = constraint
    }

    /// An iBeacon region.
    public init(name: String? = nil, uuid: BeaconUUID, major: UInt16? = nil, minor: UInt16? = nil) {
        self.init(name: name, .iBeacon(uuid: uuid, major: major, minor: minor))
    }

    public var format: BeaconFormat { constraint.format }

    /// The region's UUID: the iBeacon proximity UUID or AltBeacon's ID1; nil for an Eddystone region.
    public var uuid: BeaconUUID? {
        switch constraint {
        case .iBeacon(let uuid, _, _): uuid
        case .altBeacon(let id1, _, _): id1
        case .eddystoneUID: nil
        }
    }

    public func matches(_ id: BeaconID) -> Bool {
        PackedConstraint(constraint).matches(PackedIdentity(id))
    }

    public func matches(_ identity: IBeaconID) -> Bool { matches(.iBeacon(identity)) }

    /// `[NAME=]UUID[:MAJOR[:MINOR]]`, `[NAME=]altbeacon:ID1[:ID2[:ID3]]` or
    /// `[NAME=]eddystone:NAMESPACE[:INSTANCE]`, the forms `parse` reads.
    public var description: String {
        var s = name.map { "\($0)=" } ?? ""
        switch constraint {
        case let .iBeacon(uuid, major, minor):
            s += uuid.description
            if let major { s += ":\(major)" }
            if let minor { s += ":\(minor)" }
        case let .altBeacon(id1, id2, id3):
            s += "altbeacon:\(id1)"
            if let id2 { s += ":\(id2)" }
            if let id3 { s += ":\(id3)" }
        case let .eddystoneUID(namespace, instance):
            s += "eddystone:\(namespace)"
            if let instance { s += ":\(instance)" }
        }
        return s
    }

    /// Parses the forms `description` writes (`ibeacon:` may also prefix an iBeacon's UUID); the error
    /// text says what is wrong. A name is 1 to 64
    /// characters without control characters, noncharacters, `=`, `/`, `+` or `#` (it becomes part of MQTT topics).
    public static func parse(_ text: String) -> Result<BeaconRegion, RegionParseError> {
        var name: String?
        var constraint = Substring(text)
        if let equals = text.firstIndex(of: "=") {
            let given = String(text[..<equals])
            guard isValidName(given) else {
                return .failure(.init("region name '\(given)' must be 1 to 64 characters without control characters, noncharacters, '=', '/', '+' or '#'"))
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
            && name.unicodeScalars.allSatisfy { !$0.isControlOrNoncharacter && !"=/+#".unicodeScalars.contains($0) }
    }

    /// The format prefixes `parse` reads; a UUID alone is an iBeacon's.
    public static let formatPrefixes = ["ibeacon", "altbeacon", "eddystone"]

    private static func parseConstraint(_ text: String) -> Result<BeaconRegion, RegionParseError> {
        var parts = text.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
        let prefix = parts.count > 1 && formatPrefixes.contains(parts[0].lowercased()) ? parts.removeFirst().lowercased() : "ibeacon"
        if prefix == "eddystone" {
            guard parts.count <= 2 else { return .failure(.init("'\(text)' has more than eddystone:NAMESPACE:INSTANCE")) }
            guard let namespace = EddystoneNamespace(parts[0]) else {
                return .failure(.init("'\(parts[0])' is not an Eddystone namespace (expected 20 hex digits)"))
            }
            var instance: EddystoneInstance?
            if parts.count == 2 {
                guard let given = EddystoneInstance(parts[1]) else {
                    return .failure(.init("'\(parts[1])' is not an Eddystone instance (expected 12 hex digits)"))
                }
                instance = given
            }
            return .success(BeaconRegion(.eddystoneUID(namespace: namespace, instance: instance)))
        }
        let names = prefix == "altbeacon" ? ["ID1", "ID2", "ID3"] : ["UUID", "major", "minor"]
        guard parts.count <= 3 else {
            return .failure(.init("'\(text)' has more than \(prefix == "altbeacon" ? "altbeacon:" : "")\(names.joined(separator: ":").uppercased())"))
        }
        guard let uuid = BeaconUUID(parts[0]) else {
            return .failure(.init("'\(parts[0])' is not \(prefix == "altbeacon" ? "an ID1" : "a UUID") (expected 8-4-4-4-12 hex digits)"))
        }
        var values: [UInt16] = []
        for (name, part) in zip(names.dropFirst(), parts.dropFirst()) {
            guard let v = parseUInt16(part) else {
                return .failure(.init("\(name) '\(part)' is not an integer in 0...65535"))
            }
            values.append(v)
        }
        let second = values.first, third = values.count > 1 ? values[1] : nil
        return .success(BeaconRegion(prefix == "altbeacon" ? .altBeacon(id1: uuid, id2: second, id3: third)
                                                           : .iBeacon(uuid: uuid, major: second, minor: third)))
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
