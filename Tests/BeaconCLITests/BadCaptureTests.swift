import BeaconCore
import BeaconSimulation
import Foundation
import Testing

/// Captures that are broken in one way each, replayed through `beacon range`: the exit code, the
/// `Error:` line naming the problem and its offset, and the lines printed before the bad record.
@Suite("beacon range over bad capture files")
struct BadCaptureTests {
    static let uuid = BeaconUUID("E2C56DB5-DFFB-48D2-B060-D0F5A71096E0")!
    static let start = Timestamp(microseconds: 1_800_000_000_000_000)

    /// 3 s of one beacon advertising every 100 ms: a state line, an enter line and two range lines.
    static func goodRecords(datalink: BtsnoopDatalink = .h4, minor: UInt16 = 0, controllerIndex: UInt16 = 0,
                            count: Int = 30, timeOrder: (Int) -> Int = { $0 }) -> [UInt8] {
        let writer = BtsnoopWriter(datalink: datalink)
        let beacon = SimulatedAir.beacon(Int(minor), uuid: uuid)
        var out: [UInt8] = []
        for n in 0..<count {
            let time = start + Micros.milliseconds(Int64(timeOrder(n)) * 100)
            writer.appendRecord(SimulatedAir.extendedReport(beacon, rssi: -60), direction: .received,
                                timestamp: time, controllerIndex: controllerIndex, to: &out)
        }
        return out
    }

    static let goodH4 = BtsnoopWriter(datalink: .h4).header + goodRecords()
    /// Where the bad tail starts in captures built as `goodH4 + tail`.
    static let tailOffset = goodH4.count

    /// A record header (big-endian): original length, included length, flags, drops, timestamp.
    static func recordHeader(original: UInt32, included: UInt32, flags: UInt32 = 1) -> [UInt8] {
        var w = ByteWriter()
        w.u32BigEndian(original)
        w.u32BigEndian(included)
        w.u32BigEndian(flags)
        w.u32BigEndian(0)
        let raw = UInt64(bitPattern: Btsnoop.btsnoopTimestamp(from: start + Micros.seconds(4)))
        w.u32BigEndian(UInt32(truncatingIfNeeded: raw >> 32))
        w.u32BigEndian(UInt32(truncatingIfNeeded: raw))
        return w.bytes
    }

    /// 0.0 to 1.9 s, then 1.0 to 1.9 s again (the recording machine's clock stepped back), then 2.0 to 2.9 s.
    static let backwards = BtsnoopWriter(datalink: .h4).header + goodRecords(count: 40, timeOrder: { $0 < 20 ? $0 : $0 - 10 })

