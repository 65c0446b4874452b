/// An AltBeacon advertisement (AltBeacon Protocol Specification 1.0): Manufacturer Specific Data
/// with any company identifier, the beacon code 0xBEAC, a 20-byte beacon identifier, the reference
/// RSSI and a byte reserved for the manufacturer. The identifier is written as the AltBeacon
/// library reads it: ID1 (16 bytes, UUID form), ID2 and ID3 (2 bytes each), all big-endian.
public struct AltBeaconPayload: Hashable, Sendable {
    /// Company identifier (Assigned Numbers), sent little-endian as every company identifier.
    public var companyID: UInt16
    public var id1: BeaconUUID
    public var id2: UInt16
    public var id3: UInt16
    /// Average RSSI at 1 m in dBm (signed): the same calibration as iBeacon's measured power.
    public var referenceRSSI: Int8
    /// The manufacturer's own byte, carried as given.
    public var reserved: UInt8

    /// Radius Networks, the company that published AltBeacon: the AltBeacon library's default.
    public static let radiusNetworksCompanyID: UInt16 = 0x0118
    /// The two bytes after the company identifier, sent `BE AC`.
    public static let beaconCode: UInt16 = 0xBEAC
    /// Company identifier (2), beacon code (2), beacon ID (20), reference RSSI and reserved byte.
    public static let manufacturerDataLength = 26

    public init(companyID: UInt16 = radiusNetworksCompanyID, id1: BeaconUUID, id2: UInt16, id3: UInt16,
                referenceRSSI: Int8, reserved: UInt8 = 0) {
        self.companyID = companyID
        self.id1 = id1
        self.id2 = id2
        self.id3 = id3
        self.referenceRSSI = referenceRSSI
        self.reserved = reserved
    }

    /// The 26-byte Manufacturer Specific Data value.
    public var manufacturerData: [UInt8] {
        var w = ByteWriter(capacity: Self.manufacturerDataLength)
        w.u16(companyID)
        w.u16BigEndian(Self.beaconCode) // `BE AC` on air, whatever the company
        w.append(id1.bytes)
        w.u16BigEndian(id2)
        w.u16BigEndian(id3)
        w.i8(referenceRSSI)
        w.u8(reserved)
        return w.bytes
    }

    /// The 31-byte advertising data: Flags (LE General Discoverable, BR/EDR Not Supported), then the
    /// 28-byte AltBeacon structure (length 0x1B, type 0xFF, 26 bytes). It fills a legacy advertisement.
    public var advertisingData: [UInt8] {
        AdvertisingData.beacon([(.manufacturerSpecificData, manufacturerData)])
    }
}
