import BeaconCore
import Foundation
import Glibc
import Testing
@testable import BeaconTransport

/// A controller played by the test: every command sent is answered with the events `answer` returns,
/// delivered through a pipe so the host's poll loop sees them as it would a socket. `deliver` adds
/// packets of the test's own (advertising reports) the same way.
final class ScriptedTransport: PacketTransport {
    let answer: (HCICommand) -> [HCIEvent]
    private(set) var sent: [HCIOpcode] = []
    /// Written to the pipe, not yet read.
    private var queue: [HCIPacket] = []
    /// What the host is to do with each packet written to the pipe.
    private var queueUses: [TransportPacket.Use] = []
    /// Taken by the last read, not yet returned: their kinds, lengths and uses, and their bytes in `readBytes`.
    private var ready: [(kind: HCIPacketKind, length: Int, use: TransportPacket.Use)] = []
    private var readBytes = ReadBuffer()
    private let readEnd: Int32
    private let writeEnd: Int32

    init(answer: @escaping (HCICommand) -> [HCIEvent]) throws {
        var fds: [Int32] = [0, 0]
        try syscall("pipe") { pipe(&fds) }
        readEnd = fds[0]
        writeEnd = fds[1]
        self.answer = answer
    }

    deinit {
        _ = Glibc.close(readEnd)
        _ = Glibc.close(writeEnd)
    }

    var readDescriptor: Int32? { readEnd }
    var isLive: Bool { true }
    var ownsController: Bool { true }
    var description: String { "scripted" }
    /// Packets the host has not taken yet.
    var hasPending: Bool { !queue.isEmpty || !ready.isEmpty }

    /// Run at the start of the next read only, then cleared: what happens to the process just before it reads.
    var beforeNextRead: (() -> Void)?

    func read() throws(TransportError) -> Bool {
        beforeNextRead.take()?()
        var byte: UInt8 = 0
        _ = Glibc.read(readEnd, &byte, 1)
        // As a real transport's buffer: packets stay in place until the next read.
        for (packet, use) in zip(queue, queueUses) {
            readBytes.append(packet.payload)
            ready.append((packet.kind, packet.payload.count, use))
        }
        queue.removeAll()
        queueUses.removeAll()
        return true
    }

    func nextPacket() throws(TransportError) -> TransportPacket? {
        guard !ready.isEmpty else { return nil }
        let (kind, length, use) = ready.removeFirst()
        let bytes = UnsafeRawBufferPointer(rebasing: readBytes.unconsumedBytes.prefix(length))
        readBytes.consume(length)
        return TransportPacket(HCIPacketView(kind: kind, payload: bytes), .received, use: use)
    }

    func send(_ packet: HCIPacket) throws(TransportError) {
        let command: HCICommand
        do {
            command = try HCICommand.decode(packet.payload)
        } catch {
            throw TransportError(.badStream, "scripted: \(error)")
        }
        sent.append(command.opcode)
        deliver(answer(command).map(\.packet))
    }

    func deliver(_ packets: [HCIPacket], use: TransportPacket.Use = .heardAndRecorded) {
        guard !packets.isEmpty else { return }
        queue += packets
        queueUses += Array(repeating: use, count: packets.count)
        var byte: UInt8 = 1
        _ = Glibc.write(writeEnd, &byte, 1)
    }

    func close() {}
}

private func complete(_ opcode: HCIOpcode, credits: UInt8 = 1, _ returnParameters: [UInt8] = [0x00]) -> HCIEvent {
    .commandComplete(numCommandPackets: credits, opcode: opcode, returnParameters: returnParameters[...])
}

private let scanDisable = HCICommand.leSetScanEnable(false, filterDuplicates: false)

/// Both clocks, moving on a whole command timeout each time they are read: a command that is not
/// answered at once times out at the next reading, and no wait for an answer takes real time.
private final class CommandTimeoutClock {
    static let timeout = Micros.milliseconds(100)
    private var monotonic = Micros.seconds(5)

    func reading() -> ClockReading {
        monotonic = Micros(monotonic.value + Self.timeout.value)
        return ClockReading(monotonic: monotonic, wall: Timestamp(microseconds: 1_800_000_000_000_000 + monotonic.value))
    }
}

/// A host for `transport` whose commands time out by the test's clock.
private func hostTimingOutAtOnce(_ transport: ScriptedTransport) -> HCIHost {
    let clock = CommandTimeoutClock()
    return HCIHost(transport: transport, recorder: nil, signals: nil, commandTimeout: CommandTimeoutClock.timeout,
                   clock: clock.reading)
}

