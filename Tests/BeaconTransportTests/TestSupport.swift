@testable import BeaconCore
import CPseudoTerminal
import Glibc
import Testing
@testable import BeaconTransport

func hexBytes(_ hex: String) -> [UInt8] {
    guard let decoded = Hex.decode(hex) else {
        Issue.record("bad hex in test: \(hex)")
        return []
    }
    return decoded
}

/// A path for a temporary file or socket, unique per call.
func temporaryPath(_ name: String) -> String {
    "/tmp/beacon-test-\(getpid())-\(UInt32.random(in: 0...UInt32.max))-\(name)"
}

func writeAll(_ fd: Int32, _ bytes: [UInt8]) throws {
    var offset = 0
    while offset < bytes.count {
        offset += try syscall("write") {
            bytes.withUnsafeBytes { raw in
                let rest = UnsafeRawBufferPointer(rebasing: raw[offset...])
                return Glibc.write(fd, rest.baseAddress, rest.count)
            }
        }
    }
}

func writeFile(_ path: String, _ bytes: [UInt8]) throws {
    let fd = try syscall("open") { open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644) }
    defer { _ = Glibc.close(fd) }
    try writeAll(fd, bytes)
}

/// Reads exactly `count` bytes (poll-bounded so a bug cannot hang the test run).
func readExactly(_ fd: Int32, _ count: Int) throws -> [UInt8] {
    var out: [UInt8] = []
    let poller = Poller()
    while out.count < count {
        let ready = try poller.wait([fd], timeout: .seconds(5))
        try #require(!ready.isEmpty, "timed out waiting for \(count) bytes, got \(out.count)")
        var chunk = [UInt8](repeating: 0, count: count - out.count)
        let n = try syscall("read") { chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) } }
        try #require(n > 0, "unexpected end of stream")
        out += chunk.prefix(n)
    }
    return out
}

/// Waits (at most 5 s, a hang guard: callers have already written what it waits for) until the
/// transport's descriptor is readable, then reads once: the packets that one read completed.
func receiveOnce(_ transport: PacketTransport) throws -> (packets: [(HCIPacket, PacketDirection, Timestamp?)], ended: Bool) {
    if let fd = transport.readDescriptor {
        let ready = try Poller().wait([fd], timeout: .seconds(5))
        try #require(!ready.isEmpty, "timed out waiting for input")
    }
    let more = try transport.read()
    var packets: [(HCIPacket, PacketDirection, Timestamp?)] = []
    while let next = try transport.nextPacket() {
        packets.append((HCIPacket(kind: next.packet.kind, payload: Array(next.packet.payload)), next.direction, next.captureTime))
    }
    return (packets, !more)
}

/// Takes packets (reading when needed) until `count` arrived or the stream ended, never waiting more
/// than 5 s for input.
func receivePackets(_ transport: PacketTransport, count: Int) throws -> (packets: [(HCIPacket, PacketDirection, Timestamp?)], ended: Bool) {
    var packets: [(HCIPacket, PacketDirection, Timestamp?)] = []
    let poller = Poller()
    while true {
        while packets.count < count, let next = try transport.nextPacket() {
            // Copy the payload out of the transport's buffer, as a caller keeping packets must.
            packets.append((HCIPacket(kind: next.packet.kind, payload: Array(next.packet.payload)), next.direction, next.captureTime))
        }
        if packets.count >= count { return (packets, false) }
        if let fd = transport.readDescriptor {
            let ready = try poller.wait([fd], timeout: .seconds(5))
            try #require(!ready.isEmpty, "timed out after \(packets.count) of \(count) packets")
        }
        if try !transport.read() { return (packets, true) }
    }
}

/// A listening socket made by the test, standing in for an H4 server.
final class Listener {
    let fd: Int32
    let port: UInt16

    /// TCP on 127.0.0.1, port chosen by the kernel.
    init() throws {
        let fd = try syscall("socket") { socket(AF_INET, Int32(SOCK_STREAM.rawValue | SOCK_CLOEXEC.rawValue), 0) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        _ = try withUnsafePointer(to: &address) { pointer in
            try pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { addr in
                try syscall("bind") { bind(fd, addr, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
        }
        try syscall("listen") { listen(fd, 4) }
        var bound = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = try withUnsafeMutablePointer(to: &bound) { pointer in
            try pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { addr in
                try syscall("getsockname") { getsockname(fd, addr, &length) }
            }
        }
        self.fd = fd
        port = UInt16(bigEndian: bound.sin_port)
    }

    /// A unix stream socket at `path`.
    init(unixPath path: String) throws {
        let fd = try syscall("socket") { socket(AF_UNIX, Int32(SOCK_STREAM.rawValue | SOCK_CLOEXEC.rawValue), 0) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: Array(path.utf8)) }
        _ = try withUnsafePointer(to: &address) { pointer in
            try pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { addr in
                try syscall("bind") { bind(fd, addr, socklen_t(MemoryLayout<sockaddr_un>.size)) }
            }
        }
        try syscall("listen") { listen(fd, 4) }
        self.fd = fd
        port = 0
    }

    func accept() throws -> Int32 {
        try syscall("accept") { Glibc.accept(fd, nil, nil) }
    }

    deinit { _ = Glibc.close(fd) }
}

/// A pseudo-terminal pair: the transport opens `devicePath`, the test talks through `controller`.
final class PseudoTerminal {
    let controller: Int32
    let devicePath: String

    init() throws {
        let fd = try syscall("posix_openpt") { cpty_posix_openpt(O_RDWR | O_NOCTTY | O_CLOEXEC) }
        controller = fd
        try syscall("grantpt") { cpty_grantpt(fd) }
        try syscall("unlockpt") { cpty_unlockpt(fd) }
        var name = [CChar](repeating: 0, count: 128)
        let code = cpty_ptsname_r(fd, &name, name.count)
        guard code == 0 else { throw SystemError(call: "ptsname_r", errno: code) }
        devicePath = String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    deinit { _ = Glibc.close(controller) }
}

/// The H4 bytes of an LE Advertising Report event with an iBeacon, then a Command Complete.
let advertisingReportH4 = hexBytes(
    "04"        // indicator: event
    + "3E"      // LE Meta
    + "0C"      // parameter length 12
    + "02"      // subevent LE Advertising Report
    + "01"      // one report
    + "00"      // ADV_IND
    + "00"      // public address
    + "01F4F3F2F1F0"  // address F0:F1:F2:F3:F4:01
    + "00"      // data length 0
    + "C5"      // RSSI -59
)
let commandCompleteH4 = hexBytes("04" + "0E" + "04" + "01" + "030C" + "00")  // Command Complete, HCI_Reset, success
