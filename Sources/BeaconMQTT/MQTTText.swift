import BeaconCore

/// What MQTT allows in a topic or a user name (MQTT 3.1.1 section 1.5.3): well-formed UTF-8 (every
/// Swift string is), no U+0000, no control characters and no noncharacters (which libmosquitto refuses
/// to send), and at most 65,535 bytes.
enum MQTTText {
    static let maximumBytes = 65_535

    /// Why `text` is not allowed, or nil when it is; `limit` lowers the byte limit.
    static func problem(in text: some StringProtocol, limit: Int = maximumBytes) -> String? {
        if text.utf8.count > limit { return "is \(text.utf8.count) bytes, more than \(limit)" }
        guard let scalar = text.unicodeScalars.first(where: \.isControlOrNoncharacter) else { return nil }
        let kind = scalar.properties.isNoncharacterCodePoint ? "noncharacter" : "control character"
        return "has the \(kind) U+\(hex(scalar))"
    }

    private static func hex(_ scalar: Unicode.Scalar) -> String {
        let digits = String(scalar.value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }
}
