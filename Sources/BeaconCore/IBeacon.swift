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
        guard data.count >= Self.manufacturerDataLength else { return nil }
        let s = data.startIndex
        guard data[s] == UInt8(Self.appleCompanyID & 0xFF), data[s + 1] == UInt8(Self.appleCompanyID >> 8),
              data[s + 2] == Self.beaconType, data[s + 3] == Self.beaconLength else { return nil }
        var high: UInt64 = 0, low: UInt64 = 0
        for i in 0..<8 {
            high = high << 8 | UInt64(data[s + 4 + i])
            low = low << 8 | UInt64(data[s + 12 + i])
        }
        let major = UInt16(data[s + 20]) << 8 | UInt16(data[s + 21])
        let minor = UInt16(data[s + 22]) << 8 | UInt16(data[s + 23])
        identity = BeaconIdentity(uuid: BeaconUUID(high: high, low: low), major: major, minor: minor)
        measuredPower = Int8(bitPattern: data[s + 24])
    }

    /// The first iBeacon in advertising data, nil when there is none. Malformed data yields the
    /// beacon only if it comes before the malformed structure: this runs per advertisement, so it
    /// does not throw and does not allocate.
    public static func find(inAdvertisingData data: ArraySlice<UInt8>) -> IBeacon? {
        var i = data.startIndex
        while i < data.endIndex {
            let length = Int(data[i])
            // Zero length ends the significant part; a structure running past the data is malformed.
            guard length > 0, length <= data.endIndex - i - 1 else { return nil }
            if data[i + 1] == ADType.manufacturerSpecificData.rawValue,
               let beacon = IBeacon(manufacturerData: data[(i + 2)..<(i + 1 + length)]) {
                return beacon
            }
            i += 1 + length
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
        AdvertisingData.build([
            (.flags, [ADFlags.generalDiscoverableLEOnly]),
            (.manufacturerSpecificData, manufacturerData),
        ])
    }
}
