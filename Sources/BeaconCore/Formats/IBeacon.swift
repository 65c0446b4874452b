/// Apple's iBeacon advertisement: Manufacturer Specific Data with company 0x004C, type 0x02 and
/// length 0x15, then the proximity UUID, major and minor (all big-endian) and the measured power.
public struct IBeacon: Hashable, Sendable {
    public var identity: BeaconIdentity
    /// Calibrated RSSI at 1 m in dBm (signed), the last byte of the payload.
    public var measuredPower: Int8

    public init(identity: BeaconIdentity, measuredPower: Int8) {
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
    init?(manufacturerData data: UnsafeRawBufferPointer) {
        // Other manufacturers' data is told apart by its first four bytes, compared in place.
        guard let f = FixedLayout(data, length: Self.manufacturerDataLength), f.u16(0) == Self.appleCompanyID,
              f.u8(2) == Self.beaconType, f.u8(3) == Self.beaconLength else { return nil }
        identity = BeaconIdentity(uuid: BeaconUUID(high: f.u64BigEndian(4), low: f.u64BigEndian(12)),
                                  major: f.u16BigEndian(20), minor: f.u16BigEndian(22))
        measuredPower = Int8(bitPattern: f.u8(24))
    }

    /// The first iBeacon in advertising data, nil when there is none. Malformed data yields the
    /// beacon only if it comes before the malformed structure: this runs per advertisement, so it
    /// does not throw and does not allocate.
    public static func find(inAdvertisingData data: ArraySlice<UInt8>) -> IBeacon? {
        var walker = ADWalker(data)
        do throws(DecodeError) {
            while let structure = try walker.next() {
                if structure.type == .manufacturerSpecificData, let beacon = IBeacon(manufacturerData: structure.value) {
                    return beacon
                }
            }
        } catch {
            // A malformed structure ends the search; only beacons before it count.
        }
        return nil
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