    struct Case: CustomTestStringConvertible, Sendable {
        let name: String
        let bytes: [UInt8]?
        let exitCode: Int32
        /// Text the `Error:` line must contain (nil: no error line at all).
        let error: String?
        /// Lines expected on stdout: those of the clean prefix replayed alone.
        let stdoutFrom: [UInt8]?
        /// A capture cut short at its end: the clean prefix's lines all print, the partial interval's
        /// included, before the error. A bad record elsewhere ends the replay without that last line.
        var endsCutShort = false
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(name: "missing file", bytes: nil, exitCode: 66, error: "no such file or directory", stdoutFrom: nil),
        Case(name: "empty file", bytes: [], exitCode: 65,
             error: "btsnoop header at offset 0: empty file, a btsnoop header needs 16", stdoutFrom: nil),
        Case(name: "text", bytes: Array("hello there, not a capture\n".utf8), exitCode: 65,
             error: "btsnoop magic at offset 0: not a btsnoop file: it is text; record a capture with btmon -w FILE or beacon range --record FILE",
             stdoutFrom: nil),
        Case(name: "btmon's text output", bytes: Array("Bluetooth monitor ver 5.66\n= Note: Linux version\n".utf8), exitCode: 65,
             error: "btsnoop magic at offset 0: not a btsnoop file: it is btmon's text output, which keeps no packets; record a capture with btmon -w FILE",
             stdoutFrom: nil),
        Case(name: "pcap", bytes: [0xD4, 0xC3, 0xB2, 0xA1, 2, 0, 4, 0] + [UInt8](repeating: 0, count: 16), exitCode: 65,
             error: "btsnoop magic at offset 0: not a btsnoop file: it is a pcap capture; convert it with tshark -r FILE -F btsnoop -w FILE.btsnoop",
             stdoutFrom: nil),
        Case(name: "pcapng", bytes: [0x0A, 0x0D, 0x0D, 0x0A, 0x1C, 0, 0, 0, 0x4D, 0x3C, 0x2B, 0x1A] + [UInt8](repeating: 0, count: 16), exitCode: 65,
             error: "btsnoop magic at offset 0: not a btsnoop file: it is a pcapng capture; convert it with tshark -r FILE -F btsnoop -w FILE.btsnoop",
             stdoutFrom: nil),
        Case(name: "wrong magic", bytes: Array("snoop\0\0\0".utf8) + [0, 0, 0, 1, 0, 0, 0x03, 0xEA], exitCode: 65,
             error: "btsnoop magic at offset 0: not a btsnoop file (magic is 736E6F6F70000000", stdoutFrom: nil),
        Case(name: "unsupported version", bytes: Btsnoop.magic + [0, 0, 0, 2, 0, 0, 0x03, 0xEA], exitCode: 65,
             error: "btsnoop version at offset 8: unsupported version 2", stdoutFrom: nil),
        Case(name: "unknown datalink", bytes: Btsnoop.magic + [0, 0, 0, 1, 0, 0, 0x03, 0xEB] + goodRecords(), exitCode: 65,
             error: "btsnoop datalink at offset 12: unknown datalink 1003", stdoutFrom: nil),
        Case(name: "truncated header", bytes: Array(goodH4.prefix(10)), exitCode: 65,
             error: "btsnoop header at offset 0: truncated header: the file has 10 bytes", stdoutFrom: nil),
        // 24-byte header and 59 bytes of data (H4 indicator and a 58-byte extended report event), cut after 40.
        Case(name: "truncated record", bytes: goodH4 + goodRecords().prefix(40), exitCode: 65,
             error: "btsnoop record at offset \(tailOffset): truncated record at end of file: needs 83 bytes, 40 present",
             stdoutFrom: goodH4, endsCutShort: true),
        Case(name: "truncated record header", bytes: goodH4 + goodRecords().prefix(10), exitCode: 65,
             error: "btsnoop record at offset \(tailOffset): truncated record at end of file: needs 24 bytes, 10 present",
             stdoutFrom: goodH4, endsCutShort: true),
        Case(name: "absurd included length", bytes: goodH4 + recordHeader(original: 0x7FFF_FFFF, included: 0x7FFF_FFFF) + [4, 0x3E],
             exitCode: 65,
             error: "btsnoop record included length at offset \(tailOffset + 4): included length 2147483647 is larger than any HCI packet (65540)",
             stdoutFrom: goodH4),
        Case(name: "included length above original", bytes: goodH4 + recordHeader(original: 2, included: 3) + [4, 0x3E, 0],
             exitCode: 65,
             error: "btsnoop record included length at offset \(tailOffset + 4): included length 3 is larger than original length 2",
             stdoutFrom: goodH4),
        Case(name: "H4 record with an unknown indicator", bytes: goodH4 + recordHeader(original: 3, included: 3) + [0x07, 0x3E, 0x00],
             exitCode: 65,
             error: "H4 packet indicator at offset \(tailOffset + 24): unknown packet indicator 0x07", stdoutFrom: goodH4),
        Case(name: "empty H4 record", bytes: goodH4 + recordHeader(original: 0, included: 0), exitCode: 65,
             error: "H4 packet indicator at offset \(tailOffset + 24): empty H4 record", stdoutFrom: goodH4),
    ]

