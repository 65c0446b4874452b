import BeaconCore
import Glibc
import Testing
@testable import BeaconTransport

@Suite struct StreamTransportTests {
    /// Feeds H4 bytes cut at awkward places and checks the packets, the send path and end of stream.
    func exercise(_ transport: PacketTransport, peer: Int32) throws {
        #expect(transport.isLive)
        #expect(transport.ownsController)
        #expect(transport.readDescriptor != nil)

        let stream = advertisingReportH4 + commandCompleteH4 + hexBytes("02" + "0100" + "0300" + "AABBCC")  // ACL, handle 1, 3 bytes
        // Split inside the indicator/header/payload of each packet. Each piece is received before the next
        // is written, so no read of the transport spans two pieces.
        let cuts = [1, 3, 9, 16, 18, 21, stream.count]
        var from = 0
        var packets: [(HCIPacket, PacketDirection, Timestamp?)] = []
        for cut in cuts {
            try writeAll(peer, Array(stream[from..<cut]))
            from = cut
            let (received, ended) = try receiveOnce(transport)
            #expect(!ended)
            packets += received
        }
        #expect(packets.map(\.0) == [
            HCIPacket(kind: .event, payload: Array(advertisingReportH4.dropFirst())),
            HCIPacket(kind: .event, payload: Array(commandCompleteH4.dropFirst())),
            HCIPacket(kind: .aclData, payload: hexBytes("01000300AABBCC")),
        ])
        #expect(packets.allSatisfy { $0.1 == .received && $0.2 == nil })

        // LE_Set_Scan_Enable(1, 0): exactly these H4 bytes reach the peer.
        try transport.send(HCIPacket(kind: .command, payload: hexBytes("0C20" + "02" + "0100")))
        #expect(try readExactly(peer, 6) == hexBytes("01" + "0C20" + "02" + "0100"))

        _ = Glibc.close(peer)
        let (rest, endedNow) = try receivePackets(transport, count: 1)
        #expect(rest.isEmpty)
        #expect(endedNow)
        transport.close()
    }

    @Test func tcp() throws {
        let listener = try Listener()
        let transport = try openTransport(.tcp(host: "127.0.0.1", port: listener.port))
        #expect(transport.description == "tcp:127.0.0.1:\(listener.port)")
        let peer = try listener.accept()
        try exercise(transport, peer: peer)
    }

    @Test func unixSocket() throws {
        let path = temporaryPath("h4.sock")
        defer { unlink(path) }
        let listener = try Listener(unixPath: path)
        let transport = try openTransport(.unix(path: path))
        #expect(transport.description == "unix:\(path)")
        let peer = try listener.accept()
        try exercise(transport, peer: peer)
    }

    @Test func unknownIndicatorIsBadStream() throws {
        let listener = try Listener()
        let transport = try openTransport(.tcp(host: "127.0.0.1", port: listener.port))
        let peer = try listener.accept()
        defer { _ = Glibc.close(peer) }
        try writeAll(peer, hexBytes("07000000"))
        let error = try #require(throws: TransportError.self) { try receivePackets(transport, count: 1) }
        #expect(error.category == .badStream)
        #expect(error.message.contains("unknown packet indicator 0x07"))
    }

    @Test func connectionRefused() throws {
        let port: UInt16
        do {
            let listener = try Listener()
            port = listener.port
        }  // closed: nothing listens on the port now
        let error = try #require(throws: TransportError.self) { try openTransport(.tcp(host: "127.0.0.1", port: port)) }
        #expect(error.category == .unavailable)
        #expect(error.message == "tcp:127.0.0.1:\(port): connection refused (is the H4 server listening?)")
        #expect(error.systemError?.errno == ECONNREFUSED)
    }

    @Test func missingUnixSocket() throws {
        let path = temporaryPath("absent.sock")
        let error = try #require(throws: TransportError.self) { try openTransport(.unix(path: path)) }
        #expect(error.category == .unavailable)
        #expect(error.message == "unix:\(path): no such file or directory")
    }

    @Test func unresolvableHost() throws {
        let error = try #require(throws: TransportError.self) { try openTransport(.tcp(host: "no-such-host.invalid", port: 1)) }
        #expect(error.category == .unavailable)
        #expect(error.message.contains("cannot resolve host 'no-such-host.invalid'"))
    }

    @Test func serialOverPseudoTerminal() throws {
        let terminal = try PseudoTerminal()
        let transport = try openTransport(.serial(device: terminal.devicePath, baud: 1000000, rtscts: false))
        #expect(transport.description == "serial:\(terminal.devicePath),1000000")
        #expect(transport is SerialTransport)

        // The first piece is read on its own: a packet cut inside its header.
        try writeAll(terminal.controller, Array(commandCompleteH4.prefix(3)))
        let (first, _) = try receiveOnce(transport)
        #expect(first.isEmpty)
        try writeAll(terminal.controller, Array(commandCompleteH4.dropFirst(3)) + advertisingReportH4)
        let (packets, _) = try receivePackets(transport, count: 2)
        #expect(packets.map(\.0) == [
            HCIPacket(kind: .event, payload: Array(commandCompleteH4.dropFirst())),
            HCIPacket(kind: .event, payload: Array(advertisingReportH4.dropFirst())),
        ])

        // Raw mode: 0x0A and 0x0D pass unchanged (no newline translation).
        try transport.send(HCIPacket(kind: .command, payload: hexBytes("0A0D" + "02" + "0D0A")))
        #expect(try readExactly(terminal.controller, 6) == hexBytes("01" + "0A0D" + "02" + "0D0A"))
        transport.close()
    }

    @Test func serialConfiguresTheLine() throws {
        let terminal = try PseudoTerminal()
        let transport = try SerialTransport(device: terminal.devicePath, baud: 115200, rtscts: true)
        defer { transport.close() }
        let fd = try #require(transport.readDescriptor)
        var settings = termios()
        try syscall("tcgetattr") { tcgetattr(fd, &settings) }
        #expect(cfgetospeed(&settings) == speed_t(B115200))
        #expect(settings.c_cflag & tcflag_t(CSIZE) == tcflag_t(CS8))
        #expect(settings.c_cflag & tcflag_t(PARENB) == 0)
        #expect(settings.c_cflag & tcflag_t(CSTOPB) == 0)
        #expect(settings.c_lflag & tcflag_t(ICANON | ECHO) == 0)
    }

    @Test func missingSerialDevice() throws {
        let error = try #require(throws: TransportError.self) {
            try openTransport(.serial(device: "/dev/beacon-no-such-tty", baud: 115200, rtscts: false))
        }
        #expect(error.category == .unavailable)
        #expect(error.message == "serial:/dev/beacon-no-such-tty,115200: no such file or directory")
    }

    @Test func baudTableCoversTheStandardRates() {
        for rate in TransportSpec.standardBaudRates {
            #expect(SerialTransport.speed(rate) != nil, "baud \(rate)")
        }
        #expect(SerialTransport.speed(115201) == nil)
    }
}
