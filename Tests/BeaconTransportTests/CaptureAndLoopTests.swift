import BeaconCore
import Glibc
import Testing
@testable import BeaconTransport

private let start = Timestamp(microseconds: 1_700_000_000_000_000)

private func readFile(_ path: String) throws -> [UInt8] {
    let fd = try syscall("open") { open(path, O_RDONLY | O_CLOEXEC) }
    defer { _ = Glibc.close(fd) }
    var out: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 4096)
    while true {
        let n = try syscall("read") { chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) } }
        if n == 0 { return out }
        out += chunk.prefix(n)
    }
}

/// Enough packets to span several 256 KiB reads.
private func samplePackets(_ count: Int) -> [(HCIPacket, PacketDirection, Timestamp)] {
    (0..<count).map { i in
        if i % 50 == 0 {
            return (HCIPacket(kind: .command, payload: [0x0C, 0x20, 0x02, 0x01, UInt8(i % 2)]), .sent, start + .milliseconds(Int64(i)))
        }
        var report = hexBytes("3E1B02010000" + "01F4F3F2F1F0" + "0F")
        report += (0..<15).map { UInt8(truncatingIfNeeded: i &+ $0) }
        report.append(0xC5)
        return (HCIPacket(kind: .event, payload: report), .received, start + .milliseconds(Int64(i)))
    }
}

@Suite struct BtsnoopReplayTests {
    @Test(arguments: [BtsnoopDatalink.hciUnencapsulated, .h4, .linuxMonitor])
    func replaysEveryPacket(datalink: BtsnoopDatalink) throws {
        let path = temporaryPath("replay.btsnoop")
        defer { unlink(path) }
        let packets = samplePackets(12_000)
        let writer = BtsnoopWriter(datalink: datalink)
        var file = writer.header
        if datalink == .linuxMonitor {
            // A New Index record and a note before the packets; they are skipped.
            BtsnoopWriter.appendMonitorRecord(.newIndex, controllerIndex: 0, data: hexBytes("0003" + "01F4F3F2F1F0" + "6863693000000000"),
                                              timestamp: start, to: &file)
            BtsnoopWriter.appendMonitorRecord(.systemNote, controllerIndex: Btsnoop.noControllerIndex, data: Array("note\0".utf8),
                                              timestamp: start, to: &file)
        }
        for (packet, direction, time) in packets {
            writer.appendRecord(packet, direction: direction, timestamp: time, controllerIndex: 2, to: &file)
        }
        #expect(file.count > 512 * 1024)
        try writeFile(path, file)

        let transport = try openTransport(.btsnoop(path: path))
        #expect(!transport.isLive)
        #expect(transport.readDescriptor == nil)
        #expect(transport.description == "btsnoop:\(path)")
        try transport.send(HCIPacket(kind: .command, payload: hexBytes("030C00")))  // dropped
        let (received, ended) = try receivePackets(transport, count: packets.count + 1)
        #expect(ended)
        #expect(received.count == packets.count)
        #expect(received.map(\.0) == packets.map(\.0))
        #expect(received.map(\.1) == packets.map(\.1))
        #expect(received.map(\.2) == packets.map { Optional($0.2) })
        let replay = try #require(transport as? BtsnoopReplayTransport)
        #expect(replay.datalink == datalink)
        if datalink == .linuxMonitor {
            #expect(replay.controllerIndexes == [2])
            #expect(replay.selectedIndex == 2)
            #expect(replay.skippedRecordCount == 2)
        }
        // After the end it stays ended.
        #expect(try transport.read() == false)
        #expect(try transport.nextPacket() == nil)
    }

    @Test("a capture whose last record is cut short ends after the records before it, holding the failure to report after them")
    func truncatedCaptureEndsWithItsFailureHeld() throws {
        let path = temporaryPath("truncated.btsnoop")
        defer { unlink(path) }
        let writer = BtsnoopWriter()
        var first: [UInt8] = []
        writer.appendRecord(HCIPacket(kind: .event, payload: hexBytes("0E0401030C00")), direction: .received, timestamp: start, to: &first)
        try writeFile(path, writer.header + first + first.prefix(30))
        let replay = try BtsnoopReplayTransport(path: path)
        var seen = 0
        repeat {
            while try replay.nextPacket() != nil { seen += 1 }
        } while try replay.read()
        #expect(seen == 1)
        let error = try #require(replay.cutShort)
        #expect(error.category == .badCapture)
        #expect(error.message.hasPrefix("btsnoop:\(path): btsnoop record at offset \(16 + first.count): truncated record at end of file"))
    }

