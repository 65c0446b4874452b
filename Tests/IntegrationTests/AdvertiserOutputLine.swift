import Foundation

/// One JSON line of `beacon advertise` output, as the tests read it.
struct AdvertiserOutputLine: Decodable, Equatable {
    let event: String
    let time: String
    // `advertising` lines
    let uuid: String?
    let major: Int?
    let minor: Int?
    let measuredPower: Int?
    let intervalMs: Double?
    let connectable: Bool?
    let data: String?
    let commands: String?
    let txPower: Int?
    // `stopped` lines
    let reason: String?

    /// `time` as a date (ISO 8601 UTC with milliseconds); throws if it is not one.
    func date() throws -> Date {
        try Date(time, strategy: Date.ISO8601FormatStyle(includingFractionalSeconds: true))
    }

    /// Decodes every line; throws naming the first line that is not a valid event.
    static func decode(_ lines: [String]) throws -> [AdvertiserOutputLine] {
        let decoder = JSONDecoder()
        return try lines.enumerated().map { number, line in
            do {
                return try decoder.decode(AdvertiserOutputLine.self, from: Data(line.utf8))
            } catch {
                throw ChildProcessError(description: "stdout line \(number + 1) is not an advertiser event: \(line)\n\(error)")
            }
        }
    }
}
