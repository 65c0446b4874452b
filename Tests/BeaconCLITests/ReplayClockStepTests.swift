import BeaconCore
import BeaconSimulation
import Foundation
import Testing

/// Captures whose own clock steps back, replayed through `beacon range`: one warning per step, ranging
/// carries on as if no time had passed, printed times follow the capture. A jump forward is time that
/// passed, whatever its length and whatever `--interval` is.
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

    static func replay(_ file: [UInt8], _ options: [String] = ["--exit-after", "2s"]) throws -> CapturedConsole {
        let directory = try TemporaryDirectory()
        let path = directory.path("stepped.btsnoop")
        try Data(file).write(to: URL(fileURLWithPath: path))
        let io = CapturedConsole()
        #expect(io.run(["range", "--hci", "btsnoop:\(path)", "--uuid", uuid.description] + options) == 0)
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

    /// Each enter and exit line as `event HH:MM:SS.mmm`.
    static func crossings(_ io: CapturedConsole) -> [String] {
        io.stdout.compactMap { line in
            guard let event = line.firstMatch(of: /"event":"(enter|exit)","time":"2027-01-15T(\d\d:\d\d:\d\d\.\d\d\d)Z"/) else {
                return nil
            }
            return "\(event.1) \(event.2)"
        }
    }

    @Test("a forward jump of an hour is an hour of silence: no warning, the exit at the last report plus --exit-after, the enter when heard again")
    func forwardHour() throws {
        var file = BtsnoopWriter(datalink: .h4).header
        Self.reports(from: Self.start, count: 30, into: &file)  // 0.0 ... 2.9 s
        Self.reports(from: Self.start + .seconds(3600 + 3), count: 30, into: &file)  // 3603.0 ... 3605.9 s
        let io = try Self.replay(file)
        #expect(io.stderr.isEmpty, "\(io.stderr)")
        #expect(Self.crossings(io) == ["enter 08:00:00.000", "exit 08:00:04.900", "enter 09:00:03.000"])
        // Ranging stops with the exit and starts again on the schedule of the start.
        #expect(Self.ranges(io) == ["08:00:01.000 10", "08:00:02.000 10", "08:00:03.000 10", "08:00:04.000 0",
                                    "09:00:04.000 10", "09:00:05.000 10", "09:00:05.900 10 partial"])
    }

    @Test("a silence of --exit-after or longer is an exit, a shorter one is not, with any --interval",
          arguments: [(1999, "1s", false), (2000, "1s", true), (1999, "60s", false), (2000, "60s", true), (30_000, "100ms", true)])
    func silenceAgainstExitAfter(silenceMilliseconds: Int64, interval: String, exits: Bool) throws {
        var file = BtsnoopWriter(datalink: .h4).header
        Self.reports(from: Self.start, count: 30, into: &file)  // 0.0 ... 2.9 s
        Self.reports(from: Self.start + .milliseconds(2900 + silenceMilliseconds), count: 30, into: &file)
        let io = try Self.replay(file, ["--exit-after", "2s", "--interval", interval])
        #expect(io.stderr.isEmpty, "\(io.stderr)")
        #expect(Self.events(io).filter { $0 == "exit" }.count == (exits ? 1 : 0), "\(Self.crossings(io))")
        #expect(Self.events(io).filter { $0 == "enter" }.count == (exits ? 2 : 1), "\(Self.crossings(io))")
        if exits { #expect(Self.crossings(io)[1] == "exit 08:00:04.900") }
    }

    @Test("a backward jump of 30 s: one warning, range lines keep coming, printed times step back once")
    func backThirtySeconds() throws {
        var file = BtsnoopWriter(datalink: .h4).header
        Self.reports(from: Self.start, count: 30, into: &file)  // 0.0 ... 2.9 s
        Self.reports(from: Self.start + .seconds(-27), count: 30, into: &file)  // -27.0 ... -24.1 s
        let io = try Self.replay(file)
        #expect(io.stderr == ["Warning: the capture's clock steps back 29.900s at 2027-01-15T07:59:33.000Z; ranging carries on as if no time had passed"])
        #expect(Self.events(io).filter { $0 == "exit" }.isEmpty)
        // The ticks after the step carry on the schedule, which resumed a microsecond after the last report before it.
        #expect(Self.ranges(io) == ["08:00:01.000 10", "08:00:02.000 10", "07:59:33.099 11", "07:59:34.099 10",
                                    "07:59:35.099 10", "07:59:35.900 9 partial"])
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

    @Test("lastSeen of a beacon heard before a step back stays the time it was heard, on the clock it was heard by")
    func lastSeenKeepsItsClock() throws {
        var file = BtsnoopWriter(datalink: .h4).header
        let leaving = SimulatedAir.beacon(1, uuid: Self.uuid)
        Self.reports(from: Self.start, count: 20, into: &file)  // 0.0 ... 1.9 s
        BtsnoopWriter(datalink: .h4).appendRecord(SimulatedAir.extendedReport(leaving, rssi: -70), direction: .received,
                                                  timestamp: Self.start + .milliseconds(1950), to: &file)
        // The clock steps back an hour; only the first beacon is heard from then on.
        Self.reports(from: Self.start + .seconds(-3600 + 2), count: 30, into: &file)
        let io = try Self.replay(file)
        let lastSeen = io.stdout.filter { $0.contains(#""event":"range""#) }.compactMap { line in
            line.firstMatch(of: /"minor":1,.*?"lastSeen":"([^"]*)"/).map { String($0.1) }
        }
        #expect(lastSeen.count >= 2, "\(io.stdout)")
        #expect(Set(lastSeen) == ["2027-01-15T08:00:01.950Z"], "\(io.stdout)")
    }
}
