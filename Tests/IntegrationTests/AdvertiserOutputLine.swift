import Foundation

/// One JSON line of `beacon advertise` output, as the tests read it.
struct AdvertiserOutputLine: JSONLine, Equatable {
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
}
