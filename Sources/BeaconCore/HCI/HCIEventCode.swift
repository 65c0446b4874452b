/// An HCI event code (Core Vol 4 Part E 7.7).
public struct HCIEventCode: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public var rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// HCI_Disconnection_Complete, Core Vol 4 Part E 7.7.5
    public static let disconnectionComplete = HCIEventCode(rawValue: 0x05)
    /// HCI_Command_Complete, Core Vol 4 Part E 7.7.14
    public static let commandComplete = HCIEventCode(rawValue: 0x0E)
    /// HCI_Command_Status, Core Vol 4 Part E 7.7.15
    public static let commandStatus = HCIEventCode(rawValue: 0x0F)
    /// HCI_Hardware_Error, Core Vol 4 Part E 7.7.16
    public static let hardwareError = HCIEventCode(rawValue: 0x10)
    /// HCI_Number_Of_Completed_Packets, Core Vol 4 Part E 7.7.19
    public static let numberOfCompletedPackets = HCIEventCode(rawValue: 0x13)
    /// HCI_Data_Buffer_Overflow, Core Vol 4 Part E 7.7.26
    public static let dataBufferOverflow = HCIEventCode(rawValue: 0x1A)
    /// HCI_LE_Meta, Core Vol 4 Part E 7.7.65
    public static let leMeta = HCIEventCode(rawValue: 0x3E)
    /// Vendor-specific debug event, Core Vol 4 Part E 5.4.4
    public static let vendorSpecific = HCIEventCode(rawValue: 0xFF)

    public var specName: String? {
        switch self {
        case .disconnectionComplete: "HCI_Disconnection_Complete"
        case .commandComplete: "HCI_Command_Complete"
        case .commandStatus: "HCI_Command_Status"
        case .hardwareError: "HCI_Hardware_Error"
        case .numberOfCompletedPackets: "HCI_Number_Of_Completed_Packets"
        case .dataBufferOverflow: "HCI_Data_Buffer_Overflow"
        case .leMeta: "HCI_LE_Meta"
        case .vendorSpecific: "HCI_Vendor_Specific"
        default: nil
        }
    }

    /// The spec name, or `event 0x57` for one not named here.
    public var name: String { specName ?? "event 0x\(Hex.encode([rawValue]))" }
    public var description: String { name }
}

/// An LE Meta subevent code (Core Vol 4 Part E 7.7.65).
public struct LESubeventCode: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public var rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// HCI_LE_Connection_Complete, Core Vol 4 Part E 7.7.65.1
    public static let connectionComplete = LESubeventCode(rawValue: 0x01)
    /// HCI_LE_Advertising_Report, Core Vol 4 Part E 7.7.65.2
    public static let advertisingReport = LESubeventCode(rawValue: 0x02)
    /// HCI_LE_Enhanced_Connection_Complete, Core Vol 4 Part E 7.7.65.10
    public static let enhancedConnectionComplete = LESubeventCode(rawValue: 0x0A)
    /// HCI_LE_Directed_Advertising_Report, Core Vol 4 Part E 7.7.65.11
    public static let directedAdvertisingReport = LESubeventCode(rawValue: 0x0B)
    /// HCI_LE_Extended_Advertising_Report, Core Vol 4 Part E 7.7.65.13
    public static let extendedAdvertisingReport = LESubeventCode(rawValue: 0x0D)
    /// HCI_LE_Scan_Timeout, Core Vol 4 Part E 7.7.65.17
    public static let scanTimeout = LESubeventCode(rawValue: 0x11)
    /// HCI_LE_Advertising_Set_Terminated, Core Vol 4 Part E 7.7.65.18
    public static let advertisingSetTerminated = LESubeventCode(rawValue: 0x12)
    /// HCI_LE_Scan_Request_Received, Core Vol 4 Part E 7.7.65.19
    public static let scanRequestReceived = LESubeventCode(rawValue: 0x13)

    public var specName: String? {
        switch self {
        case .connectionComplete: "HCI_LE_Connection_Complete"
        case .advertisingReport: "HCI_LE_Advertising_Report"
        case .enhancedConnectionComplete: "HCI_LE_Enhanced_Connection_Complete"
        case .directedAdvertisingReport: "HCI_LE_Directed_Advertising_Report"
        case .extendedAdvertisingReport: "HCI_LE_Extended_Advertising_Report"
        case .scanTimeout: "HCI_LE_Scan_Timeout"
        case .advertisingSetTerminated: "HCI_LE_Advertising_Set_Terminated"
        case .scanRequestReceived: "HCI_LE_Scan_Request_Received"
        default: nil
        }
    }

    /// The spec name, or `LE subevent 0x2A` for one not named here.
    public var name: String { specName ?? "LE subevent 0x\(Hex.encode([rawValue]))" }
    public var description: String { name }
}
