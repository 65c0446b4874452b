import BeaconCore
import Foundation

/// One JSON line of `beacon locate` output (docs/output.md, Locate output), as the tests read it.
struct LocateOutputLine: JSONLine {
    /// A gateway whose reading counted in a `location` line.
    struct Gateway: Decodable {
        let name: String
        let distance: Double
        let online: Bool
    }

    let event: String
    let time: String
    let beacon: String
    /// `location`: the room; `away`: where it was last.
    let room: String?
    let x: Double?
    let y: Double?
    let gateways: [Gateway]?
    // `room` lines
    let from: String?
    let to: String?

    /// `time` as a timestamp; throws if it is not one.
    func timestamp() throws -> Timestamp {
        guard let timestamp = TimestampText.parse(time) else {
            throw ChildProcessError(description: "not a time: \(time)")
        }
        return timestamp
    }

    /// The names of the gateways whose readings counted.
    var gatewayNames: Set<String> { Set(gateways?.map(\.name) ?? []) }
}