    @Test("exit code, Error line with the offset, and the lines before the bad record (all of them, when the capture ends cut short)",
          arguments: cases)
    func badCapture(_ c: Case) throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("capture.btsnoop")
        if let bytes = c.bytes { try Data(bytes).write(to: URL(fileURLWithPath: path)) }
        let io = CapturedConsole()
        let code = io.run(["range", "--hci", "btsnoop:\(path)", "--uuid", Self.uuid.description])
        #expect(code == c.exitCode, "\(io.stderr)")
        if let error = c.error {
            #expect(io.stderr.count == 1, "\(io.stderr)")
            let line = io.stderr.first ?? ""
            #expect(line.hasPrefix("Error: "), "\(line)")
            #expect(line.contains(error), "\(line)")
            if c.bytes != nil { #expect(line.contains("btsnoop:\(path): "), "\(line)") }
        } else {
            #expect(io.stderr.isEmpty, "\(io.stderr)")
        }
        if let prefix = c.stdoutFrom {
            let clean = directory.path("clean.btsnoop")
            try Data(prefix).write(to: URL(fileURLWithPath: clean))
            let reference = CapturedConsole()
            #expect(reference.run(["range", "--hci", "btsnoop:\(clean)", "--uuid", Self.uuid.description]) == 0)
            // The clean capture ends with the partial interval's line.
            #expect(reference.stdout.count == 6, "\(reference.stdout)")
            #expect(reference.stdout.last?.hasSuffix(#","partial":true}"#) == true, "\(reference.stdout)")
            #expect(io.stdout == (c.endsCutShort ? reference.stdout : Array(reference.stdout.dropLast())))
        } else if c.exitCode != 0 {
            #expect(io.stdout.isEmpty, "\(io.stdout)")
        }
    }

    @Test("a capture path too long for the kernel is input that cannot be opened: exit 66")
    func pathTooLong() {
        let path = "/" + String(repeating: "a", count: 5000)
        let io = CapturedConsole()
        #expect(io.run(["range", "--hci", "btsnoop:\(path)", "--uuid", Self.uuid.description]) == 66)
        #expect(io.stderr.count == 1 && io.stderr.first?.contains("File name too long") == true, "\(io.stderr)")
    }

