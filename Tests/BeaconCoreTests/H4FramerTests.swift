import Testing
@testable import BeaconCore

@Suite("H4 framer")
struct H4FramerTests {
    private func bytes(_ hex: String) -> [UInt8] {
        guard let decoded = Hex.decode(hex) else {
            Issue.record("bad hex in test: \(hex)")
            return []
        }
        return decoded
    }

    /// Every packet the framer cuts from `stream` fed in one piece, payloads copied.
    private func frame(_ stream: [UInt8]) throws -> [HCIPacket] {
        var framer = H4Framer()
        framer.append(stream)
        var packets: [HCIPacket] = []
        while let packet = try framer.nextView() { packets.append(HCIPacket(kind: packet.kind, payload: Array(packet.payload))) }
        return packets
    }

    @Test("one packet of each kind, golden bytes")
    func eachKind() throws {
        let stream = bytes(
            "01" + "030C" + "00"                      // command: HCI_Reset, no parameters
            + "04" + "0E" + "04" + "01030C00"         // event: Command Complete, 4 parameter bytes
            + "02" + "0120" + "0300" + "AABBCC"       // ACL: handle 0x001 flags 0x2, 16-bit length 3
            + "03" + "0100" + "02" + "DDEE"           // SCO: handle 0x001, 8-bit length 2
            + "05" + "0100" + "0100" + "FF"           // ISO: handle 0x001, 14-bit length 1
        )
        let packets = try frame(stream)
        #expect(packets.map(\.kind) == [.command, .event, .aclData, .scoData, .isoData])
        #expect(packets.map { Array($0.payload) } == [
            bytes("030C00"), bytes("0E0401030C00"), bytes("01200300AABBCC"), bytes("010002DDEE"), bytes("01000100FF"),
        ])
        // Re-encoding gives the stream back.
        #expect(packets.flatMap(\.h4Bytes) == stream)
    }

    @Test("ACL lengths use all 16 bits")
    func aclLengthIsSixteenBits() throws {
        let payload = [UInt8](repeating: 0x5A, count: 0x0102)
        let stream = bytes("02" + "0100" + "0201") + payload
        let packets = try frame(stream)
        #expect(packets.count == 1)
        #expect(packets.first?.payload.count == 4 + 0x0102)
        // One byte short is no packet yet.
        #expect(try frame(Array(stream.dropLast())).isEmpty)
    }

    @Test("ISO lengths use the low 14 bits: the two reserved bits are not part of the length")
    func isoLengthIsFourteenBits() throws {
        // Length field 0xC003: reserved bits set, data length 3.
        let stream = bytes("05" + "0100" + "03C0" + "010203" + "04" + "1001" + "01")
        let packets = try frame(stream)
        #expect(packets.map(\.kind) == [.isoData, .event])
        #expect(packets.first.map { Array($0.payload) } == bytes("010003C0010203"))
        // 0x3FFF is the largest ISO length.
        let longest = bytes("05" + "0100" + "FFFF") + [UInt8](repeating: 0, count: 0x3FFF)
        #expect(try frame(longest).first?.payload.count == 4 + 0x3FFF)
    }

    @Test("a packet split anywhere comes out once, when its last byte arrives")
    func byteByByte() throws {
        let stream = bytes("04" + "0E" + "04" + "01030C00" + "02" + "0100" + "0200" + "AABB")
        var framer = H4Framer()
        var completedAt: [Int] = []
        for (i, byte) in stream.enumerated() {
            framer.append([byte])
            while try framer.nextView() != nil { completedAt.append(i) }
        }
        #expect(completedAt == [6, 13])
        #expect(framer.pendingByteCount == 0)
    }

    @Test("an unknown indicator throws: the stream cannot be resynchronised")
    func unknownIndicator() throws {
        var framer = H4Framer()
        framer.append(bytes("04" + "0E" + "00" + "07" + "0102"))
        #expect(try framer.nextView()?.kind == .event)
        let error = try #require(throws: DecodeError.self) { try framer.nextView() }
        #expect(error.reason == "unknown packet indicator 0x07")
    }

    @Test("a long stream of small appends frames every packet")
    func longStream() throws {
        var framer = H4Framer()
        let packet = bytes("04" + "3E" + "03" + "020000")
        for round in 0..<20_000 {
            framer.append(packet)
            let next = try #require(try framer.nextView())
            #expect(next.payload.count == 5, "round \(round)")
        }
        #expect(framer.pendingByteCount == 0)
        #expect(try framer.nextView() == nil)
    }
}
