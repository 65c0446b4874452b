/// A 48-bit Bluetooth device address as carried in HCI (least significant byte first on the wire).
public struct DeviceAddress: Hashable, Sendable, ASCIIText {
    /// The address as a number: `F0:F1:F2:F3:F4:01` is 0xF0F1F2F3F401.
    public var value: UInt64

    public init(value: UInt64) { self.value = value & 0xFFFF_FFFF_FFFF }

    /// Parses `F0:F1:F2:F3:F4:01` (either case).
    public init?(_ text: String) {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 6 else { return nil }
        var v: UInt64 = 0
        for p in parts {
            guard p.count == 2, let b = UInt8(p, radix: 16) else { return nil }
            v = v << 8 | UInt64(b)
        }
        value = v
    }

    public func write(to writer: inout ByteWriter) {
        for i in 0..<6 { writer.u8(UInt8(truncatingIfNeeded: value >> (8 * UInt64(i)))) }
    }

    /// `C0:00:00:00:00:01`, most significant byte first: 17 characters.
    public static let textLength = 17

    /// Built in place: every ranged beacon prints one.
    public func write(into text: UnsafeMutableBufferPointer<UInt8>) {
        for i in 0..<6 {
            let b = UInt8(truncatingIfNeeded: value >> (8 * UInt64(5 - i)))
            text[3 * i] = Hex.digit(b >> 4)
            text[3 * i + 1] = Hex.digit(b & 0x0F)
            if i < 5 { text[3 * i + 2] = UInt8(ascii: ":") }
        }
    }
}

/// Address type as reported in advertising reports (Core Vol 4 Part E 7.7.65.2).
public enum AddressType: Hashable, Sendable {
    case publicDevice
    case randomDevice
    case publicIdentity
    case randomIdentity
    case anonymous
    case unknown(UInt8)

    /// Inlined: every advertising report names its address type.
    @inline(__always)
    public init(raw: UInt8) {
        switch raw {
        case 0x00: self = .publicDevice
        case 0x01: self = .randomDevice
        case 0x02: self = .publicIdentity
        case 0x03: self = .randomIdentity
        case 0xFF: self = .anonymous
        default: self = .unknown(raw)
        }
    }

    public var raw: UInt8 {
        switch self {
        case .publicDevice: 0x00
        case .randomDevice: 0x01
        case .publicIdentity: 0x02
        case .randomIdentity: 0x03
        case .anonymous: 0xFF
        case .unknown(let raw): raw
        }
    }

    /// Name used in JSON output.
    public var name: String {
        knownName.map { $0.description } ?? "unknown(0x\(Hex.encode([raw])))"
    }

    /// The name of a known type as constant text, written without a scan for escapes; nil for `unknown`.
    var knownName: StaticString? {
        switch self {
        case .publicDevice, .publicIdentity: "public"
        case .randomDevice, .randomIdentity: "random"
        case .anonymous: "anonymous"
        case .unknown: nil
        }
    }
}
