import BeaconCore
@testable import BeaconMQTT
import Glibc
import Testing

/// The publisher's TCP connection, seen from a plain listener that stands in for the broker.
@Suite("the publisher's connection to the broker")
struct PublisherSocketTests {
    @Test("has Nagle's algorithm off (TCP_NODELAY), so a message is not held for the broker's delayed ACK of the one before")
    func sendsEachMessageAtOnce() throws {
        let listener = try LoopbackListener()
        defer { _ = Glibc.close(listener.fd) }
        let address = try BrokerAddress.parse("mqtt://127.0.0.1:\(listener.port)/test").get()
        let publisher = try MQTTPublisher(address: address, caFile: nil, warn: { _ in })
        defer { publisher.finish() }
        let (connection, clientPort) = try listener.acceptFirstBytes()
        defer { _ = Glibc.close(connection) }
        let client = try #require(Self.socket(boundTo: clientPort), "no socket of this process on port \(clientPort)")
        var flag: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        #expect(getsockopt(client, Int32(IPPROTO_TCP), TCP_NODELAY, &flag, &length) == 0)
        #expect(flag == 1)
    }

    /// This process's IPv4 socket bound to `port` on 127.0.0.1: the publisher's end of the connection.
    static func socket(boundTo port: UInt16) -> Int32? {
        for fd in Int32(0)..<Int32(4096) {
            var address = sockaddr_in()
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            let named = withUnsafeMutablePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) == 0 }
            }
            if named, address.sin_family == sa_family_t(AF_INET), UInt16(bigEndian: address.sin_port) == port { return fd }
        }
        return nil
    }
}

/// A TCP listener on a port the kernel picks on 127.0.0.1.
private struct LoopbackListener {
    let fd: Int32
    let port: UInt16

    init() throws {
        let fd = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let listening = fd >= 0 && withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, length) == 0 && listen(fd, 1) == 0 && getsockname(fd, $0, &length) == 0
            }
        }
        guard listening else {
            if fd >= 0 { _ = Glibc.close(fd) }
            throw ListenerError(call: "listen")
        }
        self.fd = fd
        port = UInt16(bigEndian: address.sin_port)
    }

    /// Accepts one connection and waits (at most 30 s, a hang guard) for its first bytes, the client's
    /// CONNECT: by then the client has set up its socket. The connection and the client's port.
    func acceptFirstBytes() throws -> (Int32, UInt16) {
        guard wait(fd) else { throw ListenerError(call: "poll (accept)") }
        var address = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let connection = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { accept(fd, $0, &length) }
        }
        guard connection >= 0 else { throw ListenerError(call: "accept") }
        var byte: UInt8 = 0
        guard wait(connection), recv(connection, &byte, 1, 0) == 1 else {
            _ = Glibc.close(connection)
            throw ListenerError(call: "recv")
        }
        return (connection, UInt16(bigEndian: address.sin_port))
    }

    private func wait(_ fd: Int32) -> Bool {
        var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        return poll(&entry, 1, 30_000) == 1
    }
}

private struct ListenerError: Error, CustomStringConvertible {
    let call: String
    var description: String { "\(call): \(String(cString: strerror(errno)))" }
}