    @Test func badHeaderIsBadCapture() throws {
        let path = temporaryPath("bad.btsnoop")
        defer { unlink(path) }
        try writeFile(path, hexBytes("6274736E6F6F7000" + "00000001" + "00000457"))  // datalink 1111
        let transport = try openTransport(.btsnoop(path: path))
        let error = try #require(throws: TransportError.self) { try receivePackets(transport, count: 1) }
        #expect(error.category == .badCapture)
        #expect(error.message.contains("offset 12"))
        #expect(error.message.contains("unknown datalink 1111"))
    }

    @Test func missingCaptureIsUnavailable() throws {
        let path = temporaryPath("absent.btsnoop")
        let error = try #require(throws: TransportError.self) { try openTransport(.btsnoop(path: path)) }
        #expect(error.category == .unavailable)
    }

    @Test func indexFilterPassesThrough() throws {
        let path = temporaryPath("two.btsnoop")
        defer { unlink(path) }
        let writer = BtsnoopWriter(datalink: .linuxMonitor)
        let event = HCIPacket(kind: .event, payload: hexBytes("0E0401030C00"))
        var file = writer.header
        writer.appendRecord(event, direction: .received, timestamp: start, controllerIndex: 0, to: &file)
        writer.appendRecord(event, direction: .received, timestamp: start + .seconds(1), controllerIndex: 1, to: &file)
        try writeFile(path, file)
        let transport = try openTransport(.btsnoop(path: path), btsnoopIndex: 1)
        let (received, _) = try receivePackets(transport, count: 5)
        #expect(received.map(\.2) == [start + .seconds(1)])
        #expect((transport as? BtsnoopReplayTransport)?.controllerIndexes == [0, 1])
    }
}

@Suite struct BtsnoopRecorderTests {
    @Test func recordingReadsBack() throws {
        let path = temporaryPath("recording.btsnoop")
        defer { unlink(path) }
        let packets = samplePackets(5000)
        let recorder = try BtsnoopRecorder(path: path)
        // The header is on disk as soon as the recorder exists.
        #expect(try readFile(path) == BtsnoopWriter(datalink: .linuxMonitor).header)
        for (packet, direction, time) in packets {
            try packet.withView { try recorder.record($0, direction: direction, timestamp: time) }
        }
        try recorder.close()

        var reader = BtsnoopReader()
        reader.append(try readFile(path))
        var records: [BtsnoopRecord] = []
        while let record = try reader.next() { records.append(record) }
        try reader.finish()
        #expect(reader.header?.datalink == .linuxMonitor)
        #expect(records.map(\.packet) == packets.map(\.0))
        #expect(records.map(\.direction) == packets.map(\.1))
        #expect(records.map(\.timestamp) == packets.map(\.2))
    }

    @Test("a note of the wall clock reads back in its place among the packets, as a System Note of no controller")
    func wallClockNoteReadsBack() throws {
        let path = temporaryPath("noted.btsnoop")
        defer { unlink(path) }
        let packets = samplePackets(3)
        let recorder = try BtsnoopRecorder(path: path)
        try packets[0].0.withView { try recorder.record($0, direction: packets[0].1, timestamp: packets[0].2) }
        try recorder.recordNote(WallClockNote.data(offset: .seconds(-3600), cause: "stepped back 3600.000s"),
                                timestamp: packets[0].2 + Micros(1))
        try packets[1].0.withView { try recorder.record($0, direction: packets[1].1, timestamp: packets[1].2) }
        try recorder.close()

        var reader = BtsnoopReader()
        reader.append(try readFile(path))
        var seen: [String] = []
        try reader.forEachPacket { next in
            if let offset = next.recordedWallOffset {
                seen.append("note \(offset.value) at \(next.captureTime.map { ($0 - start).value } ?? -1)")
            } else {
                seen.append("packet \(next.packet.packet == (next.direction == .sent ? packets[0].0 : packets[1].0))")
            }
            return true
        }
        #expect(seen == ["packet true", "note -3600000000 at 1", "packet true"])
        // As btmon writes notes: flags 0xFFFF000C, the text and a NUL.
        let bytes = try readFile(path)
        let noteStart = 16 + 24 + packets[0].0.payload.count
        #expect(Array(bytes[noteStart + 8..<noteStart + 12]) == [0xFF, 0xFF, 0x00, 0x0C])
        #expect(bytes[noteStart + 24] == UInt8(ascii: "b") && bytes.count > noteStart + 24)
    }

