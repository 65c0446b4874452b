/// The Scanning_PHYs bitmap of HCI_LE_Set_Extended_Scan_Parameters (Core Vol 4 Part E 7.8.64): bit 0
/// LE 1M, bit 2 LE Coded. One block of scan parameters follows per bit set, in bit order.
public struct ScanningPHYs: OptionSet, Hashable, Sendable {
    public let rawValue: UInt8

    public init(rawValue: UInt8) {
        self.rawValue = rawValue
    }

    public static let le1M = ScanningPHYs(rawValue: 1 << 0)
    public static let leCoded = ScanningPHYs(rawValue: 1 << 2)

    /// Every PHY that can be scanned, in bit order: the order of the parameter blocks.
    static let scannable: [(bit: ScanningPHYs, phy: PHY)] = [(.le1M, .le1M), (.leCoded, .leCoded)]

    /// The words `--phy` takes.
    public static let words = scannable.map(\.phy.name)

    /// The PHYs in bit order.
    public var phys: [PHY] { Self.scannable.filter { contains($0.bit) }.map(\.phy) }

    /// `1m,coded`: the names in bit order, as `--phy` takes them.
    public var names: String { phys.map(\.name).joined(separator: ",") }

    /// A comma-separated list of `1m` and `coded` (in any order and case, each at most once); nil for
    /// anything else, and for an empty list.
    public init?(names text: String) {
        var set: ScanningPHYs = []
        for word in text.split(separator: ",", omittingEmptySubsequences: false) {
            guard let known = Self.scannable.first(where: { $0.phy.name == word.lowercased() }),
                  !set.contains(known.bit) else { return nil }
            set.insert(known.bit)
        }
        guard !set.isEmpty else { return nil }
        self = set
    }
}
