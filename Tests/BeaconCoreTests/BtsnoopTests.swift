import Testing
@testable import BeaconCore

/// 2023-11-14T22:13:20Z, 1_700_000_000_000_000 µs after the Unix epoch.
private let time = Timestamp(microseconds: 1_700_000_000_000_000)
/// The same instant as a btsnoop timestamp: 1_700_000_000_000_000 + 0x00DCDDB30F2F8000.
private let timeHex = "00E2E7D7274DC000"

private func bytes(_ hex: String) -> [UInt8] {
    guard let decoded = Hex.decode(hex) else {
        Issue.record("bad hex in test: \(hex)")
        return []
    }
    return decoded
}

/// Every record `next()` yields for `file`, fed in one piece, then `finish()`.
private func readAll(_ file: [UInt8], index: UInt16? = nil) throws -> (records: [BtsnoopRecord], reader: BtsnoopReader) {
    var reader = BtsnoopReader(indexFilter: index)
    reader.append(file)
    var records: [BtsnoopRecord] = []
    while let record = try reader.next() { records.append(record) }
    try reader.finish()
    return (records, reader)
}

private func decodeError(_ file: [UInt8], finish: Bool = true) -> DecodeError? {
    var reader = BtsnoopReader()
    reader.append(file)
    do {
        while try reader.next() != nil {}
        if finish { try reader.finish() }
        return nil
    } catch {
        return error
    }
}

private let h4Header = bytes("6274736E6F6F7000" + "00000001" + "000003EA")

@Suite struct BtsnoopHeaderTests {
    @Test(arguments: [
        (BtsnoopDatalink.hciUnencapsulated, "000003E9"),
        (.h4, "000003EA"),
        (.linuxMonitor, "000007D1"),
    ])
    func headerGolden(datalink: BtsnoopDatalink, datalinkHex: String) throws {
        let golden = bytes(
            "6274736E6F6F7000"  // magic "btsnoop\0"
            + "00000001"        // version 1, big-endian
            + datalinkHex       // datalink, big-endian
        )
        #expect(BtsnoopWriter(datalink: datalink).header == golden)
        #expect(try BtsnoopHeader.decode(golden[...]).datalink == datalink)
    }

    /// The constants other implementations use for the same scale: Wireshark's, Android's and
    /// bumble's Unix epoch, and BlueZ's 2000-01-01 (src/shared/btsnoop.c).
    @Test func epochsOfOtherImplementations() {
        #expect(Btsnoop.unixTimestamp(fromBtsnoop: 0x00DC_DDB3_0F2F_8000) == Timestamp(microseconds: 0))
        #expect(Btsnoop.unixTimestamp(fromBtsnoop: 0x00E0_3AB4_4A67_6000).iso8601 == "2000-01-01T00:00:00.000Z")
        #expect(Btsnoop.btsnoopTimestamp(from: Timestamp(microseconds: 946_684_800_000_000)) == 0x00E0_3AB4_4A67_6000)
        #expect(Btsnoop.btsnoopTimestamp(from: time) == 0x00E2_E7D7_274D_C000)
        #expect(Btsnoop.unixTimestamp(fromBtsnoop: 0x00E2_E7D7_274D_C001) == time + Micros(1))
    }

    @Test func monitorOpcodesMatchBlueZ() {
        let names: [(UInt16, BtsnoopMonitorOpcode)] = [
            (0, .newIndex), (1, .deleteIndex), (2, .commandPacket), (3, .eventPacket), (4, .aclTransmit),
            (5, .aclReceive), (6, .scoTransmit), (7, .scoReceive), (8, .openIndex), (9, .closeIndex),
            (10, .indexInfo), (11, .vendorDiagnostic), (12, .systemNote), (13, .userLogging), (14, .controlOpen),
            (15, .controlClose), (16, .controlCommand), (17, .controlEvent), (18, .isoTransmit), (19, .isoReceive),
            (20, .unknown(20)),
        ]
        for (raw, opcode) in names {
            #expect(BtsnoopMonitorOpcode(rawValue: raw) == opcode)
            #expect(opcode.rawValue == raw)
        }
    }
}

