import Glibc
import BeaconCore
import Testing
@testable import BeaconTransport

/// Both clocks under the test's control: monotonic time moves only when the test advances it, and the
/// wall clock is monotonic time plus an offset the test steps, as NTP or `date -s` would.
private final class TestClock {
    private(set) var monotonic = Micros.seconds(5)
    /// 2027-01-15T08:00:00.000Z at the start.
    private var wallMinusMonotonic = Micros(1_800_000_000_000_000 - 5_000_000)

    var reading: ClockReading {
        ClockReading(monotonic: monotonic, wall: Timestamp(microseconds: monotonic.value + wallMinusMonotonic.value))
    }

    func advance(_ span: Micros) { monotonic = Micros(monotonic.value + span.value) }
    func stepWall(_ step: Micros) { wallMinusMonotonic = Micros(wallMinusMonotonic.value + step.value) }
}

/// LE Advertising Report: ADV_NONCONN_IND from F0:F1:F2:F3:F4:01 carrying iBeacon
/// E2C56DB5-DFFB-48D2-B060-D0F5A71096E0 1/2, measured power -59, at RSSI -50.
private let report = HCIPacket(kind: .event, payload: hexBytes(
    "3E" + "2A"                                     // LE Meta, 42 parameter bytes
    + "02" + "01" + "03" + "00" + "01F4F3F2F1F0"    // Advertising Report, 1 report, ADV_NONCONN_IND, public
    + "1E" + "020106" + "1AFF4C000215"              // 30 data bytes: flags, Apple iBeacon
    + "E2C56DB5DFFB48D2B060D0F5A71096E0" + "0001" + "0002" + "C5"
    + "CE")[...])                                   // RSSI -50

/// `beacon range`'s loop over an `HCIHost` with a scripted controller and the test's clocks. Every
/// step runs the loop only up to the clock's current time, so nothing waits in real time.
private final class Ranging {
    let clock = TestClock()
    let transport: ScriptedTransport
    let host: HCIHost
    var session: RangeSession
    /// Printed lines, each with the monotonic time at which it was printed.
    private(set) var lines: [(line: String, printedAt: Micros)] = []
    private let warningLog = WarningLog()
    var warnings: [String] { warningLog.lines }

    private final class WarningLog {
        var lines: [String] = []
    }

    init(exitAfter: Micros = .seconds(10), stepDuringBringUp: Micros? = nil, recorder: BtsnoopRecorder? = nil) throws {
        let clock = clock
        transport = try ScriptedTransport { command in
            clock.advance(.milliseconds(1))
            if command.opcode == .leSetScanParameters, let step = stepDuringBringUp { clock.stepWall(step) }
            let parameters: [UInt8] = command.opcode == .readLocalSupportedCommands ? [0x00] + [UInt8](repeating: 0xFF, count: 64) : [0x00]
            return [.commandComplete(numCommandPackets: 1, opcode: command.opcode, returnParameters: parameters[...])]
        }
        let log = warningLog
        host = HCIHost(transport: transport, recorder: recorder, signals: nil, clock: { clock.reading },
                       warn: { log.lines.append($0) })
        session = Self.session(exitAfter: exitAfter)
        try ControllerSetup.startScanning(host, ScanParameters(), using: .legacy)
        try settle()
    }

    static func session(exitAfter: Micros) -> RangeSession {
        RangeSession(monitor: RegionMonitor(regions: [BeaconRegion(uuid: BeaconUUID("E2C56DB5-DFFB-48D2-B060-D0F5A71096E0")!)],
                                            exitAfter: exitAfter, interval: .seconds(1), hashKey: .systemRandomKey()),
                     duration: nil)
    }

    /// The lines a replay of `path` prints, with the session this run has, up to the end of the capture.
    static func replay(_ path: String, exitAfter: Micros) throws -> [String] {
        let host = HCIHost(transport: try BtsnoopReplayTransport(path: path), recorder: nil, signals: nil)
        var session = session(exitAfter: exitAfter)
        var lines: [String] = []
        let emit = { (output: MonitorOutput) in lines.append(OutputLine.encode(output.onWallClock(host.wallTime))) }
        var malformed: DecodeError?
        while true {
            let event = try host.forEachPacket(until: session.nextDeadline) { packet, direction, time in
                do throws(DecodeError) {
                    try session.packet(packet, direction: direction, at: time, emit: emit)
                } catch {
                    malformed = error
                    return .stop
                }
                return .proceed(until: session.nextDeadline)
            }
            if let malformed { throw malformed }
            switch event {
            case .deadline(let time):
                session.advance(to: time, emit: emit)
            case .endOfCapture:
                session.finish(at: host.now(), emit: emit)
                return lines
            case .stopped, .signal, .outputGone:
                return lines
            }
        }
    }

