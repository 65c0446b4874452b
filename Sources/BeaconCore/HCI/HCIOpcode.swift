/// A 16-bit HCI command opcode: OGF in the top 6 bits, OCF in the low 10 (Core Vol 4 Part E 5.4.1).
public struct HCIOpcode: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public var rawValue: UInt16

    public init(rawValue: UInt16) { self.rawValue = rawValue }

    /// Packs an OGF (6 bits) and OCF (10 bits); higher bits are dropped.
    public init(ogf: UInt8, ocf: UInt16) {
        rawValue = UInt16(ogf & 0x3F) << 10 | (ocf & 0x03FF)
    }

    /// Opcode Group Field.
    public var ogf: UInt8 { UInt8(truncatingIfNeeded: rawValue >> 10) }
    /// Opcode Command Field.
    public var ocf: UInt16 { rawValue & 0x03FF }

    // MARK: Controller & Baseband (OGF 0x03)

    /// HCI_Set_Event_Mask, Core Vol 4 Part E 7.3.1
    public static let setEventMask = HCIOpcode(ogf: 0x03, ocf: 0x0001)
    /// HCI_Reset, Core Vol 4 Part E 7.3.2
    public static let reset = HCIOpcode(ogf: 0x03, ocf: 0x0003)

    // MARK: Informational parameters (OGF 0x04)

    /// HCI_Read_Local_Version_Information, Core Vol 4 Part E 7.4.1
    public static let readLocalVersionInformation = HCIOpcode(ogf: 0x04, ocf: 0x0001)
    /// HCI_Read_Local_Supported_Commands, Core Vol 4 Part E 7.4.2
    public static let readLocalSupportedCommands = HCIOpcode(ogf: 0x04, ocf: 0x0002)
    /// HCI_Read_Local_Supported_Features, Core Vol 4 Part E 7.4.3
    public static let readLocalSupportedFeatures = HCIOpcode(ogf: 0x04, ocf: 0x0003)
    /// HCI_Read_BD_ADDR, Core Vol 4 Part E 7.4.6
    public static let readBDAddr = HCIOpcode(ogf: 0x04, ocf: 0x0009)

    // MARK: LE Controller (OGF 0x08)

    /// HCI_LE_Set_Event_Mask, Core Vol 4 Part E 7.8.1
    public static let leSetEventMask = HCIOpcode(ogf: 0x08, ocf: 0x0001)
    /// HCI_LE_Read_Buffer_Size, Core Vol 4 Part E 7.8.2
    public static let leReadBufferSize = HCIOpcode(ogf: 0x08, ocf: 0x0002)
    /// HCI_LE_Read_Local_Supported_Features, Core Vol 4 Part E 7.8.3
    public static let leReadLocalSupportedFeatures = HCIOpcode(ogf: 0x08, ocf: 0x0003)
    /// HCI_LE_Set_Random_Address, Core Vol 4 Part E 7.8.4
    public static let leSetRandomAddress = HCIOpcode(ogf: 0x08, ocf: 0x0005)
    /// HCI_LE_Set_Advertising_Parameters, Core Vol 4 Part E 7.8.5
    public static let leSetAdvertisingParameters = HCIOpcode(ogf: 0x08, ocf: 0x0006)
    /// HCI_LE_Read_Advertising_Physical_Channel_Tx_Power, Core Vol 4 Part E 7.8.6
    public static let leReadAdvertisingPhysicalChannelTxPower = HCIOpcode(ogf: 0x08, ocf: 0x0007)
    /// HCI_LE_Set_Advertising_Data, Core Vol 4 Part E 7.8.7
    public static let leSetAdvertisingData = HCIOpcode(ogf: 0x08, ocf: 0x0008)
    /// HCI_LE_Set_Scan_Response_Data, Core Vol 4 Part E 7.8.8
    public static let leSetScanResponseData = HCIOpcode(ogf: 0x08, ocf: 0x0009)
    /// HCI_LE_Set_Advertising_Enable, Core Vol 4 Part E 7.8.9
    public static let leSetAdvertisingEnable = HCIOpcode(ogf: 0x08, ocf: 0x000A)
    /// HCI_LE_Set_Scan_Parameters, Core Vol 4 Part E 7.8.10
    public static let leSetScanParameters = HCIOpcode(ogf: 0x08, ocf: 0x000B)
    /// HCI_LE_Set_Scan_Enable, Core Vol 4 Part E 7.8.11
    public static let leSetScanEnable = HCIOpcode(ogf: 0x08, ocf: 0x000C)
    /// HCI_LE_Read_Supported_States, Core Vol 4 Part E 7.8.27
    public static let leReadSupportedStates = HCIOpcode(ogf: 0x08, ocf: 0x001C)
    /// HCI_LE_Set_Advertising_Set_Random_Address, Core Vol 4 Part E 7.8.52
    public static let leSetAdvertisingSetRandomAddress = HCIOpcode(ogf: 0x08, ocf: 0x0035)
    /// HCI_LE_Set_Extended_Advertising_Parameters, Core Vol 4 Part E 7.8.53
    public static let leSetExtendedAdvertisingParameters = HCIOpcode(ogf: 0x08, ocf: 0x0036)
    /// HCI_LE_Set_Extended_Advertising_Data, Core Vol 4 Part E 7.8.54
    public static let leSetExtendedAdvertisingData = HCIOpcode(ogf: 0x08, ocf: 0x0037)
    /// HCI_LE_Set_Extended_Scan_Response_Data, Core Vol 4 Part E 7.8.55
    public static let leSetExtendedScanResponseData = HCIOpcode(ogf: 0x08, ocf: 0x0038)
    /// HCI_LE_Set_Extended_Advertising_Enable, Core Vol 4 Part E 7.8.56
    public static let leSetExtendedAdvertisingEnable = HCIOpcode(ogf: 0x08, ocf: 0x0039)
    /// HCI_LE_Read_Maximum_Advertising_Data_Length, Core Vol 4 Part E 7.8.57
    public static let leReadMaximumAdvertisingDataLength = HCIOpcode(ogf: 0x08, ocf: 0x003A)
    /// HCI_LE_Remove_Advertising_Set, Core Vol 4 Part E 7.8.59
    public static let leRemoveAdvertisingSet = HCIOpcode(ogf: 0x08, ocf: 0x003C)
    /// HCI_LE_Clear_Advertising_Sets, Core Vol 4 Part E 7.8.60
    public static let leClearAdvertisingSets = HCIOpcode(ogf: 0x08, ocf: 0x003D)
    /// HCI_LE_Set_Extended_Scan_Parameters, Core Vol 4 Part E 7.8.64
    public static let leSetExtendedScanParameters = HCIOpcode(ogf: 0x08, ocf: 0x0041)
    /// HCI_LE_Set_Extended_Scan_Enable, Core Vol 4 Part E 7.8.65
    public static let leSetExtendedScanEnable = HCIOpcode(ogf: 0x08, ocf: 0x0042)

    /// No operation: the opcode of a Command Complete or Command Status that only grants credits
    /// (Core Vol 4 Part E 7.7.14).
    public static let nop = HCIOpcode(rawValue: 0x0000)

    /// Every named opcode, in the order of the spec sections.
    public static let known: [HCIOpcode] = [
        .nop, .setEventMask, .reset, .readLocalVersionInformation, .readLocalSupportedCommands,
        .readLocalSupportedFeatures, .readBDAddr, .leSetEventMask, .leReadBufferSize,
        .leReadLocalSupportedFeatures, .leSetRandomAddress, .leSetAdvertisingParameters,
        .leReadAdvertisingPhysicalChannelTxPower, .leSetAdvertisingData, .leSetScanResponseData,
        .leSetAdvertisingEnable, .leSetScanParameters, .leSetScanEnable, .leReadSupportedStates, .leSetAdvertisingSetRandomAddress,
        .leSetExtendedAdvertisingParameters, .leSetExtendedAdvertisingData, .leSetExtendedScanResponseData,
        .leSetExtendedAdvertisingEnable, .leReadMaximumAdvertisingDataLength, .leRemoveAdvertisingSet,
        .leClearAdvertisingSets, .leSetExtendedScanParameters, .leSetExtendedScanEnable,
    ]

    /// The spec name for a known opcode, nil otherwise.
    public var specName: String? {
        switch self {
        case .nop: "HCI_NOP"
        case .setEventMask: "HCI_Set_Event_Mask"
        case .reset: "HCI_Reset"
        case .readLocalVersionInformation: "HCI_Read_Local_Version_Information"
        case .readLocalSupportedCommands: "HCI_Read_Local_Supported_Commands"
        case .readLocalSupportedFeatures: "HCI_Read_Local_Supported_Features"
        case .readBDAddr: "HCI_Read_BD_ADDR"
        case .leSetEventMask: "HCI_LE_Set_Event_Mask"
        case .leReadBufferSize: "HCI_LE_Read_Buffer_Size"
        case .leReadLocalSupportedFeatures: "HCI_LE_Read_Local_Supported_Features"
        case .leSetRandomAddress: "HCI_LE_Set_Random_Address"
        case .leSetAdvertisingParameters: "HCI_LE_Set_Advertising_Parameters"
        case .leReadAdvertisingPhysicalChannelTxPower: "HCI_LE_Read_Advertising_Physical_Channel_Tx_Power"
        case .leSetAdvertisingData: "HCI_LE_Set_Advertising_Data"
        case .leSetScanResponseData: "HCI_LE_Set_Scan_Response_Data"
        case .leSetAdvertisingEnable: "HCI_LE_Set_Advertising_Enable"
        case .leSetScanParameters: "HCI_LE_Set_Scan_Parameters"
        case .leSetScanEnable: "HCI_LE_Set_Scan_Enable"
        case .leReadSupportedStates: "HCI_LE_Read_Supported_States"
        case .leSetAdvertisingSetRandomAddress: "HCI_LE_Set_Advertising_Set_Random_Address"
        case .leSetExtendedAdvertisingParameters: "HCI_LE_Set_Extended_Advertising_Parameters"
        case .leSetExtendedAdvertisingData: "HCI_LE_Set_Extended_Advertising_Data"
        case .leSetExtendedScanResponseData: "HCI_LE_Set_Extended_Scan_Response_Data"
        case .leSetExtendedAdvertisingEnable: "HCI_LE_Set_Extended_Advertising_Enable"
        case .leReadMaximumAdvertisingDataLength: "HCI_LE_Read_Maximum_Advertising_Data_Length"
        case .leRemoveAdvertisingSet: "HCI_LE_Remove_Advertising_Set"
        case .leClearAdvertisingSets: "HCI_LE_Clear_Advertising_Sets"
        case .leSetExtendedScanParameters: "HCI_LE_Set_Extended_Scan_Parameters"
        case .leSetExtendedScanEnable: "HCI_LE_Set_Extended_Scan_Enable"
        default: nil
        }
    }

    /// The spec name (`HCI_LE_Set_Scan_Enable`), or `opcode 0xFC01 (OGF 0x3F, OCF 0x0001)` for one not named here.
    public var name: String {
        if let specName { return specName }
        let ocfBytes = [UInt8(truncatingIfNeeded: ocf >> 8), UInt8(truncatingIfNeeded: ocf)]
        let rawBytes = [UInt8(truncatingIfNeeded: rawValue >> 8), UInt8(truncatingIfNeeded: rawValue)]
        return "opcode 0x\(Hex.encode(rawBytes)) (OGF 0x\(Hex.encode([ogf])), OCF 0x\(Hex.encode(ocfBytes)))"
    }

    public var description: String { name }
}
