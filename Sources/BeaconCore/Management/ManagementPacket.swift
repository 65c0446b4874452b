/// One packet of the kernel's management interface (HCI_CHANNEL_CONTROL; BlueZ doc/mgmt-api.txt,
/// "Packet Structures"): a command or event code, a controller index and the parameter length, each
/// 16-bit little-endian, then the parameters.
public struct ManagementPacket: Hashable, Sendable {
    public var code: UInt16
    /// The controller; `noController` (0xFFFF) for commands and events about none.
    public var index: UInt16
    public var parameters: [UInt8]

    public static let headerSize = 6
    public static let noController: UInt16 = 0xFFFF

    public init(code: UInt16, index: UInt16, parameters: [UInt8]) {
        self.code = code
        self.index = index
        self.parameters = parameters
    }

    public var bytes: [UInt8] {
        var writer = ByteWriter(capacity: Self.headerSize + parameters.count)
        writer.u16(code)
        writer.u16(index)
        writer.u16(UInt16(truncatingIfNeeded: parameters.count))
        writer.append(parameters)
        return writer.bytes
    }

    /// Reads one packet from a datagram: the declared length must be there; bytes after it are not part of it.
    public static func decode(_ datagram: ArraySlice<UInt8>) throws(DecodeError) -> ManagementPacket {
        var reader = ByteReader(datagram)
        let code = try reader.u16("code")
        let index = try reader.u16("controller index")
        let length = try reader.u16("parameter length")
        let parameters = try reader.bytes(Int(length), "parameters")
        return ManagementPacket(code: code, index: index, parameters: Array(parameters))
    }
}

/// Management status codes (mgmt-api.txt, "Error Codes").
public enum ManagementStatus: Hashable, Sendable, CustomStringConvertible {
    case success, unknownCommand, notConnected, failed, connectFailed, authenticationFailed, notPaired
    case noResources, timeout, alreadyConnected, busy, rejected, notSupported, invalidParameters
    case disconnected, notPowered, cancelled, invalidIndex, rfKilled, alreadyPaired, permissionDenied
    case unknown(UInt8)

    private static let known: [ManagementStatus] = [
        .success, .unknownCommand, .notConnected, .failed, .connectFailed, .authenticationFailed, .notPaired,
        .noResources, .timeout, .alreadyConnected, .busy, .rejected, .notSupported, .invalidParameters,
        .disconnected, .notPowered, .cancelled, .invalidIndex, .rfKilled, .alreadyPaired, .permissionDenied,
    ]

    public init(rawValue: UInt8) {
        self = Int(rawValue) < Self.known.count ? Self.known[Int(rawValue)] : .unknown(rawValue)
    }

    public var rawValue: UInt8 {
        if case .unknown(let raw) = self { return raw }
        return UInt8(Self.known.firstIndex(of: self) ?? 0xFF)
    }

    public var description: String {
        let name = switch self {
        case .success: "Success"
        case .unknownCommand: "Unknown Command"
        case .notConnected: "Not Connected"
        case .failed: "Failed"
        case .connectFailed: "Connect Failed"
        case .authenticationFailed: "Authentication Failed"
        case .notPaired: "Not Paired"
        case .noResources: "No Resources"
        case .timeout: "Timeout"
        case .alreadyConnected: "Already Connected"
        case .busy: "Busy"
        case .rejected: "Rejected"
        case .notSupported: "Not Supported"
        case .invalidParameters: "Invalid Parameters"
        case .disconnected: "Disconnected"
        case .notPowered: "Not Powered"
        case .cancelled: "Cancelled"
        case .invalidIndex: "Invalid Index"
        case .rfKilled: "RFKilled"
        case .alreadyPaired: "Already Paired"
        case .permissionDenied: "Permission Denied"
        case .unknown: "unknown status"
        }
        return "\(name) (0x\(Hex.encode([rawValue])))"
    }
}
