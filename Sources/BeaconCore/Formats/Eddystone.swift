/// An Eddystone-UID namespace: 10 bytes, held as a 2-byte and an 8-byte big-endian half so comparing
/// and hashing never allocate.
public struct EddystoneNamespace: Hashable, Sendable, Comparable, CustomStringConvertible {
    public var high: UInt16
    public var low: UInt64

    public init(high: UInt16, low: UInt64) {
        self.high = high
        self.low = low
    }

    /// From 20 hex digits (either case).
    public init?(_ text: String) {
        guard text.utf8.count == 20, let bytes = Hex.decode(text), bytes.count == 10 else { return nil }
        self.init(high: UInt16(bytes[0]) << 8 | UInt16(bytes[1]), low: bytes[2...].reduce(0) { $0 << 8 | UInt64($1) })
    }

    /// The 10 bytes in transmission order.
    public var bytes: [UInt8] {
        var w = ByteWriter(capacity: 10)
        w.u16BigEndian(high)
        w.u64BigEndian(low)
        return w.bytes
    }

    /// 20 upper-case hex digits.
    public var description: String { Hex.encode(bytes) }

    public static func < (a: EddystoneNamespace, b: EddystoneNamespace) -> Bool { (a.high, a.low) < (b.high, b.low) }
}

/// An Eddystone-UID instance: 6 bytes, big-endian, held in the low 48 bits.
public struct EddystoneInstance: Hashable, Sendable, Comparable, CustomStringConvertible {
    public var value: UInt64

    public init(value: UInt64) { self.value = value & 0xFFFF_FFFF_FFFF }

    /// From 12 hex digits (either case).
    public init?(_ text: String) {
        guard text.utf8.count == 12, let bytes = Hex.decode(text), bytes.count == 6 else { return nil }
        self.init(value: bytes.reduce(0) { $0 << 8 | UInt64($1) })
    }

    /// The 6 bytes in transmission order.
    public var bytes: [UInt8] { (0..<6).reversed().map { UInt8(truncatingIfNeeded: value >> (8 * UInt64($0))) } }

    /// 12 upper-case hex digits.
    public var description: String { Hex.encode(bytes) }

    public static func < (a: EddystoneInstance, b: EddystoneInstance) -> Bool { a.value < b.value }
}

/// The identity an Eddystone-UID frame advertises.
public struct EddystoneUID: Hashable, Sendable, Comparable, CustomStringConvertible {
    public var namespace: EddystoneNamespace
    public var instance: EddystoneInstance

    public init(namespace: EddystoneNamespace, instance: EddystoneInstance) {
        self.namespace = namespace
        self.instance = instance
    }

    public var description: String { "\(namespace):\(instance)" }

    public static func < (a: EddystoneUID, b: EddystoneUID) -> Bool { (a.namespace, a.instance) < (b.namespace, b.instance) }
}

/// Unencrypted Eddystone-TLM (version 0x00): the beacon's telemetry. Every field is big-endian.
public struct EddystoneTLM: Hashable, Sendable {
    /// VBATT, 1 mV per bit; 0 when the beacon does not measure it (a USB-powered beacon).
    public var batteryMillivolts: UInt16
    /// TEMP, signed 8.8 fixed point in °C; 0x8000 (-128.0) when not supported.
    public var temperatureRaw: Int16
    /// ADV_CNT: advertising PDUs sent since power-up or reboot.
    public var advertisementCount: UInt32
    /// SEC_CNT: time since power-up or reboot, in 0.1 s.
    public var uptimeTenths: UInt32

    public init(batteryMillivolts: UInt16, temperatureRaw: Int16, advertisementCount: UInt32, uptimeTenths: UInt32) {
        self.batteryMillivolts = batteryMillivolts
        self.temperatureRaw = temperatureRaw
        self.advertisementCount = advertisementCount
        self.uptimeTenths = uptimeTenths
    }

    /// The TEMP value meaning "not supported".
    public static let temperatureNotSupported = Int16(bitPattern: 0x8000)

    /// Battery voltage in millivolts, nil when not measured.
    public var battery: UInt16? { batteryMillivolts == 0 ? nil : batteryMillivolts }
    /// Temperature in °C, nil when not supported.
    public var temperature: Double? {
        temperatureRaw == Self.temperatureNotSupported ? nil : Double(temperatureRaw) / 256
    }
    /// Time since power-up in seconds.
    public var uptime: Double { Double(uptimeTenths) / 10 }
}

/// The 16 bytes of an encrypted Eddystone-TLM (version 0x01): encrypted telemetry (12), salt (2) and
/// message integrity check (2), kept as sent: decrypting them needs the beacon's identity key.
public struct EncryptedTLM: Hashable, Sendable, CustomStringConvertible {
    public var high: UInt64
    public var low: UInt64

    public init(high: UInt64, low: UInt64) {
        self.high = high
        self.low = low
    }

    /// 32 upper-case hex digits, as sent.
    public var description: String { Hex.encode(BeaconUUID(high: high, low: low).bytes) }
}

