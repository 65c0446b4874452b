/// The identity an iBeacon advertises: proximity UUID, major and minor.
public struct IBeaconID: Hashable, Sendable, Comparable, CustomStringConvertible {
    public var uuid: BeaconUUID
    public var major: UInt16
    public var minor: UInt16

    public init(uuid: BeaconUUID, major: UInt16, minor: UInt16) {
        self.uuid = uuid
        self.major = major
        self.minor = minor
    }

    public var description: String { "\(uuid):\(major):\(minor)" }

    public static func < (a: IBeaconID, b: IBeaconID) -> Bool {
        (a.uuid, a.major, a.minor) < (b.uuid, b.major, b.minor)
    }
}

/// Apple's iBeacon advertisement: Manufacturer Specific Data with company 0x004C, type 0x02 and
/// length 0x15, then the proximity UUID, major and minor (all big-endian) and the measured power.
public struct IBeacon: Hashable, Sendable {
    public var identity: IBeaconID
    /// Calibrated RSSI at 1 m in dBm (signed), the last byte of the payload.
    public var measuredPower: Int8

    public init(identity: IBeaconID, measuredPower: Int8) {
        self.identity = identity
        self.measuredPower = measuredPower
    }

    /// Apple's company identifier (Assigned Numbers, Company Identifiers).
    public static let appleCompanyID: UInt16 = 0x004C
    /// The iBeacon type byte that follows the company identifier.
    public static let beaconType: UInt8 = 0x02
    /// Bytes after the type and length bytes: UUID (16), major (2), minor (2), measured power (1).
    public static let beaconLength: UInt8 = 0x15
    /// Company identifier (2), type, length and the 21 bytes they announce.
    public static let manufacturerDataLength = 25

    /// From the value of a Manufacturer Specific Data structure. Nil unless it is Apple's iBeacon
    /// layout. Bytes after the 25 that make up the beacon are ignored (some beacons append a battery level).
    public init?(manufacturerData data: ArraySlice<UInt8>) {
        guard let beacon = data.withUnsafeBytes({ Self(manufacturerData: $0) }) else { return nil }
        self = beacon
    }

    /// The same from the bytes in place.
    @inline(__always)
    init?(manufacturerData data: UnsafeRawBufferPointer) {
        guard var f = ByteReader(data).prefix(Self.manufacturerDataLength) else { return nil }
        do throws(DecodeError) {
            // Other manufacturers' data is told apart by its first four bytes.
            guard try f.u16("company identifier") == Self.appleCompanyID, try f.u8("iBeacon type") == Self.beaconType,
                  try f.u8("iBeacon length") == Self.beaconLength else { return nil }
            identity = IBeaconID(uuid: BeaconUUID(high: try f.u64BigEndian("proximity UUID"), low: try f.u64BigEndian("proximity UUID")),
                                 major: try f.u16BigEndian("major"), minor: try f.u16BigEndian("minor"))
            measuredPower = try f.i8("measured power")
        } catch {
            // Unreachable: the reads lie inside the prefix checked above.
            return nil
        }
    }

    /// The 25-byte Manufacturer Specific Data value.
    public var manufacturerData: [UInt8] {
        var w = ByteWriter(capacity: Self.manufacturerDataLength)
        w.u16(Self.appleCompanyID) // little-endian, as every company identifier
        w.u8(Self.beaconType)
        w.u8(Self.beaconLength)
        w.append(identity.uuid.bytes)
        w.u16BigEndian(identity.major)
        w.u16BigEndian(identity.minor)
        w.i8(measuredPower)
        return w.bytes
    }

    /// The 30-byte advertising data: Flags (LE General Discoverable, BR/EDR Not Supported) and the
    /// Manufacturer Specific Data.
    public var advertisingData: [UInt8] {
        AdvertisingData.beacon([(.manufacturerSpecificData, manufacturerData)])
    }
}
