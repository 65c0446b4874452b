/// Where HCI packets come from and go to. One grammar for every command:
///
///     hciN or N                  kernel HCI socket, raw channel (shared with the system's Bluetooth stack)
///     hci-user:N                 kernel HCI socket, user channel (exclusive; the controller must be down)
///     mgmt:N                     kernel management interface (beside bluetoothd; advertise, range, scan)
///     monitor:N                  kernel monitor channel, read-only (what btmon sees; range and scan only)
///     tcp:HOST:PORT              H4 over TCP; IPv6 hosts in brackets: tcp:[::1]:9001
///     unix:PATH                  H4 over a unix stream socket
///     serial:DEVICE[,BAUD][,rtscts]  H4 over a serial line (default 115200 baud, standard rates only)
///     btsnoop:FILE               replay of a btsnoop capture
public enum TransportSpec: Hashable, Sendable, CustomStringConvertible {
    case kernelRaw(UInt16)
    case kernelUser(UInt16)
    /// The kernel's management interface (HCI_CHANNEL_CONTROL), which arbitrates between its users.
    case kernelManagement(UInt16)
    /// The kernel's monitor channel (HCI_CHANNEL_MONITOR): every packet of the controller, nothing sent.
    case kernelMonitor(UInt16)
    case tcp(host: String, port: UInt16)
    case unix(path: String)
    case serial(device: String, baud: Int, rtscts: Bool)
    case btsnoop(path: String)

    /// Baud rate when a serial spec names none.
    public static let defaultBaud = 115200

    /// Rates a Linux serial line accepts (the termios B constants).
    public static let standardBaudRates: [Int] = [
        50, 75, 110, 134, 150, 200, 300, 600, 1200, 1800, 2400, 4800, 9600, 19200, 38400, 57600,
        115200, 230400, 460800, 500000, 576000, 921600, 1000000, 1152000, 1500000, 2000000,
        2500000, 3000000, 3500000, 4000000,
    ]

    /// The valid forms, for help text and errors.
    public static let forms = "hciN or N, hci-user:N, mgmt:N, monitor:N, tcp:HOST:PORT (IPv6: tcp:[::1]:PORT), unix:PATH, serial:DEVICE[,BAUD][,rtscts], btsnoop:FILE"

    /// Parses one transport spec; the error says what is wrong and lists the valid forms.
    public static func parse(_ text: String) throws(TransportSpecError) -> TransportSpec {
        func fail(_ problem: TransportSpecError.Problem) -> TransportSpecError {
            TransportSpecError(text: text, problem: problem)
        }
        guard !text.isEmpty else { throw fail(.empty) }
        if let index = controllerIndex(text) { return .kernelRaw(index) }
        // Separators are found among Unicode scalars, not characters: a character may join a separator to
        // the scalar before it (U+070F followed by "," is one character), and then the spec would not split.
        let scalars = text.unicodeScalars
        guard let colon = scalars.firstIndex(of: ":") else {
            if text.hasPrefix("hci") { throw fail(.badControllerIndex(String(text.dropFirst(3)))) }
            if text.allSatisfy({ $0.isASCII && $0.isNumber }) { throw fail(.badControllerIndex(text)) }
            throw fail(.unknownForm)
        }
        let scheme = String(scalars[..<colon])
        let rest = String(scalars[scalars.index(after: colon)...])
        switch scheme {
        case "hci-user":
            guard let index = controllerIndex(rest) else { throw fail(.badControllerIndex(rest)) }
            return .kernelUser(index)
        case "mgmt":
            guard let index = controllerIndex(rest) else { throw fail(.badControllerIndex(rest)) }
            return .kernelManagement(index)
        case "monitor":
            guard let index = controllerIndex(rest) else { throw fail(.badControllerIndex(rest)) }
            return .kernelMonitor(index)
        case "tcp":
            return try parseTCP(rest, fail)
        case "unix":
            guard !rest.isEmpty else { throw fail(.missingPath) }
            return .unix(path: rest)
        case "serial":
            return try parseSerial(rest, fail)
        case "btsnoop":
            guard !rest.isEmpty else { throw fail(.missingPath) }
            return .btsnoop(path: rest)
        default:
            throw fail(.unknownForm)
        }
    }

    /// `N` or `hciN` with N a decimal controller index below 0xFFFF (HCI_DEV_NONE).
    private static func controllerIndex(_ text: String) -> UInt16? {
        let digits = text.hasPrefix("hci") ? text.dropFirst(3) : Substring(text)
        guard !digits.isEmpty, digits.count <= 5, digits.allSatisfy({ $0.isASCII && $0.isNumber }),
              let value = Int(digits), value < 0xFFFF else { return nil }
        return UInt16(value)
    }

