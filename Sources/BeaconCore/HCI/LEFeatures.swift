/// The LE_Features bitmap returned by HCI_LE_Read_Local_Supported_Features (Core Vol 4 Part E 7.8.3;
/// bit positions in Core Vol 6 Part B 4.6): what the link layer can do, as opposed to which HCI
/// commands the controller takes (`SupportedCommands`).
public struct LEFeatures: Equatable, Sendable {
    public let bits: UInt64

    /// Bit 11: LE Coded PHY.
    static let codedPHY = 11

    public init(bits: UInt64) {
        self.bits = bits
    }

    /// From the return parameters after the status byte. Fewer than 8 bytes throws; later bytes are ignored.
    public init(_ bytes: ArraySlice<UInt8>) throws(DecodeError) {
        var r = ByteReader(bytes)
        bits = try r.bytes(8, "LE_Features").reversed().reduce(0) { $0 << 8 | UInt64($1) }
    }

    /// Whether the controller can send and receive on the LE Coded PHY (long range).
    public var hasCodedPHY: Bool { bits & (1 << UInt64(Self.codedPHY)) != 0 }
}
