/// The states and combinations of states the link layer supports: HCI_LE_Read_Supported_States's
/// LE_States (Core Vol 4 Part E 7.8.27), a 64-bit little-endian bitmap.
public struct LEStates: Equatable, Sendable {
    public let bits: UInt64

    /// Bit 8: Non-connectable Advertising State and Passive Scanning State combination.
    static let nonConnectableAdvertisingWithPassiveScanning = 8
    /// Bit 12: Non-connectable Advertising State and Active Scanning State combination.
    static let nonConnectableAdvertisingWithActiveScanning = 12

    public init(bits: UInt64) {
        self.bits = bits
    }

    /// From the return parameters after the status byte. Fewer than 8 bytes throws; later bytes are ignored.
    public init(_ bytes: ArraySlice<UInt8>) throws(DecodeError) {
        bits = try ByteReader.read(bytes) { r throws(DecodeError) in try r.u64("LE_States") }
    }

    /// Whether the controller may advertise a beacon (non-connectable) while it scans, actively or passively.
    public func allowsAdvertising(whileScanning active: Bool) -> Bool {
        let bit = active ? Self.nonConnectableAdvertisingWithActiveScanning : Self.nonConnectableAdvertisingWithPassiveScanning
        return bits & (1 << UInt64(bit)) != 0
    }
}
