/// An Eddystone advertisement (Eddystone protocol specification): the Eddystone service UUID 0xFEAA
/// in a Complete List of 16-bit Service UUIDs, and a frame in Service Data under the same UUID.
public struct EddystonePayload: Hashable, Sendable {
    /// The frames beacon advertises.
    public enum Frame: Hashable, Sendable {
        case uid(EddystoneUID)
        case url(EddystoneURL)
    }

    public var frame: Frame
    /// Calibrated transmit power at 0 m in dBm (signed), the byte after the frame type in both
    /// frames. The specification's way to obtain it: the RSSI measured at 1 m plus 41 dBm.
    public var txPowerAt0m: Int8

    public init(frame: Frame, txPowerAt0m: Int8) {
        self.frame = frame
        self.txPowerAt0m = txPowerAt0m
    }

    /// The range the specification gives the calibrated power at 0 m.
    public static let txPowerAt0mRange: ClosedRange<Int> = -100...20

    /// The power at 0 m for a measured power (RSSI at 1 m); nil when it falls outside -100...20 dBm.
    public static func txPowerAt0m(measuredPower: Int8) -> Int8? {
        let power = Int(measuredPower) + EddystoneFrame.zeroToOneMetreLoss
        return txPowerAt0mRange.contains(power) ? Int8(power) : nil
    }

    /// The frame: type, power at 0 m, then the frame's fields.
    public var frameBytes: [UInt8] {
        var w = ByteWriter(capacity: 20)
        switch frame {
        case let .uid(uid):
            w.u8(EddystoneFrame.uidFrameType)
            w.i8(txPowerAt0m)
            w.append(uid.namespace.bytes)
            w.append(uid.instance.bytes)
            w.u16(0) // two bytes reserved for future use, which the UID specification requires to be 0x00
        case let .url(url):
            w.u8(EddystoneFrame.urlFrameType)
            w.i8(txPowerAt0m)
            w.u8(url.scheme)
            w.append(url.encoded)
        }
        return w.bytes
    }

    /// The Service Data - 16-bit UUID value: the Eddystone UUID, then the frame.
    public var serviceData: [UInt8] {
        var w = ByteWriter(capacity: 22)
        w.u16(EddystoneFrame.serviceUUID)
        w.append(frameBytes)
        return w.bytes
    }

    /// Flags (LE General Discoverable, BR/EDR Not Supported), the complete list of 16-bit service
    /// UUIDs holding 0xFEAA, then the service data: 31 bytes for a UID frame, at most 31 for a URL frame.
    public var advertisingData: [UInt8] {
        var uuid = ByteWriter(capacity: 2)
        uuid.u16(EddystoneFrame.serviceUUID)
        return AdvertisingData.beacon([(.completeList16BitUUIDs, uuid.bytes), (.serviceData16BitUUID, serviceData)])
    }
}
