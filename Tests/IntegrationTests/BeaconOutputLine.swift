import Foundation

/// One JSON line of `beacon range` output, as the tests read it.
struct BeaconOutputLine: JSONLine, Equatable {
    /// The region a line is about.
    struct Region: Decodable, Equatable, Hashable {
        let uuid: String
        let major: Int?
        let minor: Int?
    }

    /// One beacon in a `range` line.
    struct RangedBeacon: Decodable, Equatable {
        let uuid: String
        let major: Int
        let minor: Int
        let rssi: Double
        let measuredPower: Int
        let accuracy: Double?
        let proximity: String?
        let address: String?
        let addressType: String?
        let samples: Int?

        /// What identifies this beacon, leaving out what varies per reading.
        var identity: String {
            "\(uuid.uppercased()) \(major) \(minor) \(address ?? "-") \(addressType ?? "-")"
        }
    }

    let event: String
    let time: String
    let region: Region?
    let state: String?
    let beacons: [RangedBeacon]?
    /// True on the range line a replay prints for the interval its capture ended in.
    let partial: Bool?

    /// The line's `event`, or nil if it is not an output event at all (the
    /// tests decode every line again at the end and report bad ones there).
    static func event(of line: String) -> String? {
        struct EventOnly: Decodable { let event: String }
        do {
            return try JSONDecoder().decode(EventOnly.self, from: Data(line.utf8)).event
        } catch {
            return nil
        }
    }
}
