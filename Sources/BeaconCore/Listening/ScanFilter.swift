/// Leading hex digits of an identifier (`E2C5`, `e2c56db5-dffb`): matched nibble by nibble against
/// the identifier's bytes in transmission order, without allocating.
public struct HexPrefix: Hashable, Sendable, CustomStringConvertible {
    /// The digits' values, most significant first.
    private let nibbles: [UInt8]

    /// Parses 1 or more hex digits, hyphens anywhere ignored; nil on anything else or more than `limit` digits.
    public init?(_ text: String, limit: Int) {
        var nibbles: [UInt8] = []
        for c in text.utf8 where c != UInt8(ascii: "-") {
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): nibbles.append(c - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): nibbles.append(c - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): nibbles.append(c - UInt8(ascii: "A") + 10)
            default: return nil
            }
        }
        guard !nibbles.isEmpty, nibbles.count <= limit else { return nil }
        self.nibbles = nibbles
    }

    /// Whether the identifier held as big-endian words (`high` first, `highBits` wide, then a 64-bit
    /// `low`) starts with these digits.
    func matches(high: UInt64, highBits: Int, low: UInt64) -> Bool {
        for (i, nibble) in nibbles.enumerated() {
            let bit = i * 4
            let value = bit < highBits ? high >> UInt64(highBits - bit - 4) : low >> UInt64(60 - (bit - highBits))
            if UInt8(truncatingIfNeeded: value & 0xF) != nibble { return false }
        }
        return true
    }

    public func matches(_ uuid: BeaconUUID) -> Bool { matches(high: uuid.high, highBits: 64, low: uuid.low) }
    public func matches(_ namespace: EddystoneNamespace) -> Bool {
        matches(high: UInt64(namespace.high), highBits: 16, low: namespace.low)
    }

    public var description: String {
        String(decoding: nibbles.map { Array("0123456789ABCDEF".utf8)[Int($0)] }, as: UTF8.self)
    }
}

/// Which sightings `beacon scan` reports: formats, a floor on RSSI, and UUID or namespace prefixes.
public struct ScanFilter: Sendable {
    /// Formats reported; every format when empty.
    public var formats: Set<BeaconFormat>
    /// Readings weaker than this (dBm), or without an RSSI, are left out.
    public var minimumRSSI: Int?
    /// An iBeacon UUID or AltBeacon ID1 starting with one of these is reported.
    public var uuidPrefixes: [HexPrefix]
    /// An Eddystone-UID namespace starting with one of these is reported. With either kind of prefix
    /// given, only beacons matching one of them are.
    public var namespacePrefixes: [HexPrefix]

    public init(formats: Set<BeaconFormat> = [], minimumRSSI: Int? = nil, uuidPrefixes: [HexPrefix] = [],
                namespacePrefixes: [HexPrefix] = []) {
        self.formats = formats
        self.minimumRSSI = minimumRSSI
        self.uuidPrefixes = uuidPrefixes
        self.namespacePrefixes = namespacePrefixes
    }

    public func admits(_ s: Sighting) -> Bool {
        if !formats.isEmpty, !formats.contains(s.format) { return false }
        if let minimumRSSI {
            guard let rssi = s.rssi, Int(rssi) >= minimumRSSI else { return false }
        }
        guard !uuidPrefixes.isEmpty || !namespacePrefixes.isEmpty else { return true }
        switch s.identity {
        case .iBeacon(let id)?: return uuidPrefixes.contains { $0.matches(id.uuid) }
        case .altBeacon(let id)?: return uuidPrefixes.contains { $0.matches(id.id1) }
        case .eddystoneUID(let uid)?: return namespacePrefixes.contains { $0.matches(uid.namespace) }
        case nil: return false
        }
    }
}