@Suite struct BtsnoopReaderTests {
    @Test func h4RecordGolden() throws {
        let packet = HCIPacket(kind: .event, payload: bytes("0E0401030C00"))
        let record = bytes(
            "00000007"      // original length 7
            + "00000007"    // included length 7
            + "00000003"    // flags: bit0 received, bit1 command/event
            + "00000000"    // drops
            + timeHex       // timestamp
            + "04"          // H4 indicator: event
            + "0E0401030C00"  // Command Complete, 1 credit, HCI_Reset (0x0C03), status 0
        )
        #expect(BtsnoopWriter().recordBytes(packet, direction: .received, timestamp: time) == record)

        let (records, _) = try readAll(h4Header + record)
        #expect(records == [BtsnoopRecord(packet: packet, direction: .received, timestamp: time, fileOffset: 16)])
    }

    @Test func h4CommandSentGolden() throws {
        let record = bytes(
            "00000004" + "00000004"  // lengths: indicator + 3
            + "00000002"             // flags: sent, command/event
            + "00000000" + timeHex
            + "01" + "030C00"        // command HCI_Reset, no parameters
        )
        let (records, _) = try readAll(h4Header + record)
        #expect(records.count == 1)
        #expect(records.first?.packet == HCIPacket(kind: .command, payload: bytes("030C00")))
        #expect(records.first?.direction == .sent)
    }

