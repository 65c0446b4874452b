@testable import BeaconCLI
import BeaconCore
import BeaconTransport
import Glibc
import Testing

@Suite("how LineOutput writes monitoring lines")
struct LineOutputTests {
    /// Records each write of a console's stdout as it was given (with the count of bytes of its line
    /// written before), and each line a sink was given.
    final class Recorder: LineSink, @unchecked Sendable {
        var writes: [[UInt8]] = []
        var following: [Int] = []
        var sunk: [String] = []
        var finished = false

        func console(batching: Bool) -> Console {
            let lineBatching = batching ? LineBatching(retriesLineByLine: true) : nil
            lineBatching?.isEnabled = true
            return Console(writeLines: { [unowned self] in
                writes.append(Array($0))
                following.append($1)
                return .written
            },
                           diagnose: { _ in }, lineBatching: lineBatching)
        }

        func monitor(_ output: MonitorOutput, line: String) { sunk.append(line) }
        func stepEnded(lastTick: Timestamp?) {}
        func finish() { finished = true }
    }

    static let uuid = BeaconUUID(high: 0xE2C5_6DB5_DFFB_48D2, low: 0xB060_D0F5_A710_96E0)
    static let region = BeaconRegion(uuid: uuid)
    static let t0 = Timestamp(microseconds: 1_795_953_600_000_000)

    /// A range line of `count` beacons (about 290 bytes each).
    static func range(_ count: Int) -> MonitorOutput {
        let beacons = (0..<count).map { n in
            RangedBeacon(identity: BeaconIdentity(uuid: uuid, major: 1, minor: UInt16(n)), rssi: -60, filteredRSSI: -60.5,
                         measuredPower: -59, accuracy: 1.25, proximity: .near, address: DeviceAddress(value: 0xF0F1_F2F3_0000 + UInt64(n)),
                         addressType: .publicDevice, samples: 3, lastSeen: t0)
        }
        return .range(region, t0, beacons)
    }

    static func bytes(_ outputs: [MonitorOutput]) -> [UInt8] {
        outputs.flatMap { Array(OutputLine.encode($0).utf8) + [0x0A] }
    }

    @Test("unbatched, each line is one write of its encoding and a newline, and a sink gets the same text")
    func oneWritePerLine() {
        let recorder = Recorder()
        let output = LineOutput(console: recorder.console(batching: false), sinks: [recorder])
        let lines: [MonitorOutput] = [.enter(Self.region, Self.t0), Self.range(2), .exit(Self.region, Self.t0)]
        for line in lines { output.write(line) }
        #expect(recorder.writes == lines.map { Self.bytes([$0]) })
        #expect(recorder.sunk == lines.map(OutputLine.encode))
        #expect(output.finish(.success) == .success)
        #expect(recorder.finished)
        #expect(recorder.writes.count == lines.count, "finish wrote again")
    }

    @Test("batched, small lines wait for a full batch or the end")
    func batchedLines() {
        let recorder = Recorder()
        let output = LineOutput(console: recorder.console(batching: true))
        let small: [MonitorOutput] = [.state(Self.region, .inside, Self.t0), .enter(Self.region, Self.t0), Self.range(3)]
        for line in small { output.write(line) }
        output.write("{\"event\":\"other\"}")
        #expect(recorder.writes.isEmpty)
        #expect(output.finish(.success) == .success)
        #expect(recorder.writes == [Self.bytes(small) + Array("{\"event\":\"other\"}\n".utf8)])
    }

    @Test("a line longer than a batch goes out in pieces while it is encoded, after the whole lines before it",
          arguments: [false, true])
    func longLineInPieces(batching: Bool) throws {
        let recorder = Recorder()
        let output = LineOutput(console: recorder.console(batching: batching))
        let before: MonitorOutput = .enter(Self.region, Self.t0)
        let large = Self.range(1_000)
        output.write(before)
        output.write(large)
        let line = Self.bytes([large])
        #expect(line.count > 3 * LineBatching.size)
        #expect(recorder.writes.first == Self.bytes([before]))
        let pieces = Array(recorder.writes.dropFirst())
        #expect(pieces.count >= 3)
        #expect(pieces.joined().elementsEqual(line))
        // Each piece but the last is about a batch's worth (batched, the first one shares its batch with the
        // line before it); each says how much of the line went before it.
        let least = LineBatching.size - (batching ? Self.bytes([before]).count : 0)
        #expect(pieces.dropLast().allSatisfy { $0.count >= least && $0.count < LineBatching.size + 1_000 })
        #expect(pieces.dropLast().allSatisfy { !$0.contains(0x0A) } && pieces.last?.last == 0x0A)
        #expect(Array(recorder.following.dropFirst()) == pieces.indices.map { pieces[..<$0].reduce(0) { $0 + $1.count } })
        #expect(recorder.following.first == 0)
        // The next line starts afresh.
        output.write(before)
        #expect(output.finish(.success) == .success)
        #expect(recorder.writes.last == Self.bytes([before]))
        #expect(recorder.following.last == 0)
    }

    @Test("with a sink, a long line is held whole: the sink gets it as text, stdout in one write")
    func longLineWithSink() {
        let recorder = Recorder()
        let output = LineOutput(console: recorder.console(batching: false), sinks: [recorder])
        let large = Self.range(1_000)
        output.write(large)
        #expect(recorder.writes == [Self.bytes([large])])
        #expect(recorder.sunk == [OutputLine.encode(large)])
    }

    @Test("a piece that fails ends the output: nothing more of the line or after it is written")
    func failedPiece() {
        var writes = 0
        let console = Console(writeLines: { _, _ in
            writes += 1
            return writes == 2 ? .failed(SystemError(call: "write", errno: ENOSPC)) : .written
        }, diagnose: { _ in })
        let output = LineOutput(console: console)
        output.write(Self.range(1_000))
        output.write(.exit(Self.region, Self.t0))
        #expect(writes == 2)
        #expect(output.finish(.success) == .ioError)
    }

    @Test("lines after the reader went away reach the sinks but not stdout")
    func readerGoneKeepsSinks() {
        let recorder = Recorder()
        var attempts = 0
        let console = Console(writeLines: { _, _ in attempts += 1; return .stopped }, diagnose: { _ in })
        let output = LineOutput(console: console, sinks: [recorder])
        output.write(.enter(Self.region, Self.t0))
        output.write(Self.range(3))
        #expect(output.readerGone)
        #expect(attempts == 1)
        #expect(recorder.sunk == [OutputLine.encode(.enter(Self.region, Self.t0)), OutputLine.encode(Self.range(3))])
        #expect(output.finish(.success) == .success)
        #expect(attempts == 1)
    }
}
