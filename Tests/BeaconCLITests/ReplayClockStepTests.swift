import BeaconCore
import BeaconSimulation
import Foundation
import Testing

/// Captures whose own clock steps, replayed through `beacon range`: one warning per step, ranging
/// carries on as if no time had passed, printed times follow the capture.
@Suite("beacon range over captures whose clock steps")
struct ReplayClockStepTests {
    static let uuid = BeaconUUID("E2C56DB5-DFFB-48D2-B060-D0F5A71096E0")!
    static let start = Timestamp(microseconds: 1_800_000_000_000_000)

    /// One beacon every 100 ms for `count` reports from `first`.
    static func reports(from first: Timestamp, count: Int, into file: inout [UInt8]) {
        let beacon = SimulatedAir.beacon(0, uuid: uuid)
        for n in 0..<count {
            BtsnoopWriter(datalink: .h4).appendRecord(SimulatedAir.extendedReport(beacon, rssi: -60), direction: .received,
                                                      timestamp: first + Micros.milliseconds(Int64(n) * 100), to: &file)
        }
    }

    static func replay(_ file: [UInt8]) throws -> CapturedConsole {
        let directory = try TemporaryDirectory()
        let path = directory.path("stepped.btsnoop")
        try Data(file).write(to: URL(fileURLWithPath: path))
        let io = CapturedConsole()
        #expect(io.run(["range", "--hci", "btsnoop:\(path)", "--uuid", uuid.description, "--exit-after", "2s"]) == 0)
        return io
    }

    /// Each range line as `HH:MM:SS.mmm samples [partial]`.
    static func ranges(_ io: CapturedConsole) -> [String] {
        io.stdout.filter { $0.contains(#""event":"range""#) }.map { line in
            let time = line.firstMatch(of: /"time":"2027-01-15T(\d\d:\d\d:\d\d\.\d\d\d)Z"/).map { String($0.1) } ?? "?"
            let samples = line.firstMatch(of: /"samples":(\d+)/).map { String($0.1) } ?? "-"
            return "\(time) \(samples)" + (line.contains(#""partial":true"#) ? " partial" : "")
        }
    }

    static func events(_ io: CapturedConsole) -> [String] {
        io.stdout.map { $0.firstMatch(of: /"event":"(\w+)"/).map { String($0.1) } ?? "?" }
    }

    @Test("a forward jump of an hour: one warning, no exit, no burst of empty range lines")
    func forwardHour() throws {
        var file = BtsnoopWriter(datalink: .h4).header
        Self.reports(from: Self.start, count: 30, into: &file)  // 0.0 ... 2.9 s
        Self.reports(from: Self.start + .seconds(3600 + 3), count: 30, into: &file)  // 3603.0 ... 3605.9 s
        let io = try Self.replay(file)
        #expect(io.stderr == ["Warning: the capture's clock steps forward 3600.100s at 2027-01-15T09:00:03.000Z; ranging carries on as if no time had passed"])
        let events = Self.events(io)
        #expect(events.filter { $0 == "exit" }.isEmpty)
        #expect(events.filter { $0 == "enter" }.count == 1)
        // The schedule resumes at 2.9 s: ticks at 1...5 s, the report at the jump counted with those
        // just before it, then the partial interval up to the last report at 5.8 s.
        #expect(Self.ranges(io) == ["08:00:01.000 10", "08:00:02.000 10", "09:00:03.100 11", "09:00:04.100 10",
                                    "09:00:05.100 10", "09:00:05.900 9 partial"])
    }

    @Test("a backward jump of 30 s: one warning, range lines keep coming, printed times step back once")
    func backThirtySeconds() throws {
        var file = BtsnoopWriter(datalink: .h4).header
        Self.reports(from: Self.start, count: 30, into: &file)  // 0.0 ... 2.9 s
        Self.reports(from: Self.start + .seconds(-27), count: 30, into: &file)  // -27.0 ... -24.1 s
        let io = try Self.replay(file)
        #expect(io.stderr == ["Warning: the capture's clock steps back 29.900s at 2027-01-15T07:59:33.000Z; ranging carries on as if no time had passed"])
        #expect(Self.events(io).filter { $0 == "exit" }.isEmpty)
        #expect(Self.ranges(io) == ["08:00:01.000 10", "08:00:02.000 10", "07:59:33.100 11", "07:59:34.100 10",
                                    "07:59:35.100 10", "07:59:35.900 9 partial"])
    }

    @Test("a capture whose clock steps back 200 times: five warnings, then one line with the count")
    func manyStepsBack() throws {
        var file = BtsnoopWriter(datalink: .h4).header
        // 200 pairs of reports, each pair 1 s before the one before it: a step back at every pair.
        for n in 0..<200 {
            Self.reports(from: Self.start + Micros.seconds(-Int64(n)), count: 2, into: &file)
        }
        let io = try Self.replay(file)
        let steps = io.stderr.filter { $0.hasPrefix("Warning: the capture's clock steps back ") }
        #expect(steps.count == RepeatedWarning.defaultLimit, "\(io.stderr.prefix(10))")
        #expect(io.stderr.count == RepeatedWarning.defaultLimit + 1, "\(io.stderr.prefix(10))")
        #expect(io.stderr.last == "Warning: the capture's clock stepped 199 times in all")
    }
}