    @Test func hciUnencapsulatedGolden() throws {
        let file = bytes("6274736E6F6F7000" + "00000001" + "000003E9")  // datalink 1001
            + bytes("00000003" + "00000003" + "00000002" + "00000000" + timeHex + "030C00")  // sent command
            + bytes("00000006" + "00000006" + "00000003" + "00000000" + timeHex + "0E0401030C00")  // received event
            + bytes("00000005" + "00000005" + "00000001" + "00000000" + timeHex + "0100010099")  // received ACL
            + bytes("00000005" + "00000005" + "00000000" + "00000000" + timeHex + "0100010042")  // sent ACL
        let (records, _) = try readAll(file)
        #expect(records.map(\.packet) == [
            HCIPacket(kind: .command, payload: bytes("030C00")),
            HCIPacket(kind: .event, payload: bytes("0E0401030C00")),
            HCIPacket(kind: .aclData, payload: bytes("0100010099")),
            HCIPacket(kind: .aclData, payload: bytes("0100010042")),
        ])
        #expect(records.map(\.direction) == [.sent, .received, .received, .sent])
        #expect(records.map(\.fileOffset) == [16, 16 + 27, 16 + 27 + 30, 16 + 27 + 30 + 29])
        #expect(records.allSatisfy { $0.timestamp == time && $0.controllerIndex == nil })
    }

    /// A btmon capture with two controllers: New Index records, a system note, packets on both.
    private var monitorFile: [UInt8] {
        bytes("6274736E6F6F7000" + "00000001" + "000007D1")  // datalink 2001
            // New Index, index 0: type, bus, address, name "hci0"
            + bytes("00000010" + "00000010" + "00000000" + "00000000" + timeHex + "0003" + "01F4F3F2F1F0" + "6863693000000000")
            // New Index, index 1
            + bytes("00000010" + "00000010" + "00010000" + "00000000" + timeHex + "0003" + "02F4F3F2F1F0" + "6863693100000000")
            // System Note (opcode 12) for no index (0xFFFF): "hi\0"
            + bytes("00000003" + "00000003" + "FFFF000C" + "00000000" + timeHex + "686900")
            // Command on index 1 (opcode 2): HCI_Reset
            + bytes("00000003" + "00000003" + "00010002" + "00000000" + timeHex + "030C00")
            // Event on index 0 (opcode 3)
            + bytes("00000006" + "00000006" + "00000003" + "00000000" + timeHex + "0E0401030C00")
            // Event on index 1
            + bytes("00000006" + "00000006" + "00010003" + "00000000" + timeHex + "0E0401030C00")
            // ISO RX on index 1 (opcode 19)
            + bytes("00000004" + "00000004" + "00010013" + "00000000" + timeHex + "01000000")
    }

    @Test func linuxMonitorPicksFirstIndexCarryingPackets() throws {
        let (records, reader) = try readAll(monitorFile)
        #expect(records.map(\.packet.kind) == [.command, .event, .isoData])
        #expect(records.map(\.direction) == [.sent, .received, .received])
        #expect(records.allSatisfy { $0.controllerIndex == 1 })
        #expect(reader.selectedIndex == 1)
        #expect(reader.controllerIndexes == [1, 0])
        #expect(reader.skippedRecordCount == 4)  // two New Index, the note, index 0's event
    }

    @Test func linuxMonitorIndexFilter() throws {
        let (records, reader) = try readAll(monitorFile, index: 0)
        #expect(records.count == 1)
        #expect(records.first?.packet == HCIPacket(kind: .event, payload: bytes("0E0401030C00")))
        #expect(records.first?.controllerIndex == 0)
        #expect(reader.controllerIndexes == [1, 0])
    }

    @Test func rawRecordsExposeEverything() throws {
        var reader = BtsnoopReader()
        reader.append(monitorFile)
        var opcodes: [BtsnoopMonitorOpcode] = []
        while let raw = try reader.nextRawRecord() {
            opcodes.append(BtsnoopMonitorOpcode(rawValue: UInt16(truncatingIfNeeded: raw.flags)))
        }
        #expect(opcodes == [.newIndex, .newIndex, .systemNote, .commandPacket, .eventPacket, .eventPacket, .isoReceive])
    }

    @Test func incrementalFeedGivesTheSameRecords() throws {
        let file = monitorFile
        let whole = try readAll(file).records
        var reader = BtsnoopReader()
        var pieces: [BtsnoopRecord] = []
        for byte in file {
            reader.append([byte])
            while let record = try reader.next() { pieces.append(record) }
        }
        try reader.finish()
        #expect(pieces == whole)
        #expect(reader.fileOffset == file.count)
    }

    @Test(arguments: [BtsnoopDatalink.hciUnencapsulated, .h4, .linuxMonitor])
    func roundTrip(datalink: BtsnoopDatalink) throws {
        let packets: [(HCIPacket, PacketDirection, Timestamp)] = [
            (HCIPacket(kind: .command, payload: bytes("0C2002")), .sent, time),
            (HCIPacket(kind: .event, payload: bytes("3E0C02010000F4F3F2F1F0000000C5")), .received, time + .milliseconds(5)),
            (HCIPacket(kind: .aclData, payload: bytes("4020030001FF")), .received, time + .seconds(1)),
            // Timestamps going backwards are kept as they are.
            (HCIPacket(kind: .event, payload: bytes("0F0400010C20")), .received, time + .milliseconds(-3)),
        ]
        let writer = BtsnoopWriter(datalink: datalink)
        var file = writer.header
        for (packet, direction, timestamp) in packets {
            file += writer.recordBytes(packet, direction: direction, timestamp: timestamp, controllerIndex: 3)
        }
        let (records, _) = try readAll(file)
        #expect(records.count == packets.count)
        for (record, expected) in zip(records, packets) {
            #expect(record.packet == expected.0)
            #expect(record.direction == expected.1)
            #expect(record.timestamp == expected.2)
            #expect(record.controllerIndex == (datalink == .linuxMonitor ? 3 : nil))
        }
        var again = writer.header
        for record in records {
            again += writer.recordBytes(record.packet, direction: record.direction, timestamp: record.timestamp, controllerIndex: 3)
        }
        #expect(again == file)
    }

    @Test func snapLengthMarksTruncated() throws {
        let record = bytes("00000010" + "00000003" + "00000003" + "00000000" + timeHex + "043E0C")
        let (records, _) = try readAll(h4Header + record)
        #expect(records.first?.isTruncated == true)
        #expect(records.first?.packet.payload.elementsEqual([0x3E, 0x0C]) == true)
    }
}

@Suite struct BtsnoopErrorTests {
    @Test func badMagic() {
        let error = decodeError(bytes("6274736E6F6F7001" + "00000001" + "000003EA"))
        #expect(error?.offset == 0)
        #expect(error?.description.contains("not a btsnoop file") == true)
    }

