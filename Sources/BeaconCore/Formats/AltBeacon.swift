/// AltBeacon's 20-byte beacon identifier, split as the AltBeacon library shows it: ID1 (16 bytes, in
/// UUID form), ID2 and ID3 (2 bytes each, big-endian).
public struct AltBeaconID: Hashable, Sendable, Comparable, CustomStringConvertible {
    public var id1: BeaconUUID
    public var id2: UInt16
    public var id3: UInt16

    public init(id1: BeaconUUID, id2: UInt16, id3: UInt16) {
        self.id1 = id1
        self.id2 = id2
        self.id3 = id3
    }

    public var description: String { "\(id1):\(id2):\(id3)" }

    public static func < (a: AltBeaconID, b: AltBeaconID) -> Bool {
        (a.id1, a.id2, a.id3) < (b.id1, b.id2, b.id3)
    }
}

/// An AltBeacon advertisement (AltBeacon Protocol Specification v1.0): Manufacturer Specific Data of
/// any company, the beacon code 0xBEAC (big-endian), the 20-byte beacon ID, the reference RSSI at 1 m
/// (signed dBm) and one byte reserved for the manufacturer.
public struct AltBeacon: Hashable, Sendable {
    public var identity: AltBeaconID
    /// The advertiser's company identifier (any company may send AltBeacons).
    public var companyID: UInt16
    /// Average received signal strength at 1 m (dBm), AltBeacon's "reference RSSI": iBeacon's measured power.
    public var referenceRSSI: Int8
    /// MFG RSVD: the manufacturer's own use.
    public var reserved: UInt8

    public init(identity: AltBeaconID, companyID: UInt16, referenceRSSI: Int8, reserved: UInt8) {
        self.identity = identity
        self.companyID = companyID
        self.referenceRSSI = referenceRSSI
        self.reserved = reserved
    }

    /// The beacon an advertiser sends: Radius Networks' company identifier and a reserved byte of 0
    /// unless given.
    public init(companyID: UInt16 = radiusNetworksCompanyID, id1: BeaconUUID, id2: UInt16, id3: UInt16,
                referenceRSSI: Int8, reserved: UInt8 = 0) {
        self.init(identity: AltBeaconID(id1: id1, id2: id2, id3: id3), companyID: companyID,
                  referenceRSSI: referenceRSSI, reserved: reserved)
    }

    /// Radius Networks, the company that published AltBeacon: the AltBeacon library's default.
    public static let radiusNetworksCompanyID: UInt16 = 0x0118
    /// The beacon code that follows the company identifier, 0xBEAC sent as BE AC.
    public static let beaconCode: UInt16 = 0xBEAC
    /// Company (2), beacon code (2), beacon ID (20), reference RSSI (1), reserved (1).
    public static let manufacturerDataLength = 26

    /// From the value of a Manufacturer Specific Data structure. Nil unless it carries the beacon code
    /// and the 24 bytes after the company identifier (a shorter one is some other manufacturer's data;
    /// bytes after the 26 are ignored).
    public init?(manufacturerData data: ArraySlice<UInt8>) {
        guard let beacon = data.withUnsafeBytes({ Self(manufacturerData: $0) }) else { return nil }
        self = beacon
    }

    /// The same from the bytes in place.
    @inline(__always)
    init?(manufacturerData data: UnsafeRawBufferPointer) {
        guard var f = ByteReader(data).prefix(Self.manufacturerDataLength) else { return nil }
        do throws(DecodeError) {
            companyID = try f.u16("company identifier")
            guard try f.u16BigEndian("beacon code") == Self.beaconCode else { return nil }
            identity = AltBeaconID(id1: BeaconUUID(high: try f.u64BigEndian("ID1"), low: try f.u64BigEndian("ID1")),
                                   id2: try f.u16BigEndian("ID2"), id3: try f.u16BigEndian("ID3"))
            referenceRSSI = try f.i8("reference RSSI")
            reserved = try f.u8("MFG RSVD")
        } catch {
            // Unreachable: the reads lie inside the prefix checked above.
            return nil
        }
    }
}

extension AltBeacon {
    /// The 26-byte Manufacturer Specific Data value: the company identifier little-endian as every
    /// company identifier, then `BE AC`, ID1, ID2 and ID3 big-endian, the reference RSSI and the
    /// reserved byte.
    public var manufacturerData: [UInt8] {
        var w = ByteWriter(capacity: Self.manufacturerDataLength)
        w.u16(companyID)
        w.u16BigEndian(Self.beaconCode)
        w.append(identity.id1.bytes)
        w.u16BigEndian(identity.id2)
        w.u16BigEndian(identity.id3)
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
