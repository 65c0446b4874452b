/// `beacon locate --shard K/N`: the share of the beacons one fuser owns, so several fusers against one
/// broker split a building's beacons between them, each beacon located by exactly one. Every fuser reads
/// every gateway's readings and keeps the beacons whose id hashes to its share.
public struct BeaconShard: Equatable, Sendable, CustomStringConvertible {
    /// 1...count.
    public let index: Int
    public let count: Int

    public static let maximumCount = 1_000

    /// `K/N` with 1 ≤ K ≤ N ≤ `maximumCount`; nil otherwise.
    public init?(_ text: String) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let index = Int(parts[0]), let count = Int(parts[1]),
              (1...Self.maximumCount).contains(count), (1...count).contains(index) else { return nil }
        self.index = index
        self.count = count
    }

    public var description: String { "\(index)/\(count)" }

    /// Whether the beacon `id` is this shard's: FNV-1a of its bytes, the same on every machine and run.
    public func owns(_ id: String) -> Bool {
        Int(StableHash.fnv1a(id) % UInt64(count)) == index - 1
    }

    /// `readings` with only this shard's beacons, and every gateway's own beacon of `site`: those are never
    /// located, only heard to calibrate the gateways, so every shard fits them from every pair alike.
    public func share(of readings: GatewayReadings, site: Site) -> GatewayReadings {
        var mine = readings
        mine.readings.removeAll { !owns($0.id) && site.gatewayIndex(ofBeacon: $0.id) == nil }
        return mine
    }
}
