/// The management commands beacon sends (BlueZ doc/mgmt-api.txt, by section name), as packets.
public enum ManagementCommand: Hashable, Sendable {
    /// Read Management Supported Commands, 0x0002 (non-controller).
    case readSupportedCommands
    /// Read Controller Information, 0x0004.
    case readControllerInformation
    /// Read Advertising Features, 0x003D.
    case readAdvertisingFeatures
    /// Add Advertising, 0x003E: Instance, Flags (4), Duration (2), Timeout (2), Adv_Data_Len, Scan_Rsp_Len, data.
    case addAdvertising(instance: UInt8, flags: ManagementAdvertisingFlags, data: [UInt8])
    /// Remove Advertising, 0x003F.
    case removeAdvertising(instance: UInt8)
    /// Add Extended Advertising Parameters, 0x0054: Instance, Flags (4), Duration (2), Timeout (2),
    /// MinInterval (4), MaxInterval (4), TxPower (1); intervals in 0.625 ms slots.
    case addExtendedAdvertisingParameters(instance: UInt8, flags: ManagementAdvertisingFlags, interval: UInt32, txPower: Int8)
    /// Add Extended Advertising Data, 0x0055: Instance, Advertising Data Length, Scan Response Length, data.
    case addExtendedAdvertisingData(instance: UInt8, data: [UInt8])

    public var code: UInt16 {
        switch self {
        case .readSupportedCommands: 0x0002
        case .readControllerInformation: 0x0004
        case .readAdvertisingFeatures: 0x003D
        case .addAdvertising: 0x003E
        case .removeAdvertising: 0x003F
        case .addExtendedAdvertisingParameters: 0x0054
        case .addExtendedAdvertisingData: 0x0055
        }
    }

    public static func name(of code: UInt16) -> String {
        switch code {
        case 0x0002: "Read Management Supported Commands"
        case 0x0004: "Read Controller Information"
        case 0x003D: "Read Advertising Features"
        case 0x003E: "Add Advertising"
        case 0x003F: "Remove Advertising"
        case 0x0054: "Add Extended Advertising Parameters"
        case 0x0055: "Add Extended Advertising Data"
        default: "management command 0x\(Hex.encode([UInt8(code >> 8), UInt8(code & 0xFF)]))"
        }
    }

    public var name: String { Self.name(of: code) }

    public var parameters: [UInt8] {
        var writer = ByteWriter()
        switch self {
        case .readSupportedCommands, .readControllerInformation, .readAdvertisingFeatures:
            break
        case .addAdvertising(let instance, let flags, let data):
            writer.u8(instance)
            writer.u32(flags.rawValue)
            writer.u16(0)  // Duration: the kernel's default share when instances take turns
            writer.u16(0)  // Timeout: none, removed at exit
            writer.u8(UInt8(truncatingIfNeeded: data.count))
            writer.u8(0)  // no scan response
            writer.append(data)
        case .removeAdvertising(let instance):
            writer.u8(instance)
        case .addExtendedAdvertisingParameters(let instance, let flags, let interval, let txPower):
            writer.u8(instance)
            writer.u32(flags.rawValue)
            writer.u16(0)
            writer.u16(0)
            writer.u32(interval)
            writer.u32(interval)
            writer.i8(txPower)
        case .addExtendedAdvertisingData(let instance, let data):
            writer.u8(instance)
            writer.u8(UInt8(truncatingIfNeeded: data.count))
            writer.u8(0)
            writer.append(data)
        }
        return writer.bytes
    }

    /// The packet for controller `index` (the non-controller index for commands about none).
    public func packet(controller index: UInt16) -> ManagementPacket {
        let target = self == .readSupportedCommands ? ManagementPacket.noController : index
        return ManagementPacket(code: code, index: target, parameters: parameters)
    }
}

/// The Flags of Add Advertising and Add Extended Advertising Parameters (mgmt-api.txt, bits 0-16).
public struct ManagementAdvertisingFlags: OptionSet, Hashable, Sendable {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// Bit 0: Switch into Connectable mode.
    public static let connectable = ManagementAdvertisingFlags(rawValue: 1 << 0)
    /// Bit 14: the Interval parameters should be used.
    public static let useInterval = ManagementAdvertisingFlags(rawValue: 1 << 14)
    /// Bit 15: the Tx Power parameter should be used.
    public static let useTxPower = ManagementAdvertisingFlags(rawValue: 1 << 15)
}