@Suite("HCIHost command flow under controller faults")
struct HCIHostTests {
    @Test func hardwareErrorIsReportedOnceAndCleanupStillCompletes() throws {
        // Reset gets only a Hardware Error; the scan disable that cleanup sends afterwards is answered.
        let transport = try ScriptedTransport { command in
            command.opcode == .reset ? [.hardwareError(code: 0x42)] : [complete(command.opcode)]
        }
        let host = hostTimingOutAtOnce(transport)
        #expect {
            try host.execute(.reset)
        } throws: { error in
            guard case HostError.hardwareError(0x42) = error else { return false }
            return true
        }
        // Reset is still pending: its deadline passes, then the disable goes out and succeeds.
        try host.execute(scanDisable, interruptible: false)
        #expect(transport.sent == [.reset, .leSetScanEnable])
    }

    @Test func anUnansweredEarlierCommandDoesNotFailTheNextOne() throws {
        // Scan parameters are never answered (the host's wait for them was cut short); the disable is.
        let transport = try ScriptedTransport { command in
            command.opcode == .leSetScanParameters ? [.hardwareError(code: 0x01)] : [complete(command.opcode)]
        }
        let host = hostTimingOutAtOnce(transport)
        #expect(throws: HostError.self) {
            try host.execute(.leSetScanParameters(active: false, interval: 160, window: 160, ownAddressType: 0, filterPolicy: 0))
        }
        let answer = try host.execute(scanDisable, interruptible: false)
        #expect(try answer.returnParameters().isEmpty)
        #expect(transport.sent == [.leSetScanParameters, .leSetScanEnable])
    }

    @Test func creditsFromANOPLetTheNextCommandGo() throws {
        // Reset's Command Complete grants no credit; a NOP Command Complete grants one.
        let transport = try ScriptedTransport { command in
            command.opcode == .reset ? [complete(.reset, credits: 0), complete(.nop, credits: 1, [])] : [complete(command.opcode)]
        }
        let host = hostTimingOutAtOnce(transport)
        try host.execute(.reset)
        try host.execute(.leSetEventMask(0x1F))
        #expect(transport.sent == [.reset, .leSetEventMask])
    }

    @Test func withheldCreditsTimeOutNamingTheWaitingCommand() throws {
        let transport = try ScriptedTransport { command in [complete(command.opcode, credits: 0)] }
        let host = hostTimingOutAtOnce(transport)
        try host.execute(.reset)
        #expect {
            try host.execute(.leSetEventMask(0x1F))
        } throws: { error in
            guard case HostError.command(let commandError) = error else { return false }
            return commandError == CommandError(opcode: .leSetEventMask, kind: .timeout(.milliseconds(100)))
        }
        #expect(transport.sent == [.reset])
    }
}

@Suite("HCIHost loop")
struct HCIHostLoopTests {
    @Test func anAnswerAlreadyQueuedIsReadBeforeTheCommandTimesOut() throws {
        // With no time to wait at all, the answer is only found by reading what is already queued.
        let transport = try ScriptedTransport { command in [complete(command.opcode)] }
        let host = HCIHost(transport: transport, recorder: nil, signals: nil, commandTimeout: Micros(0))
        let answer = try host.execute(.reset)
        #expect(try answer.returnParameters().isEmpty)
    }

    @Test("reports queued ahead of a command's answer are kept up to the backlog's bound, the rest dropped and counted; the answer is kept")
    func theBacklogOfReportsIsBounded() throws {
        // LE Advertising Report, one ADV_NONCONN_IND with no data: 14 bytes.
        let report = HCIPacket(kind: .event, payload: [0x3E, 0x0C, 0x02, 0x01, 0x03, 0x00, 1, 2, 3, 4, 5, 6, 0x00, 0xCE])
        let queued = 2 * HCIHost.backlogByteLimit / report.payload.count
        let transport = try ScriptedTransport { command in [complete(command.opcode)] }
        let host = HCIHost(transport: transport, recorder: nil, signals: nil)
        transport.deliver(Array(repeating: report, count: queued))
        try host.execute(scanDisable, interruptible: false)
        var kept = (reports: 0, bytes: 0, answers: 0, sent: 0)
        let event = try host.forEachPacket(until: Timestamp(microseconds: 0)) { packet, direction, _ in
            kept.bytes += packet.payload.count
            if direction == .sent {
                kept.sent += 1
            } else if packet.payload.first == HCIEventCode.commandComplete.rawValue {
                kept.answers += 1
            } else {
                kept.reports += 1
            }
            return .proceed(until: Timestamp(microseconds: 0))
        }
        guard case .deadline = event else {
            Issue.record("the backlog ended with \(event), not the deadline")
            return
        }
        #expect(kept.sent == 1 && kept.answers == 1)
        #expect(kept.bytes <= HCIHost.backlogByteLimit + 16)
        #expect(kept.reports >= HCIHost.backlogByteLimit / report.payload.count - 2)
        #expect(host.droppedReports == queued - kept.reports)
        #expect(host.warningSummaries == ["Warning: dropped \(queued - kept.reports) advertising reports that arrived while a command awaited its answer"])
    }

