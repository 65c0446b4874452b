/// Where to publish: `mqtt://[user[:password]@]host[:port]/topic-prefix`, or `mqtts://` for TLS.
public struct BrokerAddress: Equatable, Sendable, CustomStringConvertible {
    public var tls: Bool
    public var host: String
    public var port: Int32
    public var username: String?
    public var password: String?
    /// The first levels of every topic beacon publishes (without a trailing slash).
    public var prefix: String

    public static let defaultPrefix = "beacon"
    public static let forms = "mqtt://[USER[:PASSWORD]@]HOST[:PORT][/TOPIC-PREFIX] or mqtts://… (TLS)"

    /// The URL without its password, for messages.
    public var description: String {
        let user = username.map { "\($0)@" } ?? ""
        let shownHost = host.contains(":") ? "[\(host)]" : host
        return "\(tls ? "mqtts" : "mqtt")://\(user)\(shownHost):\(port)/\(prefix)"
    }

    /// Parses the URL; the error says what is wrong. User and password may be percent-encoded
    /// (`%40` for `@`); an IPv6 host is written in brackets. Without a path the prefix is `beacon`.
    public static func parse(_ text: String) -> Result<BrokerAddress, BrokerAddressError> {
        let tls: Bool
        var rest: Substring
        if text.hasPrefix("mqtt://") {
            tls = false
            rest = text.dropFirst(7)
        } else if text.hasPrefix("mqtts://") {
            tls = true
            rest = text.dropFirst(8)
        } else {
            return .failure(BrokerAddressError("'\(text)' does not start with mqtt:// or mqtts://"))
        }
        var prefix = defaultPrefix
        if let slash = rest.firstIndex(of: "/") {
            let path = rest[rest.index(after: slash)...]
            rest = rest[..<slash]
            let trimmed = path.hasSuffix("/") ? path.dropLast() : path
            if !trimmed.isEmpty {
                guard !trimmed.contains("+"), !trimmed.contains("#"), !trimmed.split(separator: "/", omittingEmptySubsequences: false).contains("") else {
                    return .failure(BrokerAddressError("topic prefix '\(trimmed)' must not contain '+', '#' or empty levels"))
                }
                if let problem = MQTTText.problem(in: trimmed, limit: maximumPrefixBytes) {
                    return .failure(BrokerAddressError("the topic prefix \(problem)"))
                }
                prefix = String(trimmed)
            }
        }
        var username: String?
        var password: String?
        if let at = rest.lastIndex(of: "@") {
            let credentials = rest[..<at]
            rest = rest[rest.index(after: at)...]
            let parts = credentials.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
            guard let user = percentDecoded(parts[0]), !user.isEmpty else {
                return .failure(BrokerAddressError("user name '\(parts[0])' is empty or badly percent-encoded"))
            }
            if let problem = MQTTText.problem(in: user) {
                return .failure(BrokerAddressError("the user name \(problem)"))
            }
            username = user
            if parts.count == 2 {
                // libmosquitto takes the password as a C string: a NUL would cut it short.
                guard let secret = percentDecoded(parts[1]), !secret.utf8.contains(0) else {
                    return .failure(BrokerAddressError("the password is badly percent-encoded or has a NUL (%00)"))
                }
                password = secret
            }
        }
        var host: Substring
        var portText: Substring?
        if rest.hasPrefix("[") {
            guard let close = rest.firstIndex(of: "]") else {
                return .failure(BrokerAddressError("IPv6 host '\(rest)' lacks its closing ']'"))
            }
            host = rest[rest.index(after: rest.startIndex)..<close]
            let after = rest[rest.index(after: close)...]
            if !after.isEmpty {
                guard after.hasPrefix(":") else { return .failure(BrokerAddressError("unexpected '\(after)' after the host")) }
                portText = after.dropFirst()
            }
        } else if let colon = rest.lastIndex(of: ":") {
            host = rest[..<colon]
            portText = rest[rest.index(after: colon)...]
            guard !host.contains(":") else {
                return .failure(BrokerAddressError("host '\(host)' has a ':'; an IPv6 host goes in brackets, [::1]:1883"))
            }
        } else {
            host = rest
        }
        guard !host.isEmpty else { return .failure(BrokerAddressError("the host is missing")) }
        var port: Int32 = tls ? 8883 : 1883
        if let portText {
            guard let value = Int32(portText), (1...65535).contains(value) else {
                return .failure(BrokerAddressError("port '\(portText)' is not in 1...65535"))
            }
            port = value
        }
        return .success(BrokerAddress(tls: tls, host: String(host), port: port, username: username, password: password,
                                      prefix: prefix))
    }

    /// The longest topic prefix: room left in MQTT's 65,535 bytes for `/`, a region's name or key (at
    /// most 256 bytes) and the longest leaf.
    public static let maximumPrefixBytes = MQTTText.maximumBytes - 512

    private static func percentDecoded(_ text: Substring) -> String? {
        var bytes: [UInt8] = []
        var utf8 = text.utf8.makeIterator()
        while let byte = utf8.next() {
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                continue
            }
            guard let high = utf8.next(), let low = utf8.next(),
                  let value = UInt8(String(decoding: [high, low], as: UTF8.self), radix: 16) else { return nil }
            bytes.append(value)
        }
        return String(validating: bytes, as: UTF8.self)
    }
}

/// Why an MQTT URL was refused.
public struct BrokerAddressError: Error, Equatable, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}
