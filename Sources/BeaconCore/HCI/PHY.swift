/// An LE PHY as HCI numbers it in LE Extended Advertising Reports (Primary_PHY, Secondary_PHY: Core Vol 4
/// Part E 7.7.65.13) and in HCI_LE_Set_Extended_Advertising_Parameters (7.8.53). Legacy advertising is
/// always on LE 1M.
public enum PHY: Hashable, Sendable {
    case le1M
    case le2M
    /// LE Coded: long range, at 125 or 500 kb/s.
    case leCoded
    case unknown(UInt8)

    @inline(__always)
    public init(raw: UInt8) {
        switch raw {
        case 0x01: self = .le1M
        case 0x02: self = .le2M
        case 0x03: self = .leCoded
        default: self = .unknown(raw)
        }
    }

    public var raw: UInt8 {
        switch self {
        case .le1M: 0x01
        case .le2M: 0x02
        case .leCoded: 0x03
        case .unknown(let raw): raw
        }
    }

    /// Name used in JSON output and in `--phy`: `1m`, `2m`, `coded`, or `unknown(0xNN)`.
    public var name: String {
        knownName.map { $0.description } ?? "unknown(0x\(Hex.encode([raw])))"
    }

    /// The name of a known PHY as constant text, written without a scan for escapes; nil for `unknown`.
    @inline(__always)
    var knownName: StaticString? {
        switch self {
        case .le1M: "1m"
        case .le2M: "2m"
        case .leCoded: "coded"
        case .unknown: nil
        }
    }
}
