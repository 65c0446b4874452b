/// The Supported_Commands bitmap returned by HCI_Read_Local_Supported_Commands
/// (Core Vol 4 Part E 7.4.2; bit positions in Core Vol 4 Part E 6.27).
public struct SupportedCommands: Hashable, Sendable {
    /// Length of the bitmap in octets.
    public static let octetCount = 64

    /// The 64 octets as the controller sent them.
    public let octets: [UInt8]

    /// From the return parameters after the status byte. Fewer than 64 bytes throws; later bytes are ignored.
    public init(_ bytes: ArraySlice<UInt8>) throws(DecodeError) {
        octets = try ByteReader.read(bytes) { r throws(DecodeError) in Array(try r.bytes(Self.octetCount, "Supported_Commands")) }
    }

    /// A bitmap with exactly the given commands' bits set, as a controller supporting only those sends it.
    /// Opcodes without a bit position are ignored.
    public init(supporting opcodes: [HCIOpcode]) {
        var octets = [UInt8](repeating: 0, count: Self.octetCount)
        for opcode in opcodes {
            if let (octet, bit) = Self.bit(for: opcode) { octets[octet] |= 1 << bit }
        }
        self.octets = octets
    }

    /// Octet and bit of each command this package sends (Core Vol 4 Part E 6.27).
    static func bit(for opcode: HCIOpcode) -> (octet: Int, bit: Int)? {
        switch opcode {
        case .setEventMask: (5, 6)
        case .reset: (5, 7)
        case .readLocalVersionInformation: (14, 3)
        case .readLocalSupportedFeatures: (14, 5)
        case .readBDAddr: (15, 1)
        case .leSetEventMask: (25, 0)
        case .leReadBufferSize: (25, 1)
        case .leReadLocalSupportedFeatures: (25, 2)
        case .leSetRandomAddress: (25, 4)
        case .leSetAdvertisingParameters: (25, 5)
        case .leReadAdvertisingPhysicalChannelTxPower: (25, 6)
        case .leSetAdvertisingData: (25, 7)
        case .leSetScanResponseData: (26, 0)
        case .leSetAdvertisingEnable: (26, 1)
        case .leSetScanParameters: (26, 2)
        case .leSetScanEnable: (26, 3)
        case .leReadSupportedStates: (28, 3)
        case .leSetAdvertisingSetRandomAddress: (36, 1)
        case .leSetExtendedAdvertisingParameters: (36, 2)
        case .leSetExtendedAdvertisingData: (36, 3)
        case .leSetExtendedScanResponseData: (36, 4)
        case .leSetExtendedAdvertisingEnable: (36, 5)
        case .leReadMaximumAdvertisingDataLength: (36, 6)
        case .leRemoveAdvertisingSet: (37, 0)
        case .leClearAdvertisingSets: (37, 1)
        case .leSetExtendedScanParameters: (37, 5)
        case .leSetExtendedScanEnable: (37, 6)
        default: nil
        }
    }

    /// Whether the controller reports `opcode` as supported. HCI_Read_Local_Supported_Commands has no
    /// bit of its own; having this bitmap means it worked, so it is reported as supported. Opcodes this
    /// package has no bit position for (including NOP) report false.
    public func supports(_ opcode: HCIOpcode) -> Bool {
        if opcode == .readLocalSupportedCommands { return true }
        guard let (octet, bit) = Self.bit(for: opcode), octet < octets.count else { return false }
        return octets[octet] & (1 << bit) != 0
    }

    /// HCI_LE_Set_Extended_Scan_Parameters and HCI_LE_Set_Extended_Scan_Enable.
    public var hasExtendedScanning: Bool {
        supports(.leSetExtendedScanParameters) && supports(.leSetExtendedScanEnable)
    }

    /// HCI_LE_Set_Extended_Advertising_Parameters, _Data and _Enable.
    public var hasExtendedAdvertising: Bool {
        supports(.leSetExtendedAdvertisingParameters) && supports(.leSetExtendedAdvertisingData)
            && supports(.leSetExtendedAdvertisingEnable)
    }
}