    @Test("records stay buffered for less than a flush interval, and are written once it has passed")
    func flushesOnceAFlushIntervalHasPassed() throws {
        let path = temporaryPath("flush.btsnoop")
        defer { unlink(path) }
        let packet = HCIPacket(kind: .event, payload: hexBytes("0E0401030C00"))
        var monotonic = Micros.seconds(5)
        let recorder = try BtsnoopRecorder(path: path, clock: { monotonic })
        try packet.withView { try recorder.record($0, direction: .received, timestamp: start) }
        monotonic = Micros(monotonic.value + BtsnoopRecorder.flushInterval.value - 1)
        try recorder.flushIfDue()
        #expect(try readFile(path).count == 16)  // the header only: the record is still buffered
        monotonic = Micros(monotonic.value + 1)
        try recorder.flushIfDue()
        #expect(try readFile(path).count == 16 + 24 + 6)  // a Linux monitor record has no H4 indicator byte
        try recorder.close()
    }

    /// A FIFO holding at most 4096 bytes, open for reading (non-blocking) so the recorder can open it,
    /// and a readable stand-in for the signal descriptor: a signal is pending throughout.
    private func stalledFIFO(_ name: String) throws -> (path: String, reader: Int32, signal: [Int32]) {
        let path = temporaryPath(name)
        try syscall("mkfifo") { mkfifo(path, 0o600) }
        let reader = try syscall("open") { open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC) }
        _ = fcntl(reader, 1031 /* F_SETPIPE_SZ */, 4096)
        var signal: [Int32] = [0, 0]
        try syscall("pipe") { pipe(&signal) }
        var byte: UInt8 = 1
        _ = Glibc.write(signal[1], &byte, 1)
        return (path, reader, signal)
    }

    /// Reads what `fd` holds now; how many bytes that was.
    @discardableResult
    private func drain(_ fd: Int32, into bytes: inout [UInt8]) -> Int {
        var chunk = [UInt8](repeating: 0, count: 65536)
        var total = 0
        while true {
            let count = Glibc.read(fd, &chunk, chunk.count)
            guard count > 0 else { return total }
            bytes += chunk.prefix(count)
            total += count
        }
    }

    @Test("a FIFO reader that stops reading: a signal ends the wait, no record is dropped, all reach a reader that resumes")
    func aSignalEndsTheWaitForAStalledReader() throws {
        let (path, reader, signal) = try stalledFIFO("stalled.btsnoop")
        defer { unlink(path); for fd in [reader] + signal { _ = Glibc.close(fd) } }
        let packets = samplePackets(5000)
        let recorder = try BtsnoopRecorder(path: path, wait: WriteWait(interrupt: signal[0]))
        // Far more than the FIFO holds, through a full buffer more than once: no write waits for room.
        for (packet, direction, time) in packets {
            try packet.withView { try recorder.record($0, direction: direction, timestamp: time) }
        }
        try recorder.flush()
        var taken: [UInt8] = []
        // The FIFO took at most what it holds.
        #expect(drain(reader, into: &taken) <= 4096)
        // The reader resumes: each flush writes what the FIFO takes, until nothing is left.
        repeat {
            try recorder.flush()
        } while drain(reader, into: &taken) > 0
        try recorder.close()
        drain(reader, into: &taken)
        var parser = BtsnoopReader()
        parser.append(taken)
        var records: [BtsnoopRecord] = []
        while let record = try parser.next() { records.append(record) }
        try parser.finish()
        #expect(records.map(\.packet) == packets.map(\.0))
    }

    @Test("a FIFO reader that never reads again: close fails with an I/O error naming the bytes not written")
    func closeReportsRecordsAStalledReaderNeverTook() throws {
        let (path, reader, signal) = try stalledFIFO("never.btsnoop")
        defer { unlink(path); for fd in [reader] + signal { _ = Glibc.close(fd) } }
        let recorder = try BtsnoopRecorder(path: path, wait: WriteWait(interrupt: signal[0]))
        for (packet, direction, time) in samplePackets(500) {
            try packet.withView { try recorder.record($0, direction: direction, timestamp: time) }
        }
        let error = try #require(throws: TransportError.self) { try recorder.close() }
        #expect(error.category == .io)
        #expect(error.description.hasPrefix("--record \(path): the reader stopped reading; the last "), "\(error)")
    }

    @Test func unwritableLocation() throws {
        let error = try #require(throws: TransportError.self) { try BtsnoopRecorder(path: "/nonexistent-dir/x.btsnoop") }
        #expect(error.category == .cannotCreate)
    }
}

