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
    /// Start Discovery, 0x0023: Address_Type (bit 1 LE Public, bit 2 LE Random).
    case startDiscovery
    /// Stop Discovery, 0x0024: Address_Type.
    case stopDiscovery
    /// Read Advertisement Monitor Features, 0x0051.
    case readAdvertisementMonitorFeatures
    /// Add Advertisement Patterns Monitor, 0x0052: Pattern_Count, then each pattern's AD_Type, Offset,
    /// Length and Value (31 bytes, zero-padded).
    case addAdvertisementPatternsMonitor([ManagementAdvertisementPattern])
    /// Remove Advertisement Monitor, 0x0053: Monitor_Handle (2); 0 would remove every monitor, so it is never sent.
    case removeAdvertisementMonitor(handle: UInt16)

    public var code: UInt16 {
        switch self {
        case .readSupportedCommands: 0x0002
        case .readControllerInformation: 0x0004
        case .readAdvertisingFeatures: 0x003D
        case .addAdvertising: 0x003E
        case .removeAdvertising: 0x003F
        case .addExtendedAdvertisingParameters: 0x0054
        case .addExtendedAdvertisingData: 0x0055
        case .startDiscovery: 0x0023
        case .stopDiscovery: 0x0024
        case .readAdvertisementMonitorFeatures: 0x0051
        case .addAdvertisementPatternsMonitor: 0x0052
        case .removeAdvertisementMonitor: 0x0053
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
        case 0x0023: "Start Discovery"
        case 0x0024: "Stop Discovery"
        case 0x0051: "Read Advertisement Monitor Features"
        case 0x0052: "Add Advertisement Patterns Monitor"
        case 0x0053: "Remove Advertisement Monitor"
        default: "management command 0x\(Hex.encode([UInt8(code >> 8), UInt8(code & 0xFF)]))"
        }
    }

    public var name: String { Self.name(of: code) }

    /// Discovery's Address_Type for LE only: LE Public (bit 1) and LE Random (bit 2).
    public static let leAddressTypes: UInt8 = 0x06

    public var parameters: [UInt8] {
        var writer = ByteWriter()
        switch self {
        case .readSupportedCommands, .readControllerInformation, .readAdvertisingFeatures, .readAdvertisementMonitorFeatures:
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
        case .startDiscovery, .stopDiscovery:
            writer.u8(Self.leAddressTypes)
        case .addAdvertisementPatternsMonitor(let patterns):
            writer.u8(UInt8(truncatingIfNeeded: patterns.count))
            for pattern in patterns {
                writer.u8(pattern.adType)
                writer.u8(pattern.offset)
                writer.u8(UInt8(truncatingIfNeeded: pattern.value.count))
                writer.append(pattern.value)
                writer.append([UInt8](repeating: 0, count: ManagementAdvertisementPattern.valueSize - pattern.value.count))
            }
        case .removeAdvertisementMonitor(let handle):
            writer.u16(handle)
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