    @Test("a capture whose clock steps back: one warning, and ranging carries on as if no time had passed")
    func timestampsGoingBackwards() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("backwards.btsnoop")
        try Data(Self.backwards).write(to: URL(fileURLWithPath: path))
        let io = CapturedConsole()
        #expect(io.run(["range", "--hci", "btsnoop:\(path)", "--uuid", Self.uuid.description]) == 0)
        #expect(io.stderr == ["Warning: the capture's clock steps back 0.900s at 2027-01-15T08:00:01.000Z; ranging carries on as if no time had passed"])
        // Records at 0.0...1.9 s, then (schedule resumed a microsecond after 1.9 s) 1.0...1.9 s and 2.0...2.9 s
        // again: ticks every second of schedule time, printed 0.9 s and a microsecond earlier after the step;
        // the last interval is partial.
        let summary = io.stdout.map { line in
            let time = line.firstMatch(of: /"time":"[^"]*T08:00:(\d\d\.\d\d\d)Z"/).map { String($0.1) } ?? "?"
            let samples = line.firstMatch(of: /"samples":(\d+)/).map { String($0.1) } ?? "-"
            let event = line.firstMatch(of: /"event":"(\w+)"/).map { String($0.1) } ?? "?"
            return "\(event) \(time) \(samples)\(line.contains("partial") ? " partial" : "")"
        }
        #expect(summary == ["state 00.000 -", "enter 00.000 -", "state 00.000 -", "range 01.000 10", "range 01.099 11", "range 02.099 10",
                            "range 02.900 9 partial"])
    }

    @Test("record times at the end of the 64-bit range are clamped, and the replay ends", .timeLimit(.minutes(1)))
    func timesAtTheEndOfTime() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("far.btsnoop")
        let writer = BtsnoopWriter(datalink: .h4)
        var file = writer.header
        let report = SimulatedAir.extendedReport(SimulatedAir.beacon(0, uuid: Self.uuid), rssi: -60)
        for time in [Int64.max - 500_000, Int64.max, Int64.min, 0] {
            writer.appendRecord(report, direction: .received, timestamp: Timestamp(microseconds: time), to: &file)
        }
        try Data(file).write(to: URL(fileURLWithPath: path))
        let io = CapturedConsole()
        #expect(io.run(["range", "--hci", "btsnoop:\(path)", "--uuid", Self.uuid.description, "--interval", "10ms"]) == 0)
        // Clamped to the end of the supported range, then a step back to its start and one forward to 1970;
        // times past 9999 are printed as 9999's last millisecond, said once.
        #expect(io.stderr.count == 3, "\(io.stderr)")
        #expect(io.stderr.filter { $0.hasPrefix("Warning: the capture's clock steps ") }.count == 2, "\(io.stderr)")
        // The warning quotes the capture's own time, not the end of the supported range it was clamped to.
        #expect(io.stderr.filter { $0.hasPrefix("Warning: output times leave the years 0000 to 9999 (first \(Int64.max - 500_000) µs from 1970)") }
            .count == 1, "\(io.stderr)")
        // Every time printed fits the schema's four-digit year.
        for line in io.stdout {
            for match in line.matches(of: /"(time|lastSeen)":"([^"]*)"/) {
                #expect(match.2.wholeMatch(of: /[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}\.[0-9]{3}Z/) != nil, "\(line)")
            }
        }
        let end = Timestamp.supportedRange.upperBound.iso8601
        #expect(io.stdout.count == 4, "\(io.stdout)")
        #expect(io.stdout.prefix(3).allSatisfy { $0.contains("\"time\":\"\(end)\"") }, "\(io.stdout)")
        // The four sightings, printed at the capture's last time.
        #expect(io.stdout.last?.contains(#""time":"1970-01-01T00:00:00.000Z""#) == true, "\(io.stdout)")
        #expect(io.stdout.last?.contains(#""samples":4,"lastSeen":"1970-01-01T00:00:00.000Z"}],"partial":true}"#) == true, "\(io.stdout)")
    }

    @Test("a capture from before the year 0000: times printed as 0000-01-01, valid against the schema, said once on stderr")
    func timesBeforeYearZero() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("ancient.btsnoop")
        let writer = BtsnoopWriter(datalink: .h4)
        var file = writer.header
        let report = SimulatedAir.extendedReport(SimulatedAir.beacon(0, uuid: Self.uuid), rssi: -60)
        for n in 0..<30 {
            writer.appendRecord(report, direction: .received, timestamp: Timestamp(microseconds: -70_000_000_000_000_000 + Int64(n) * 100_000),
                                to: &file)
        }
        try Data(file).write(to: URL(fileURLWithPath: path))
        let io = CapturedConsole()
        #expect(io.run(["range", "--hci", "btsnoop:\(path)", "--uuid", Self.uuid.description]) == 0)
        #expect(io.stderr.count == 1 && io.stderr.first?.hasPrefix("Warning: output times leave the years 0000 to 9999") == true, "\(io.stderr)")
        #expect(!io.stdout.isEmpty)
        for line in io.stdout {
            for match in line.matches(of: /"(time|lastSeen)":"([^"]*)"/) {
                #expect(match.2 == "0000-01-01T00:00:00.000Z", "\(line)")
            }
        }
    }

    @Test("scan over a capture whose last record is cut short: every line of what was read, the partial one last, then the error and exit 65")
    func scanOfACaptureCutShort() throws {
        let directory = try TemporaryDirectory()
        let clean = directory.path("clean.btsnoop")
        let cut = directory.path("cut.btsnoop")
        try Data(Self.goodH4).write(to: URL(fileURLWithPath: clean))
        try Data(Self.goodH4 + Self.goodRecords().prefix(40)).write(to: URL(fileURLWithPath: cut))
        let reference = CapturedConsole()
        #expect(reference.run(["scan", "--hci", "btsnoop:\(clean)"]) == 0)
        #expect(reference.stdout.count == 3 && reference.stdout.last?.contains(#""partial":true"#) == true, "\(reference.stdout)")
        let io = CapturedConsole()
        #expect(io.run(["scan", "--hci", "btsnoop:\(cut)"]) == 65)
        #expect(io.stdout == reference.stdout)
        #expect(io.stderr == ["Error: btsnoop:\(cut): btsnoop record at offset \(Self.tailOffset): truncated record at end of file: needs 83 bytes, 40 present"],
                "\(io.stderr)")
    }

    @Test("a Linux monitor capture cycling through 3000 controller indexes: every index seen once, in order, and a warning of bounded length")
    func manyControllers() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("many.btsnoop")
        let writer = BtsnoopWriter(datalink: .linuxMonitor)
        var file = writer.header
        let report = SimulatedAir.extendedReport(SimulatedAir.beacon(0, uuid: Self.uuid), rssi: -60)
        // Twice round 3000 indexes: the second round adds no names.
        for n in 0..<6000 {
            writer.appendRecord(report, direction: .received, timestamp: Self.start + Micros.milliseconds(Int64(n)),
                                controllerIndex: UInt16(n % 3000), to: &file)
        }
        var reader = BtsnoopReader()
        reader.append(file)
        while try reader.next() != nil {}
        #expect(reader.controllerIndexes == (0..<3000).map { UInt16($0) })
        try Data(file).write(to: URL(fileURLWithPath: path))
        let io = CapturedConsole()
        #expect(io.run(["range", "--hci", "btsnoop:\(path)", "--uuid", Self.uuid.description]) == 0)
        #expect(io.stderr == ["Warning: the capture has controllers hci0, hci1, hci2, hci3, hci4, hci5, hci6, hci7 and 2992 more; "
                              + "replayed hci0 (choose another with --index)"])
    }

    @Test("a Linux monitor capture with two controllers: the first by default, the other with --index, and a warning naming them")
    func twoControllers() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("monitor.btsnoop")
        // Controller 0 hears minor 0 and controller 1 hears minor 7, interleaved record by record.
        let zero = Self.goodRecords(datalink: .linuxMonitor, minor: 0, controllerIndex: 0)
        let one = Self.goodRecords(datalink: .linuxMonitor, minor: 7, controllerIndex: 1)
        let recordLength = zero.count / 30
        var file = BtsnoopWriter(datalink: .linuxMonitor).header
        for n in 0..<30 {
            file += zero[(n * recordLength)..<((n + 1) * recordLength)]
            file += one[(n * recordLength)..<((n + 1) * recordLength)]
        }
        try Data(file).write(to: URL(fileURLWithPath: path))

        for (arguments, minor, replayed) in [([String](), 0, 0), (["--index", "0"], 0, 0), (["--index", "1"], 7, 1)] {
            let io = CapturedConsole()
            #expect(io.run(["range", "--hci", "btsnoop:\(path)", "--uuid", Self.uuid.description] + arguments) == 0)
            #expect(io.stderr == ["Warning: the capture has controllers hci0, hci1; replayed hci\(replayed) (choose another with --index)"])
            let ranges = io.stdout.filter { $0.contains("\"event\":\"range\"") }
            #expect(ranges.count == 3 && ranges.last?.contains("\"partial\":true") == true, "\(io.stdout)")
            #expect(ranges.allSatisfy { $0.contains("\"minor\":\(minor),") }, "\(arguments): \(ranges)")
        }

        let io = CapturedConsole()
        #expect(io.run(["range", "--hci", "btsnoop:\(path)", "--uuid", Self.uuid.description, "--index", "2"]) == 0)
        #expect(io.stdout.isEmpty, "\(io.stdout)")
        #expect(io.stderr == ["Warning: the capture has no packets of controller hci2; it has hci0, hci1"])
    }
}

/// A directory under the system's temporary directory, removed when the value goes away.
final class TemporaryDirectory {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("beacon-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    func path(_ name: String) -> String { url.appendingPathComponent(name).path }

    deinit { try? FileManager.default.removeItem(at: url) }
}
