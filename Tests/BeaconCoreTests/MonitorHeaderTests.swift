import Testing
import BeaconCore

/// The kernel monitor channel's header (struct hci_mon_hdr: opcode, index, len, little-endian).
@Suite struct MonitorHeaderTests {
    static func hex(_ text: String) -> [UInt8] { Hex.decode(text.replacingOccurrences(of: " ", with: ""))! }

    @Test func decodesAndEncodesTheThreeFields() throws {
        // opcode 3 (event), index 1, length 5
        let bytes = Self.hex("0300 0100 0500")
        let header = try MonitorHeader.decode(bytes)
        #expect(header == MonitorHeader(opcode: .eventPacket, index: 1, length: 5))
        #expect(header.bytes == bytes)
        #expect(try MonitorHeader.decode(header.bytes) == header)
        let unknown = MonitorHeader(opcode: .unknown(0x0100), index: 0xFFFF, length: 0)
        #expect(unknown.bytes == Self.hex("0001 FFFF 0000"))
        #expect(try MonitorHeader.decode(unknown.bytes) == unknown)
        let short = try #require(throws: DecodeError.self) { try MonitorHeader.decode(Self.hex("0300 01")) }
        #expect(short.needed == 6 && short.available == 3)
    }

    @Test(arguments: [
        // Event on hci1: LE Meta, length 2 ... (payload 3E 01 02 at bytes 6..<9)
        ("0300 0100 0300 3E0102", UInt16(1), MonitorDatagram.packet(.event, .received, payload: 6..<9)),
        // Command sent on hci1 by someone (bluetoothd): LE Set Scan Enable
        ("0200 0100 0500 0C200201 00", 1, .packet(.command, .sent, payload: 6..<11)),
        // ACL RX
        ("0500 0100 0400 01200000", 1, .packet(.aclData, .received, payload: 6..<10)),
        // Another controller's event
        ("0300 0000 0300 3E0102", 1, .other),
        // Delete Index of hci1
        ("0100 0100 0000", 1, .controllerRemoved),
        // Delete Index of hci0, for a listener on hci1
        ("0100 0000 0000", 1, .other),
        // System Note (no controller)
        ("0C00 FFFF 0200 6869", 1, .other),
        // Management command seen on the channel (Control Command)
        ("1000 0100 0200 0000", 1, .other),
        // Bytes past the declared length are not part of the packet
        ("0300 0100 0200 0E04 FFFF", 1, .packet(.event, .received, payload: 6..<8)),
    ])
    func classifiesWhatTheChannelCarries(bytes: String, controller: UInt16, expected: MonitorDatagram) throws {
        #expect(try MonitorDatagram.classify(Self.hex(bytes), controller: controller) == expected)
    }

    @Test func aPayloadShorterThanDeclaredThrows() throws {
        let error = try #require(throws: DecodeError.self) { try MonitorDatagram.classify(Self.hex("0300 0100 0500 3E01"), controller: 1) }
        #expect(error.offset == 6 && error.needed == 5 && error.available == 2)
        #expect(error.field == "Event payload")
    }
}
