import BeaconCore
import Foundation
import Testing

/// What a ranger printed and heard, on beacon's own clock: its output lines with their printed times
/// and, from its `--record` capture, the time it stamped on every report of the test beacon. Both
/// come from the same clock reading per packet, so comparing them says what beacon decided and why,
/// whatever the machine's load did to when it happened.
struct RangerTimeline {
    /// Output lines, in order, with their printed times in Unix milliseconds.
    let lines: [(line: BeaconOutputLine, milliseconds: Int64)]
    /// When the ranger received a report of the test beacon from the advertiser, Unix microseconds, in order.
    let sightings: [Int64]

    init(output: [String], capture path: String) throws {
        lines = try BeaconOutputLine.decode(output).map { ($0, try printedMilliseconds($0.time)) }
        let uuid = try #require(BeaconUUID(TestBeacon.uuid))
        let advertiser = try #require(DeviceAddress(TestBeacon.advertiserAddress))
        var reader = BtsnoopReader()
        reader.append(try Data(contentsOf: URL(fileURLWithPath: path)))
        var sightings: [Int64] = []
        while let record = try reader.next() {
            guard record.direction == .received, record.packet.kind == .event else { continue }
            try SightingDecoder.forEachSighting(inEvent: record.packet.payload, at: record.timestamp) { sighting in
                if sighting.identity?.uuid == uuid && sighting.address == advertiser {
                    sightings.append(sighting.time.microseconds)
                }
            }
        }
        try reader.finish()
        self.sightings = sightings
    }

    /// The advertiser went quiet and the ranger said so correctly: the region's last event is an exit,
    /// after an enter; the beacon was not heard after it; and its printed time is `exitAfter` after the
    /// last report heard (the deadline; at most one ranging `interval` later, should exits ever be
    /// reported at the ranging tick instead). Printed times are computed from the reports' times, so
    /// no delay on a busy machine can move them.
    func expectExitAfterSilence(exitAfter: Duration, interval: Duration, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let transitions = lines.filter { $0.line.event == "enter" || $0.line.event == "exit" }
        let exit = try #require(transitions.last, "no enter or exit line", sourceLocation: sourceLocation)
        #expect(exit.line.event == "exit", "the region was entered again after its exit: \(transitions.map(\.line.event))",
                sourceLocation: sourceLocation)
        #expect(transitions.dropLast().contains { $0.line.event == "enter" }, "no enter before the exit",
                sourceLocation: sourceLocation)
        let heard = sightings.map { $0 / 1000 }  // as printed: milliseconds, truncated (times are after 1970)
        let last = try #require(heard.last { $0 <= exit.milliseconds }, "no report of the beacon before the exit",
                                sourceLocation: sourceLocation)
        #expect(!heard.contains { $0 > exit.milliseconds },
                "heard the beacon after the exit (at \(heard.filter { $0 > exit.milliseconds }))", sourceLocation: sourceLocation)
        let silence = exit.milliseconds - last
        #expect(silence >= milliseconds(exitAfter),
                "exit \(silence) ms after the last report, before --exit-after \(exitAfter)", sourceLocation: sourceLocation)
        #expect(silence <= milliseconds(exitAfter) + milliseconds(interval),
                "exit \(silence) ms after the last report, later than --exit-after \(exitAfter) and one interval",
                sourceLocation: sourceLocation)
    }

    private func milliseconds(_ duration: Duration) -> Int64 {
        duration.components.seconds * 1000 + duration.components.attoseconds / 1_000_000_000_000_000
    }
}

/// A time as beacon (and tools/bumble_beacon.py) prints it, `2026-11-29T12:00:00.000Z`, in Unix milliseconds.
func printedMilliseconds(_ text: String) throws -> Int64 {
    let date = try Date(text, strategy: Date.ISO8601FormatStyle(includingFractionalSeconds: true))
    return Int64((date.timeIntervalSince1970 * 1000).rounded())
}

/// The `event` and `time` every line of beacon and of tools/bumble_beacon.py has.
struct PrintedEvent: JSONLine {
    let event: String
    let time: String

    /// The printed time of `line`, in Unix milliseconds.
    static func milliseconds(of line: String) throws -> Int64 {
        try printedMilliseconds(try decode([line])[0].time)
    }
}

extension ChildProcess {
    /// Waits for a ranger's `exit` line (from stdout line `index` on) printed at or after `milliseconds`,
    /// the printed time an advertiser stopped. The exit that the silence after the stop brings is printed
    /// after it: an earlier one could only come from a gap in reception while advertising, and an enter
    /// would follow it.
    func waitForExitLine(from index: Int, notBefore milliseconds: Int64) async throws {
        try await waitForLine(from: index, within: HangGuard.step, "exit line after the advertiser stopped") { line in
            guard BeaconOutputLine.event(of: line) == "exit" else { return false }
            return try PrintedEvent.milliseconds(of: line) >= milliseconds
        }
    }
}