    private func emit(_ output: MonitorOutput) {
        lines.append((OutputLine.encode(output.onWallClock(host.wallTime)), clock.monotonic))
    }

    /// Runs the loop for everything due now: packets delivered, deadlines passed.
    func settle() throws {
        // Until the session's next deadline while packets wait, else no later than now.
        func due() -> Timestamp? {
            let now = host.now()
            return transport.hasPending ? session.nextDeadline : session.nextDeadline.map { min($0, now) } ?? now
        }
        var malformed: DecodeError?
        while true {
            let event = try host.forEachPacket(until: due()) { packet, direction, time in
                do throws(DecodeError) {
                    try session.packet(packet, direction: direction, at: time, emit: emit)
                } catch {
                    malformed = error
                    return .stop
                }
                return .proceed(until: due())
            }
            if let malformed { throw malformed }
            switch event {
            case .deadline(let time):
                session.advance(to: time, emit: emit)
                if !transport.hasPending, session.nextDeadline.map({ $0 > time }) ?? true { return }
            case .stopped, .signal, .endOfCapture, .outputGone:
                Issue.record("unexpected end of the loop")
                return
            }
        }
    }

    /// Lets `span` pass in 100 ms steps, a report arriving at each when `hearing`.
    func run(for span: Micros, hearing: Bool) throws {
        for _ in 0..<(span.value / 100_000) {
            clock.advance(.milliseconds(100))
            if hearing { transport.deliver([report]) }
            try settle()
        }
    }

    func events(_ name: String) -> [(line: String, printedAt: Micros)] {
        lines.filter { $0.line.hasPrefix("{\"event\":\"\(name)\"") }
    }

    static func time(_ line: String) -> String {
        line.firstMatch(of: /"time":"([^"]*)"/).map { String($0.1) } ?? "?"
    }
}

@Suite("Clock steps: schedules on the monotonic clock, printed times on the wall clock")
struct ClockStepTests {
    static let back = Micros.seconds(-30)
    static let forward = Micros.seconds(3600)

    @Test("a step during bring-up: commands complete, one warning, printed times follow the wall clock",
          arguments: [back, forward])
    func stepDuringBringUp(step: Micros) throws {
        let ranging = try Ranging(stepDuringBringUp: step)
        try ranging.run(for: .seconds(3), hearing: true)
        let warnings = ranging.warnings
        #expect(warnings.count == 1, "\(warnings)")
        #expect(warnings.first?.hasPrefix("Warning: the wall clock stepped \(step.value < 0 ? "back 30.000s" : "forward 3600.000s")") == true)
        let state = try #require(ranging.events("state").first)
        // The controller confirmed scanning at 08:00:00.003 by the old wall clock.
        let expected = Timestamp(microseconds: 1_800_000_000_003_000) + step
        #expect(Ranging.time(state.line) == expected.iso8601)
        #expect(ranging.events("range").count == 3)
    }

    @Test("a step while ranging: a range line every interval, no exit, printed times step once", arguments: [back, forward])
    func stepWhileRanging(step: Micros) throws {
        let ranging = try Ranging()
        try ranging.run(for: .milliseconds(3050), hearing: true)
        ranging.clock.stepWall(step)
        try ranging.run(for: .milliseconds(3050), hearing: true)
        #expect(ranging.warnings.count == 1, "\(ranging.warnings)")
        let ranges = ranging.events("range")
        #expect(ranges.count == 6)
        #expect(ranging.events("exit").isEmpty && ranging.events("enter").count == 1)
        // Scanning came on at 5.003 s of monotonic time; each line is printed when its interval ends.
        #expect(ranges.map(\.printedAt) == (1...6).map { Micros(5_003_000 + Int64($0) * 1_000_000) })
        let anchor = Timestamp(microseconds: 1_800_000_000_003_000)
        #expect(ranges.map { Ranging.time($0.line) } == (1...6).map { (anchor + Micros.seconds(Int64($0)) + ($0 > 3 ? step : Micros(0))).iso8601 })
        // The report arriving exactly at the first tick belongs to the second interval.
        #expect(ranges.first?.line.contains("\"samples\":9,") == true)
        #expect(ranges.dropFirst().allSatisfy { $0.line.contains("\"samples\":10,") })
    }

    @Test("a step during an exit countdown: the exit comes after exitAfter of monotonic time, once", arguments: [back, forward])
    func stepDuringExitCountdown(step: Micros) throws {
        let ranging = try Ranging(exitAfter: .seconds(2))
        try ranging.run(for: .seconds(1), hearing: true)
        try ranging.run(for: .milliseconds(500), hearing: false)
        ranging.clock.stepWall(step)
        try ranging.run(for: .seconds(3), hearing: false)
        let exits = ranging.events("exit")
        #expect(exits.count == 1)
        #expect(ranging.events("enter").count == 1)
        // Last heard at 6.003 s of monotonic time: the exit is due, and printed, at 8.003 s; its time is
        // that deadline on the stepped wall clock.
        #expect(exits.first?.printedAt == Micros(8_003_000))
        let lastHeard = Timestamp(microseconds: 1_800_000_001_003_000)
        #expect(exits.first.map { Ranging.time($0.line) } == (lastHeard + Micros.seconds(2) + step).iso8601)
    }