    @Test("a file that is not btsnoop is told apart by its first bytes: pcap in either byte order and resolution, pcapng, btmon's text, other text",
          arguments: [
              ("D4C3B2A102000400", CaptureLookalike.pcap), ("A1B2C3D400020004", .pcap), ("4D3CB2A102000400", .pcap),
              ("A1B23C4D00020004", .pcap), ("0A0D0D0A1C000000", .pcapng),
              (Hex.encode(Array("Bluetooth monitor ver 5.66\n".utf8)), .btmonText), (Hex.encode(Array("Bluetooth\nmore".utf8)), .text),
              (Hex.encode(Array("{\"duration\": 60}\n".utf8)), .text), (Hex.encode(Array("Grüße\tzeit\r\n".utf8)), .text),
              ("6274736E6F6F7001", .unknown), ("0011223344556677", .unknown),
          ])
    func lookalikes(hex: String, kind: CaptureLookalike) {
        #expect(CaptureLookalike.of(bytes(hex)) == kind)
    }

    @Test("an empty file is called empty rather than a truncated header")
    func emptyFile() {
        #expect(decodeError([])?.reason == "empty file, a btsnoop header needs 16")
    }

    @Test func unsupportedVersion() {
        let error = decodeError(bytes("6274736E6F6F7000" + "00000002" + "000003EA"))
        #expect(error?.offset == 8)
        #expect(error?.description.contains("unsupported version 2") == true)
    }

    @Test func unknownDatalink() {
        let error = decodeError(bytes("6274736E6F6F7000" + "00000001" + "000003EB"))
        #expect(error?.offset == 12)
        #expect(error?.description.contains("unknown datalink 1003") == true)
    }

    @Test(arguments: [1, 10, 15])
    func truncatedHeader(length: Int) {
        let error = decodeError(Array(h4Header.prefix(length)))
        #expect(error?.offset == 0)
        #expect(error?.reason?.contains("truncated header") == true)
        #expect(error?.available == length)
    }

    @Test func shortGarbageIsBadMagic() {
        let error = decodeError(bytes("0011223344556677AABB"))
        #expect(error?.reason?.contains("not a btsnoop file") == true)
    }

    @Test func truncatedRecordAtEndOfFile() {
        let record = bytes("00000007" + "00000007" + "00000003" + "00000000" + timeHex + "040E0401")
        // Without finish the reader just waits for more bytes.
        #expect(decodeError(h4Header + record, finish: false) == nil)
        let error = decodeError(h4Header + record)
        #expect(error?.offset == 16)
        #expect(error?.needed == 24 + 7)
        #expect(error?.available == 24 + 4)
        #expect(error?.reason?.contains("truncated record at end of file") == true)
    }

    @Test func truncatedRecordHeaderAtEndOfFile() {
        let error = decodeError(h4Header + bytes("0000000700"))
        #expect(error?.offset == 16)
        #expect(error?.needed == 24)
    }

    @Test func includedLargerThanOriginal() {
        let record = bytes("00000006" + "00000007" + "00000003" + "00000000" + timeHex + "040E0401030C00")
        let error = decodeError(h4Header + record)
        #expect(error?.offset == 20)
        #expect(error?.reason == "included length 7 is larger than original length 6")
    }

    @Test func absurdLengthFailsBeforeTheDataArrives() {
        // included = original = 70000 (0x11170): no HCI packet is that long
        let record = bytes("00011170" + "00011170" + "00000003" + "00000000" + timeHex)
        let error = decodeError(h4Header + record, finish: false)
        #expect(error?.offset == 20)
        #expect(error?.reason?.contains("larger than any HCI packet") == true)
    }

    @Test func unknownH4Indicator() {
        let record = bytes("00000003" + "00000003" + "00000001" + "00000000" + timeHex + "070000")
        let error = decodeError(h4Header + record)
        #expect(error?.offset == 16 + 24)
        #expect(error?.reason == "unknown packet indicator 0x07")
    }

    @Test func emptyH4Record() {
        let record = bytes("00000000" + "00000000" + "00000001" + "00000000" + timeHex)
        let error = decodeError(h4Header + record)
        #expect(error?.offset == 16 + 24)
        #expect(error?.reason?.contains("no packet indicator") == true)
    }
}

extension BtsnoopWriter {
    /// One record as bytes (the product only ever appends records to a buffer).
    func recordBytes(_ packet: HCIPacket, direction: PacketDirection, timestamp: Timestamp,
                     controllerIndex: UInt16 = 0) -> [UInt8] {
        var out: [UInt8] = []
        appendRecord(packet, direction: direction, timestamp: timestamp, controllerIndex: controllerIndex, to: &out)
        return out
    }
}
