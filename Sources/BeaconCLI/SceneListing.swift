import BeaconCore
import BeaconSimulation

/// `beacon simulate --list`: each built-in scene's name and what it is for, then the identities its
/// beacons advertise — what to range for — each line at most `width` columns.
enum SceneListing {
    static let width = 80
    /// The summary and identities start here, after the name.
    static let column = 14

    static func lines(_ scenes: [Scene]) -> [String] {
        let indent = String(repeating: " ", count: column)
        var lines: [String] = []
        for scene in scenes {
            let name = scene.name + String(repeating: " ", count: max(1, column - scene.name.count))
            let summary = wrap(scene.summary, width: width - column)
            lines.append(name + (summary.first ?? ""))
            lines += summary.dropFirst().map { indent + $0 }
            lines += identities(scene.beacons).map { indent + $0 }
        }
        return lines
    }

    /// One line per format and first identifier (UUID, ID1, namespace, URL), in the beacons' order:
    /// the whole identity of a lone beacon, else the second identifiers and how many beacons share it.
    static func identities(_ beacons: [SceneBeacon]) -> [String] {
        var groups: [(key: String, beacons: [AdvertisedBeacon])] = []
        for beacon in beacons.map(\.beacon) {
            let key = "\(beacon.format.rawValue) \(firstIdentifier(beacon))"
            if let index = groups.firstIndex(where: { $0.key == key }) {
                groups[index].beacons.append(beacon)
            } else {
                groups.append((key, [beacon]))
            }
        }
        return groups.map { key, members in
            let others = members.map(otherIdentifiers)
            guard members.count > 1 else { return ([key] + others[0].map { "\($0.name) \($0.value)" }).joined(separator: " ") }
            guard let name = others[0].first?.name else { return "\(key), \(members.count) beacons" }
            return "\(key) \(name) \(span(others.compactMap { $0.first?.value })), \(members.count) beacons"
        }
    }

    static func firstIdentifier(_ beacon: AdvertisedBeacon) -> String {
        switch beacon {
        case .iBeacon(let iBeacon): iBeacon.identity.uuid.description
        case .altBeacon(let altBeacon): altBeacon.identity.id1.description
        case .eddystone(let payload):
            switch payload.frame {
            case .uid(let uid): uid.namespace.description
            case .url(let url): url.description
            }
        }
    }

    /// The identifiers after the first, named as in output lines (none for an Eddystone-URL).
    static func otherIdentifiers(_ beacon: AdvertisedBeacon) -> [(name: String, value: String)] {
        switch beacon.identity {
        case .iBeacon(let id): [("major", "\(id.major)"), ("minor", "\(id.minor)")]
        case .altBeacon(let id): [("id2", "\(id.id2)"), ("id3", "\(id.id3)")]
        case .eddystoneUID(let uid): [("instance", uid.instance.description)]
        case nil: []
        }
    }

    /// `1`, `1-3` for a run of consecutive integers, else the distinct values in order, comma-separated.
    static func span(_ values: [String]) -> String {
        var distinct: [String] = []
        for value in values where !distinct.contains(value) { distinct.append(value) }
        let numbers = distinct.compactMap(Int.init).sorted()
        if numbers.count == distinct.count, let low = numbers.first, let high = numbers.last, high - low + 1 == numbers.count,
           numbers.count > 1 {
            return "\(low)-\(high)"
        }
        return distinct.joined(separator: ", ")
    }

    /// `text` in lines of at most `width` characters, broken at spaces (a longer word stands alone).
    static func wrap(_ text: String, width: Int) -> [String] {
        var lines: [String] = []
        var line = ""
        for word in text.split(separator: " ") {
            if line.isEmpty {
                line = String(word)
            } else if line.count + 1 + word.count <= width {
                line += " " + word
            } else {
                lines.append(line)
                line = String(word)
            }
        }
        if !line.isEmpty { lines.append(line) }
        return lines
    }
}