@Suite struct LoopTests {
    @Test func signalWatcherSeesSIGTERM() throws {
        let watcher = try SignalWatcher()
        defer { watcher.close() }
        #expect(watcher.pendingSignal() == nil)
        raise(SIGTERM)
        let ready = try Poller().wait([watcher.descriptor], timeout: .seconds(2))
        #expect(ready == [watcher.descriptor])
        #expect(watcher.pendingSignal() == SIGTERM)
        #expect(watcher.pendingSignal() == nil)
    }

    @Test("SIGQUIT (Ctrl-\\) is watched like SIGTERM: read from the descriptor, so the run stops and cleans up")
    func signalWatcherSeesSIGQUIT() throws {
        // Raised only when watched: unwatched, it would end the test process.
        try #require(SignalWatcher.stopping.contains(SIGQUIT))
        let watcher = try SignalWatcher()
        defer { watcher.close() }
        raise(SIGQUIT)
        let ready = try Poller().wait([watcher.descriptor], timeout: .seconds(2))
        #expect(ready == [watcher.descriptor])
        #expect(watcher.pendingSignal() == SIGQUIT)
        #expect(watcher.received == SIGQUIT)
    }

    @Test func pollerTimesOutAndSeesData() throws {
        var fds: [Int32] = [0, 0]
        try syscall("pipe") { pipe(&fds) }
        defer {
            _ = Glibc.close(fds[0])
            _ = Glibc.close(fds[1])
        }
        let poller = Poller()
        let before = Clock.monotonic()
        #expect(try poller.wait([fds[0]], timeout: .milliseconds(50)).isEmpty)
        let waited = Clock.monotonic().value - before.value
        #expect(waited >= 50_000)
        // The unit mistakes a timeout conversion can make (microseconds taken for milliseconds, milliseconds
        // for seconds) wait a thousand times longer, 50 s; half of that is far beyond any scheduling delay.
        #expect(waited < 25_000_000)
        try writeAll(fds[1], [1])
        #expect(try poller.wait([fds[0]], timeout: .milliseconds(50)) == [fds[0]])
        #expect(try poller.wait([fds[0]], timeout: Micros(0)) == [fds[0]])
    }

    @Test func clocksAdvance() {
        let wall = Clock.now()
        #expect(wall > Timestamp(microseconds: 1_600_000_000_000_000))
        let a = Clock.monotonic()
        usleep(2000)
        #expect(Clock.monotonic().value - a.value >= 2000)
    }

    @Test func syscallWrapperNamesTheCall() {
        let error = #expect(throws: SystemError.self) { try syscall("close(-1)") { Glibc.close(-1) } }
        #expect(error == SystemError(call: "close(-1)", errno: EBADF))
        #expect(error?.description == "close(-1): Bad file descriptor")
    }
}