    private static func parseTCP(_ rest: String, _ fail: (TransportSpecError.Problem) -> TransportSpecError)
        throws(TransportSpecError) -> TransportSpec {
        let host: String
        let portText: String
        let scalars = rest.unicodeScalars
        if scalars.first == "[" {
            guard let close = scalars.firstIndex(of: "]") else { throw fail(.badHost) }
            host = String(scalars[scalars.index(after: scalars.startIndex)..<close])
            let after = scalars[scalars.index(after: close)...]
            guard after.first == ":" else { throw fail(.missingPort) }
            portText = String(after.dropFirst())
            guard !host.isEmpty, host.unicodeScalars.contains(":") else { throw fail(.badHost) }
        } else {
            guard let colon = scalars.lastIndex(of: ":") else { throw fail(.missingPort) }
            host = String(scalars[..<colon])
            portText = String(scalars[scalars.index(after: colon)...])
            guard !host.isEmpty else { throw fail(.badHost) }
            guard !host.unicodeScalars.contains(":") else { throw fail(.unbracketedIPv6) }
        }
        guard !portText.isEmpty, portText.count <= 5, portText.allSatisfy({ $0.isASCII && $0.isNumber }),
              let port = Int(portText), (1...65535).contains(port) else { throw fail(.badPort(portText)) }
        return .tcp(host: host, port: UInt16(port))
    }

    private static func parseSerial(_ rest: String, _ fail: (TransportSpecError.Problem) -> TransportSpecError)
        throws(TransportSpecError) -> TransportSpec {
        let parts = rest.unicodeScalars.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        guard let device = parts.first, !device.isEmpty else { throw fail(.missingPath) }
        var baud: Int?
        var rtscts = false
        for option in parts.dropFirst() {
            if option == "rtscts", !rtscts {
                rtscts = true
            } else if baud == nil, !rtscts, !option.isEmpty, option.allSatisfy({ $0.isASCII && $0.isNumber }) {
                guard let value = Int(option), standardBaudRates.contains(value) else { throw fail(.badBaud(option)) }
                baud = value
            } else {
                throw fail(.badSerialOption(option))
            }
        }
        return .serial(device: device, baud: baud ?? defaultBaud, rtscts: rtscts)
    }

    /// The canonical spec, which `parse` reads back to the same value.
    public var description: String {
        switch self {
        case .kernelRaw(let index): "hci\(index)"
        case .kernelUser(let index): "hci-user:\(index)"
        case .kernelManagement(let index): "mgmt:\(index)"
        case .kernelMonitor(let index): "monitor:\(index)"
        case .tcp(let host, let port): host.unicodeScalars.contains(":") ? "tcp:[\(host)]:\(port)" : "tcp:\(host):\(port)"
        case .unix(let path): "unix:\(path)"
        case .serial(let device, let baud, let rtscts): "serial:\(device),\(baud)\(rtscts ? ",rtscts" : "")"
        case .btsnoop(let path): "btsnoop:\(path)"
        }
    }
}

/// Why a transport spec could not be parsed.
public struct TransportSpecError: Error, Hashable, Sendable, CustomStringConvertible {
    public enum Problem: Hashable, Sendable {
        case empty
        case unknownForm
        case badControllerIndex(String)
        case missingPort
        case badPort(String)
        case badHost
        case unbracketedIPv6
        case missingPath
        case badBaud(String)
        case badSerialOption(String)
    }

    /// The text as given.
    public var text: String
    public var problem: Problem

    public init(text: String, problem: Problem) {
        self.text = text
        self.problem = problem
    }

    public var description: String {
        let what: String
        switch problem {
        case .empty: what = "empty transport"
        case .unknownForm: what = "unknown transport '\(text)'"
        case .badControllerIndex(let index):
            what = "invalid controller index '\(index)' in '\(text)' (a decimal number below 65535)"
        case .missingPort: what = "missing port in '\(text)'"
        case .badPort(let port): what = "invalid port '\(port)' in '\(text)' (1-65535)"
        case .badHost: what = "missing or invalid host in '\(text)'"
        case .unbracketedIPv6: what = "IPv6 address in '\(text)' must be in brackets, e.g. tcp:[::1]:9001"
        case .missingPath: what = "missing path in '\(text)'"
        case .badBaud(let baud):
            what = "unsupported baud rate '\(baud)' in '\(text)' (standard rates such as 9600, 115200, 1000000, 3000000)"
        case .badSerialOption(let option):
            what = "unknown serial option '\(option)' in '\(text)' (expected serial:DEVICE[,BAUD][,rtscts])"
        }
        return "\(what); valid forms: \(TransportSpec.forms)"
    }
}
