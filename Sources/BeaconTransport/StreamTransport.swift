import BeaconCore
import Glibc

/// HCI over an H4 byte stream on one descriptor: a TCP or unix stream socket, or (through
/// `SerialTransport`) a serial line. Reads fill a large buffer and the H4 framer cuts packets out of it.
public class StreamTransport: PacketTransport {
    public var readDescriptor: Int32? { descriptor >= 0 ? descriptor : nil }
    public var isLive: Bool { true }
    /// The far end is a controller of its own, so resetting it disturbs nobody else.
    public var ownsController: Bool { true }
    public let description: String

    private var descriptor: Int32
    /// Sockets are written with send(MSG_NOSIGNAL) so a closed peer is EPIPE, never SIGPIPE.
    private let isSocket: Bool
    /// Read from once per packet, only by this transport's methods, and the framer calls nothing back:
    /// the runtime's exclusivity check would cost more than taking the packet.
    @exclusivity(unchecked) private var framer = H4Framer()
    /// Bytes asked for by each read(2), straight into the framer's buffer.
    static let readSize = 64 * 1024

    /// Takes ownership of `descriptor`, an open stream.
    public init(descriptor: Int32, description: String, isSocket: Bool) {
        self.descriptor = descriptor
        self.description = description
        self.isSocket = isSocket
    }

    deinit { closeDescriptor(descriptor) }

    /// Connects to `host:port`, trying every address getaddrinfo returns.
    public static func connectTCP(host: String, port: UInt16) throws(TransportError) -> StreamTransport {
        let name = TransportSpec.tcp(host: host, port: port).description
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_flags = AI_ADDRCONFIG | AI_NUMERICSERV
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &list)
        guard status == 0 else {
            let reason = status == EAI_SYSTEM ? String(cString: strerror(errno)) : String(cString: gai_strerror(status))
            throw TransportError(.unavailable, "\(name): cannot resolve host '\(host)': \(reason)")
        }
        defer { freeaddrinfo(list) }
        var lastError = SystemError(call: "getaddrinfo", errno: EADDRNOTAVAIL)
        var entry = list
        while let info = entry?.pointee {
            entry = info.ai_next
            do throws(SystemError) {
                let fd = try syscall("socket") { socket(info.ai_family, info.ai_socktype | Int32(SOCK_CLOEXEC.rawValue), info.ai_protocol) }
                do throws(SystemError) {
                    try syscall("connect") { connect(fd, info.ai_addr, info.ai_addrlen) }
                } catch {
                    closeDescriptor(fd)
                    throw error
                }
                // Commands are tiny and latency matters more than packing them.
                var on: Int32 = 1
                try syscall("setsockopt(TCP_NODELAY)") {
                    setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &on, socklen_t(MemoryLayout<Int32>.size))
                }
                return StreamTransport(descriptor: fd, description: name, isSocket: true)
            } catch {
                lastError = error
            }
        }
        throw TransportError.from(lastError, transport: name)
    }

    /// Connects to the unix stream socket at `path`.
    public static func connectUnix(path: String) throws(TransportError) -> StreamTransport {
        let name = TransportSpec.unix(path: path).description
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let pathBytes = Array(path.utf8)
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard pathBytes.count < capacity else {
            throw TransportError(.unavailable, "\(name): path is \(pathBytes.count) bytes, unix sockets allow \(capacity - 1)")
        }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: pathBytes)
        }
        let fd: Int32
        do throws(SystemError) {
            fd = try syscall("socket") { socket(AF_UNIX, Int32(SOCK_STREAM.rawValue | SOCK_CLOEXEC.rawValue), 0) }
        } catch {
            throw TransportError.from(error, transport: name)
        }
        do throws(SystemError) {
            try syscall("connect") {
                withUnsafePointer(to: &address) {
                    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                        connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
                    }
                }
            }
        } catch {
            closeDescriptor(fd)
            throw TransportError.from(error, transport: name)
        }
        return StreamTransport(descriptor: fd, description: name, isSocket: true)
    }

    public func read() throws(TransportError) -> Bool {
        guard descriptor >= 0 else { return false }
        let count: Int
        let fd = descriptor
        do throws(SystemError) {
            count = try syscall("read") { framer.fill(upTo: Self.readSize) { room in Glibc.read(fd, room.baseAddress, room.count) } }
        } catch {
            throw TransportError.from(error, transport: description)
        }
        return count > 0
    }

    public func nextPacket() throws(TransportError) -> TransportPacket? {
        do throws(DecodeError) {
            return try framer.nextView().map { TransportPacket($0, .received) }
        } catch {
            throw notH4(error)
        }
    }

    /// The packets framed so far, straight from the framer.
    public func forEachPacket(_ body: (TransportPacket) -> Bool) throws(TransportError) {
        do throws(DecodeError) {
            try framer.forEachReceived(body)
        } catch {
            throw notH4(error)
        }
    }

    private func notH4(_ error: DecodeError) -> TransportError {
        TransportError(.badStream, "\(description): not an H4 stream: \(error.reason ?? error.description)")
    }

    public func send(_ packet: HCIPacket) throws(TransportError) {
        guard descriptor >= 0 else { throw TransportError(.io, "\(description): send after close") }
        let bytes = packet.h4Bytes
        do throws(SystemError) {
            try writeAll(bytes)
        } catch {
            throw TransportError.from(error, transport: description)
        }
    }

    /// Writes every byte, continuing after partial writes.
    private func writeAll(_ bytes: [UInt8]) throws(SystemError) {
        let fd = descriptor
        let socket = isSocket
        var offset = 0
        while offset < bytes.count {
            offset += try syscall(socket ? "send" : "write") {
                bytes.withUnsafeBytes { raw in
                    let rest = UnsafeRawBufferPointer(rebasing: raw[offset...])
                    return socket ? Glibc.send(fd, rest.baseAddress, rest.count, Int32(MSG_NOSIGNAL))
                        : Glibc.write(fd, rest.baseAddress, rest.count)
                }
            }
        }
    }

    public func close() {
        closeDescriptor(descriptor)
        descriptor = -1
    }
}