    @Test("packets heard only reach the handler and not the recording; packets recorded only reach the recording and not the handler")
    func packetsHeardOnlyAndRecordedOnly() throws {
        let path = temporaryPath("uses.btsnoop")
        defer { unlink(path) }
        // As mgmt:N with --record hands them on: a report it rebuilt (heard), the controller's own (recorded).
        let rebuilt = HCIPacket(kind: .event, payload: [0x3E, 0x0C, 0x02, 0x01, 0x03, 0x00, 1, 2, 3, 4, 5, 6, 0x00, 0xCE])
        let controllers = HCIPacket(kind: .event, payload: [0x3E, 0x0C, 0x02, 0x01, 0x03, 0x00, 1, 2, 3, 4, 5, 6, 0x00, 0xCD])
        let enable = HCIPacket(kind: .command, payload: [0x0C, 0x20, 0x02, 0x01, 0x00])
        let transport = try ScriptedTransport { command in [complete(command.opcode)] }
        let recorder = try BtsnoopRecorder(path: path)
        let host = HCIHost(transport: transport, recorder: recorder, signals: nil)
        // Ahead of a command's answer (the backlog's path), then in the loop.
        transport.deliver([controllers], use: .recorded)
        transport.deliver([rebuilt], use: .heard)
        try host.execute(scanDisable, interruptible: false)
        transport.deliver([enable], use: .recorded)
        transport.deliver([rebuilt], use: .heard)
        var heard: [[UInt8]] = []
        let event = try host.forEachPacket(until: nil) { packet, direction, _ in
            if direction == .received { heard.append(Array(packet.payload)) }
            return heard.count == 3 ? .stop : .proceed(until: nil)
        }
        #expect(event == .stopped)
        try recorder.close()
        let answer = Array(complete(.leSetScanEnable).packet.payload)
        #expect(heard == [Array(rebuilt.payload), answer, Array(rebuilt.payload)])
        var reader = BtsnoopReader()
        reader.append(Array(try Data(contentsOf: URL(fileURLWithPath: path))))
        var recorded: [[UInt8]] = []
        while let record = try reader.next() { recorded.append(Array(record.packet.payload)) }
        #expect(recorded == [Array(scanDisable.packet.payload), Array(controllers.payload), answer, Array(enable.payload)])
    }

    @Test func theOutputsReaderGoingAwayEndsTheRun() throws {
        var output: [Int32] = [0, 0]
        try syscall("pipe") { pipe(&output) }
        defer { _ = Glibc.close(output[1]) }
        _ = Glibc.close(output[0])
        let transport = try ScriptedTransport { _ in [] }
        let host = HCIHost(transport: transport, recorder: nil, signals: nil, output: output[1])
        guard try host.forEachPacket(until: nil, { _, _, _ in .proceed(until: nil) }) == .outputGone else {
            Issue.record("the run went on without its reader")
            return
        }
    }

    /// What a listening loop sees of a replay: each packet's bytes and time, and each deadline.
    enum Seen: Equatable {
        case packet([UInt8], Timestamp)
        case deadline(Timestamp)
    }

    /// A capture of `count` advertising reports 7 ms apart, replayed by a new host.
    func replayHost(count: Int) throws -> (HCIHost, path: String) {
        let path = temporaryPath("loop.btsnoop")
        let t0 = Timestamp(microseconds: 1_800_000_000_000_000)
        var file = BtsnoopWriter().header
        for i in 0..<count {
            let event = HCIPacket(kind: .event, payload: [0x3E, 0x03, 0x02, 0x00, UInt8(truncatingIfNeeded: i)])
            BtsnoopWriter().appendRecord(event, direction: .received, timestamp: t0 + .milliseconds(Int64(7 * i)), to: &file)
        }
        try Data(file).write(to: URL(fileURLWithPath: path))
        return (HCIHost(transport: try openTransport(.btsnoop(path: path)), recorder: nil, signals: nil), path)
    }

