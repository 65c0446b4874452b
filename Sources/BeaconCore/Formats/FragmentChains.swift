/// Which extended advertisers are in the middle of a fragmented advertisement (Core Vol 4 Part E
/// 7.7.65.13: Data_Status "incomplete, more data to come"), so that no fragment is decoded as a whole
/// advertisement: a continuation starts in the middle of an AD structure, and bytes there can look
/// like a beacon. Fragment chains are dropped, not reassembled; a chain is keyed by advertiser
/// address, address type and advertising set (SID).
public struct FragmentChains: Sendable {
    private struct Key: Hashable, Sendable {
        let address: UInt64
        let addressType: AddressType
        let sid: UInt8
    }

    private var open: Set<Key> = []
    /// Chains left open at once; past this, the oldest state is forgotten (a flood of unfinished chains
    /// from random addresses must not grow memory without bound).
    static let limit = 1024

    public init() {}

    /// Whether `report`'s data is a whole advertisement. A fragment that says more follow opens its
    /// advertiser's chain; the report that ends an open chain (complete or truncated) closes it. Both,
    /// and a truncated report, are not whole.
    public mutating func isWhole(_ report: AdvertisingReport) -> Bool {
        guard report.isExtended else { return true }
        return isWhole(Key(address: report.address.value, addressType: report.addressType, sid: report.sid), report.dataStatus)
    }

    /// The same for a report read in place.
    @inline(__always)
    mutating func isWhole(_ report: AdvertisingReportView) -> Bool {
        guard report.isExtended else { return true }
        return isWhole(Key(address: report.address, addressType: AddressType(raw: report.addressType), sid: report.sid),
                       report.dataStatus)
    }

    private mutating func isWhole(_ key: Key, _ status: AdvertisingReport.DataStatus) -> Bool {
        switch status {
        case .incomplete:
            if open.count >= Self.limit { open.removeAll(keepingCapacity: true) }
            open.insert(key)
            return false
        case .complete:
            guard !open.isEmpty else { return true }
            return open.remove(key) == nil
        case .truncated, .reserved:
            if !open.isEmpty { open.remove(key) }
            return false
        }
    }
}