/// H4 over a serial line: raw mode, 8N1, a standard baud rate, optional RTS/CTS flow control.
public final class SerialTransport: StreamTransport {
    /// Opens `device` and configures the line.
    public init(device: String, baud: Int, rtscts: Bool) throws(TransportError) {
        let name = TransportSpec.serial(device: device, baud: baud, rtscts: rtscts).description
        guard let speed = Self.speed(baud) else {
            throw TransportError(.unavailable, "\(name): unsupported baud rate \(baud)")
        }
        let fd: Int32
        do throws(SystemError) {
            fd = try syscall("open") { open(device, O_RDWR | O_NOCTTY | O_CLOEXEC) }
        } catch {
            throw TransportError.from(error, transport: name)
        }
        do throws(SystemError) {
            var settings = termios()
            try syscall("tcgetattr") { tcgetattr(fd, &settings) }
            cfmakeraw(&settings)
            settings.c_cflag |= tcflag_t(CLOCAL | CREAD)
            settings.c_cflag &= ~tcflag_t(CSTOPB)
            if rtscts {
                settings.c_cflag |= tcflag_t(CRTSCTS)
            } else {
                settings.c_cflag &= ~tcflag_t(CRTSCTS)
            }
            // Block until at least one byte; poll decides when to read.
            withUnsafeMutableBytes(of: &settings.c_cc) { cc in
                cc[Int(VMIN)] = 1
                cc[Int(VTIME)] = 0
            }
            try syscall("cfsetspeed") { cfsetspeed(&settings, speed) }
            try syscall("tcsetattr") { tcsetattr(fd, TCSANOW, &settings) }
            try syscall("tcflush") { tcflush(fd, TCIOFLUSH) }
        } catch {
            closeDescriptor(fd)
            throw TransportError.from(error, transport: name)
        }
        super.init(descriptor: fd, description: name, isSocket: false)
    }

    /// The termios constant for a standard rate (TransportSpec.standardBaudRates).
    static func speed(_ baud: Int) -> speed_t? {
        switch baud {
        case 50: speed_t(B50)
        case 75: speed_t(B75)
        case 110: speed_t(B110)
        case 134: speed_t(B134)
        case 150: speed_t(B150)
        case 200: speed_t(B200)
        case 300: speed_t(B300)
        case 600: speed_t(B600)
        case 1200: speed_t(B1200)
        case 1800: speed_t(B1800)
        case 2400: speed_t(B2400)
        case 4800: speed_t(B4800)
        case 9600: speed_t(B9600)
        case 19200: speed_t(B19200)
        case 38400: speed_t(B38400)
        case 57600: speed_t(B57600)
        case 115200: speed_t(B115200)
        case 230400: speed_t(B230400)
        case 460800: speed_t(B460800)
        case 500000: speed_t(B500000)
        case 576000: speed_t(B576000)
        case 921600: speed_t(B921600)
        case 1000000: speed_t(B1000000)
        case 1152000: speed_t(B1152000)
        case 1500000: speed_t(B1500000)
        case 2000000: speed_t(B2000000)
        case 2500000: speed_t(B2500000)
        case 3000000: speed_t(B3000000)
        case 3500000: speed_t(B3500000)
        case 4000000: speed_t(B4000000)
        default: nil
        }
    }
}