    @Test("twenty steps: five warnings, the rest counted for one summary line at the end")
    func manySteps() throws {
        let ranging = try Ranging()
        for n in 0..<20 {
            ranging.clock.stepWall(n % 2 == 0 ? Self.back : Self.forward)
            try ranging.run(for: .milliseconds(200), hearing: true)
        }
        #expect(ranging.warnings.count == RepeatedWarning.defaultLimit, "\(ranging.warnings)")
        #expect(ranging.host.warningSummaries == ["Warning: the wall clock stepped 20 times in all"])
    }

    @Test("stopped for two minutes while the beacon kept advertising: the reports waiting come first, no exit, one warning")
    func stoppedProcessHearsWhatWaited() throws {
        let ranging = try Ranging(exitAfter: .seconds(10))
        try ranging.run(for: .milliseconds(3050), hearing: true)
        let rangesBefore = ranging.events("range").count
        // SIGSTOP while the loop waits for its next tick; on SIGCONT the reports sent meanwhile are waiting.
        let clock = ranging.clock
        ranging.transport.beforeNextRead = { clock.advance(.seconds(120)) }
        ranging.transport.deliver([report, report, report])
        try ranging.settle()
        try ranging.run(for: .seconds(3), hearing: true)
        #expect(ranging.events("exit").isEmpty, "\(ranging.lines.map(\.line))")
        #expect(ranging.events("enter").count == 1)
        // Ranging carries on as if no time had passed: a line per interval, not one per interval of the stop.
        #expect(ranging.events("range").count == rangesBefore + 3)
        #expect(ranging.warnings.count == 1, "\(ranging.warnings)")
        #expect(ranging.warnings.first?.hasPrefix("Warning: beacon was stopped for 120.") == true, "\(ranging.warnings)")
        // Printed times follow the wall clock: the last range line is two minutes after the ones before the stop.
        let last = try #require(ranging.events("range").last)
        let anchor = Timestamp(microseconds: 1_800_000_000_003_000)
        #expect(Ranging.time(last.line) > (anchor + Micros.seconds(120)).iso8601)
    }

    @Test("a wait that ends late with nothing to read: the deadline passes as it would (silence on air)")
    func lateWakeWithNothingWaitingExits() throws {
        let ranging = try Ranging(exitAfter: .seconds(2))
        try ranging.run(for: .seconds(1), hearing: true)
        ranging.clock.advance(.seconds(120))
        try ranging.settle()
        #expect(ranging.events("exit").count == 1)
        #expect(ranging.warnings.isEmpty, "\(ranging.warnings)")
    }

    @Test("recorded while the wall clock steps back and forward and the process is stopped: the replay prints the same lines",
          arguments: [Micros.seconds(3), back, forward])
    func recordingReplaysToTheSameLines(step: Micros) throws {
        let path = temporaryPath("stepped-\(step.value).btsnoop")
        defer { unlink(path) }
        let recorder = try BtsnoopRecorder(path: path)
        let ranging = try Ranging(exitAfter: .seconds(2), recorder: recorder)
        try ranging.run(for: .milliseconds(2050), hearing: true)
        ranging.clock.stepWall(step)
        try ranging.run(for: .milliseconds(1500), hearing: true)
        // Away for longer than the exit countdown, with a step of the wall clock while nothing is heard.
        try ranging.run(for: .milliseconds(1200), hearing: false)
        ranging.clock.stepWall(Micros(-step.value / 2))
        try ranging.run(for: .milliseconds(1800), hearing: false)
        try ranging.run(for: .seconds(2), hearing: true)
        // Stopped for two minutes while the beacon advertised; then a step right as it wakes.
        let clock = ranging.clock
        ranging.transport.beforeNextRead = {
            clock.advance(.seconds(120))
            clock.stepWall(.seconds(7))
        }
        ranging.transport.deliver([report, report])
        try ranging.settle()
        try ranging.run(for: .milliseconds(2500), hearing: true)
        try recorder.close()

        #expect(ranging.warnings.count == 4, "\(ranging.warnings)")
        let live = ranging.lines.map(\.line)
        #expect(ranging.events("exit").count == 1 && ranging.events("enter").count == 2, "\(live)")
        var replayed = try Ranging.replay(path, exitAfter: .seconds(2))
        // The replay ends with the interval the capture's end cut short, which the live run had not finished.
        #expect(replayed.last?.contains(#""partial":true"#) == true)
        replayed.removeLast()
        #expect(replayed == live)
    }
}
