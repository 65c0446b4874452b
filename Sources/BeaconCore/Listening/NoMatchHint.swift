/// Notices a ranging run that hears beacons but none of its regions' — most often a UUID copied from a
/// tool that shows it byte-swapped (btmon shows an iBeacon's UUID reversed) — and says so once: how
/// many beacons it heard, the heard identifiers closest to the regions', and where to look.
/// Fed every sighting until it has spoken or a region matched; after that it costs one comparison.
public struct NoMatchHint {
    /// How long beacons must have been heard, none matching, before the hint.
    public static let patience = Micros.seconds(3)
    /// Closest identifiers named.
    public static let shown = 3
    /// Distinct beacons remembered for the count; more are counted as "at least".
    static let limit = 4096

    private let regions: [BeaconRegion]
    private var firstHeard: Timestamp?
    /// Spoken, or a region matched: nothing more to note.
    public private(set) var isFinished = false
    private var beacons: Set<Beacon> = []

    private struct Beacon: Hashable {
        var format: BeaconFormat
        var identity: BeaconID?
        var address: DeviceAddress?
    }

    public init(regions: [BeaconRegion]) {
        self.regions = regions
        isFinished = regions.isEmpty
    }

    /// Notes one sighting; returns the hint when it is due (once).
    public mutating func note(_ s: Sighting) -> String? {
        guard !isFinished else { return nil }
        if let identity = s.identity, regions.contains(where: { $0.matches(identity) }) {
            isFinished = true
            return nil
        }
        if firstHeard == nil { firstHeard = s.time }
        // A TLM rides along its beacon's other frames: not a beacon of its own.
        if beacons.count < Self.limit, s.format != .eddystoneTLM {
            beacons.insert(Beacon(format: s.format, identity: s.identity, address: s.identity == nil ? s.address : nil))
        }
        return check(at: s.time)
    }

    /// Returns the hint when it is due at `now` (once).
    public mutating func check(at now: Timestamp) -> String? {
        guard !isFinished, let first = firstHeard, now - first >= Self.patience else { return nil }
        isFinished = true
        return message(heardFor: now - first)
    }

    private func message(heardFor span: Micros) -> String {
        let count = beacons.count >= Self.limit ? "at least \(Self.limit)" : "\(beacons.count)"
        var text = "Warning: heard \(count) beacon\(beacons.count == 1 ? "" : "s") for \(Micros.seconds(span.value / 1_000_000)), none in the regions"
        let closest = closestIdentifiers()
        if !closest.isEmpty { text += "; closest: " + closest.joined(separator: ", ") }
        return text + "; `beacon scan` lists every beacon heard"
    }

    /// Up to `shown` heard identifiers, nearest to a region's first: a byte-swapped copy, the same
    /// bytes in another format, then by differing hex digits (the longer common prefix first).
    func closestIdentifiers() -> [String] {
        var ranked: [(rank: Int, prefix: Int, text: String)] = []
        var seen: Set<String> = []
        for beacon in beacons {
            guard let identity = beacon.identity else { continue }
            for region in regions {
                guard let (rank, prefix, note) = Self.distance(identity, region) else { continue }
                let text = Self.identifierText(identity) + (note.map { " (\($0))" } ?? "")
                guard !seen.contains(text) else { continue }
                seen.insert(text)
                ranked.append((rank, prefix, text))
            }
        }
        ranked.sort { ($0.rank, -$0.prefix, $0.text) < ($1.rank, -$1.prefix, $1.text) }
        // Only the best match of each identifier, and nothing that shares less than half its digits.
        var shown: [String] = []
        var named: Set<String> = []
        for entry in ranked where entry.rank <= 16 {
            let id = String(entry.text.prefix { $0 != " " })
            guard !named.contains(id) else { continue }
            named.insert(id)
            shown.append(entry.text)
            if shown.count == Self.shown { break }
        }
        return shown
    }

    static func identifierText(_ identity: BeaconID) -> String {
        switch identity {
        case .iBeacon(let id): id.uuid.description
        case .altBeacon(let id): "altbeacon:\(id.id1)"
        case .eddystoneUID(let uid): "eddystone:\(uid.namespace)"
        }
    }

    /// Rank (0 for a byte-swapped copy or another format, else differing hex digits), common prefix
    /// in hex digits, and a note; nil when the identifiers are not comparable.
    static func distance(_ identity: BeaconID, _ region: BeaconRegion) -> (Int, Int, String?)? {
        let heard: [UInt8], wanted: [UInt8]
        switch (identity, region.constraint) {
        case (.eddystoneUID(let uid), .eddystoneUID(let namespace, _)):
            heard = uid.namespace.bytes
            wanted = namespace.bytes
        case (.eddystoneUID, _), (_, .eddystoneUID):
            return nil
        default:
            guard let uuid = identity.uuid, let regionUUID = region.uuid else { return nil }
            heard = uuid.bytes
            wanted = regionUUID.bytes
            if heard == wanted {
                return (0, 32, identity.format == .altBeacon ? "an AltBeacon with the region's UUID: its region is altbeacon:\(uuid)"
                                                             : "an iBeacon with the region's ID1: its region is \(uuid), without altbeacon:")
            }
            if heard == wanted.reversed() { return (0, 0, "the region's \(regionUUID) is it byte-reversed, as btmon shows it") }
            let guid = Array(wanted[0..<4].reversed()) + wanted[4..<6].reversed() + wanted[6..<8].reversed() + wanted[8...]
            if heard == guid { return (0, 0, "the region's \(regionUUID) is it with its first three fields byte-swapped") }
        }
        var differing = 0, prefix = 0, matching = true
        for (a, b) in zip(heard, wanted) {
            for (x, y) in [(a >> 4, b >> 4), (a & 0xF, b & 0xF)] {
                if x != y { differing += 1; matching = false } else if matching { prefix += 1 }
            }
        }
        return (differing, prefix, nil)
    }
}