    @Test("packets handed on in runs are the packets and deadlines of a loop stopped after each packet, held back at each deadline")
    func runsOfPacketsAreTheEvents() throws {
        let step = Micros.milliseconds(100)
        var oneByOne: [Seen] = []
        let (single, singlePath) = try replayHost(count: 3000)
        defer { unlink(singlePath) }
        var deadline: Timestamp?
        loop: while true {
            let event = try single.forEachPacket(until: deadline) { packet, _, time in
                oneByOne.append(.packet(Array(packet.payload), time))
                if deadline == nil { deadline = time + step }
                return .stop
            }
            switch event {
            case .stopped: continue
            case .deadline(let time):
                oneByOne.append(.deadline(time))
                deadline = time + step
            case .signal, .endOfCapture, .outputGone: break loop
            }
        }
        var inRuns: [Seen] = []
        let (runs, runsPath) = try replayHost(count: 3000)
        defer { unlink(runsPath) }
        deadline = nil
        var stops = 0
        loop: while true {
            let event = try runs.forEachPacket(until: deadline) { packet, _, time in
                inRuns.append(.packet(Array(packet.payload), time))
                if deadline == nil { deadline = time + step }
                // Stopping now and then hands the rest on from the next call.
                if inRuns.count % 500 == 0 {
                    stops += 1
                    return .stop
                }
                return .proceed(until: deadline)
            }
            switch event {
            case .stopped: continue
            case .deadline(let time):
                inRuns.append(.deadline(time))
                deadline = time + step
            case .signal, .endOfCapture, .outputGone: break loop
            }
        }
        #expect(oneByOne.count > 3000 + 200)
        #expect(stops > 0)
        #expect(inRuns == oneByOne)
    }

    @Test func aFailedRecordingStillLetsCleanupReachTheController() {
        let recording = HostError.recording(TransportError(.io, "recording /x: write: No space left on device"))
        #expect(recording.controllerReachable)
        #expect(recording.description == "recording stopped: recording /x: write: No space left on device")
        #expect(!HostError.connectionClosed("end of stream").controllerReachable)
        #expect(!HostError.transport(TransportError(.io, "read: Connection reset by peer")).controllerReachable)
        #expect(HostError.hardwareError(1).controllerReachable)
    }
}

@Suite("StandardStreams")
struct StandardStreamsTests {
    /// A pipe whose write end blocks because it is full.
    private func fullPipe() throws -> (read: Int32, write: Int32) {
        var fds: [Int32] = [0, 0]
        try syscall("pipe") { pipe(&fds) }
        let flags = fcntl(fds[1], F_GETFL)
        _ = fcntl(fds[1], F_SETFL, flags | O_NONBLOCK)
        let chunk = [UInt8](repeating: 0x41, count: 4096)
        while chunk.withUnsafeBytes({ Glibc.write(fds[1], $0.baseAddress, $0.count) }) > 0 {}
        _ = fcntl(fds[1], F_SETFL, flags)
        return (fds[0], fds[1])
    }

    @Test func aSignalEndsAWriteToAStalledReader() throws {
        let stdout = try fullPipe()
        var signal: [Int32] = [0, 0]
        try syscall("pipe") { pipe(&signal) }
        defer { for fd in [stdout.read, stdout.write, signal[0], signal[1]] { _ = Glibc.close(fd) } }
        var byte: UInt8 = 1
        _ = Glibc.write(signal[1], &byte, 1) // the "signal descriptor" is readable
        #expect(StandardStreams.writeLine("{\"event\":\"state\"}", to: stdout.write, waiting: WriteWait(interrupt: signal[0])) == .stopped)
    }

    @Test func aPassedDeadlineEndsTheWaitForAStalledReader() throws {
        let stdout = try fullPipe()
        var signal: [Int32] = [0, 0]
        try syscall("pipe") { pipe(&signal) }
        defer { for fd in [stdout.read, stdout.write, signal[0], signal[1]] { _ = Glibc.close(fd) } }
        // The signal descriptor is not readable: the loop has read the signal already, and its grace is over.
        let passed = Micros(Clock.monotonic().value - 1)
        #expect(StandardStreams.writeLine("{\"event\":\"range\"}", to: stdout.write,
                                          waiting: WriteWait(interrupt: signal[0], deadline: { passed })) == .stopped)
    }

    @Test func writesWholeLinesWhileNoSignalIsPending() throws {
        var out: [Int32] = [0, 0]
        var signal: [Int32] = [0, 0]
        try syscall("pipe") { pipe(&out) }
        try syscall("pipe") { pipe(&signal) }
        defer { for fd in out + signal { _ = Glibc.close(fd) } }
        // Longer than PIPE_BUF, so it goes out in several writes.
        let line = String(repeating: "x", count: 5000)
        #expect(StandardStreams.writeLine(line, to: out[1], waiting: WriteWait(interrupt: signal[0])) == .written)
        #expect(try readExactly(out[0], 5001) == Array(line.utf8) + [0x0A])
    }
}