/// One Eddystone frame: the service data of UUID 0xFEAA, whose first byte is the frame type
/// (Eddystone protocol specification, github.com/google/eddystone).
public enum EddystoneFrame: Hashable, Sendable {
    /// UID: Tx power at 0 m (dBm) and the beacon's namespace and instance.
    case uid(txPower: Int8, EddystoneUID)
    /// URL: Tx power at 0 m (dBm) and the URL.
    case url(txPower: Int8, EddystoneURL)
    /// TLM version 0x00: telemetry in the clear.
    case tlm(EddystoneTLM)
    /// TLM version 0x01: encrypted telemetry, recognised and kept as sent.
    case encryptedTLM(EncryptedTLM)
    /// EID: Tx power at 0 m and the 8-byte ephemeral identifier, kept as sent (resolving it needs the beacon's key).
    case eid(txPower: Int8, UInt64)

    /// The Eddystone service UUID, 0xFEAA.
    public static let serviceUUID: UInt16 = 0xFEAA

    public static let uidFrameType: UInt8 = 0x00
    public static let urlFrameType: UInt8 = 0x10
    public static let tlmFrameType: UInt8 = 0x20
    public static let eidFrameType: UInt8 = 0x30

    /// Eddystone's Tx power is the received power at 0 m; the power at 1 m that ranging uses is 41 dB
    /// lower (Eddystone-UID specification: "add 41 dBm to the RSSI measured at 1 meter").
    public static let zeroToOneMetreLoss = 41

    public var format: BeaconFormat {
        switch self {
        case .uid: .eddystoneUID
        case .url: .eddystoneURL
        case .tlm, .encryptedTLM: .eddystoneTLM
        case .eid: .eddystoneEID
        }
    }

    /// Tx power at 0 m, for the frames that carry it.
    public var txPower: Int8? {
        switch self {
        case .uid(let power, _), .url(let power, _), .eid(let power, _): power
        case .tlm, .encryptedTLM: nil
        }
    }

    /// Tx power at 0 m as the power at 1 m (txPower - 41), clamped into Int8.
    public static func measuredPower(txPower: Int8) -> Int8 {
        Int8(max(Int(Int8.min), Int(txPower) - zeroToOneMetreLoss))
    }

    /// From the value of a Service Data - 16-bit UUID structure: nil unless the UUID is 0xFEAA and the
    /// frame type one of UID, URL, TLM or EID (types Eddystone may add later are not beacons beacon
    /// knows). A frame of a known type that is too short or carries reserved values throws, naming
    /// the offset within `data`; bytes after a fixed-size frame are ignored.
    public static func decode(serviceData data: ArraySlice<UInt8>) throws(DecodeError) -> EddystoneFrame? {
        try ByteReader.read(data) { r throws(DecodeError) in try decode(serviceData: &r) }
    }

    /// The same in place: the search that runs per advertisement decodes Eddystone frames with this.
    static func decode(serviceData r: inout ByteReader) throws(DecodeError) -> EddystoneFrame? {
        guard r.remaining >= 3, try r.u16("service UUID") == serviceUUID else { return nil }
        switch try r.u8("Eddystone frame type") {
        case uidFrameType:
            // Tx power, namespace and instance; the two RFU bytes after them are optional: beacons that
            // leave them out are common.
            return try r.fixed(1 + 10 + 6, "Eddystone-UID frame") { f throws(DecodeError) in
                let txPower = try f.i8("Tx power at 0 m")
                let namespace = EddystoneNamespace(high: try f.u16BigEndian("namespace"), low: try f.u64BigEndian("namespace"))
                let instanceHigh = try f.u16BigEndian("instance")
                let instanceLow = try f.u32BigEndian("instance")
                return .uid(txPower: txPower, EddystoneUID(namespace: namespace,
                                                           instance: EddystoneInstance(value: UInt64(instanceHigh) << 32 | UInt64(instanceLow))))
            }
        case urlFrameType:
            let txPower = try r.i8("Tx power at 0 m")
            return .url(txPower: txPower, try EddystoneURL(reading: &r))
        case tlmFrameType:
            let versionOffset = r.offset
            switch try r.u8("TLM version") {
            case 0x00:
                return try r.fixed(12, "Eddystone-TLM frame") { f throws(DecodeError) in
                    .tlm(EddystoneTLM(batteryMillivolts: try f.u16BigEndian("VBATT"),
                                      temperatureRaw: Int16(bitPattern: try f.u16BigEndian("TEMP")),
                                      advertisementCount: try f.u32BigEndian("ADV_CNT"),
                                      uptimeTenths: try f.u32BigEndian("SEC_CNT")))
                }
            case 0x01:
                return try r.fixed(16, "Eddystone-TLM frame") { f throws(DecodeError) in
                    .encryptedTLM(EncryptedTLM(high: try f.u64BigEndian("ETLM"), low: try f.u64BigEndian("ETLM, salt and MIC")))
                }
            case let version:
                throw DecodeError(offset: versionOffset, field: "TLM version", needed: 0, available: r.remaining + 1,
                                  reason: "unknown version 0x\(Hex.encode([version]))")
            }
        case eidFrameType:
            return try r.fixed(1 + 8, "Eddystone-EID frame") { f throws(DecodeError) in
                .eid(txPower: try f.i8("Tx power at 0 m"), try f.u64BigEndian("ephemeral identifier"))
            }
        default:
            return nil
        }
    }
}
