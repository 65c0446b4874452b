import BeaconCore
import Glibc

/// Why a transport could not be opened or used, in one line, with a category the CLI maps to an exit code.
public struct TransportError: Error, CustomStringConvertible, Hashable, Sendable {
    public enum Category: Hashable, Sendable {
        /// The transport does not exist here: no Bluetooth in the kernel, no such controller, file or listener.
        case unavailable
        /// Not allowed: missing capabilities or file permissions.
        case permission
        /// Someone else holds it (EBUSY).
        case busy
        /// An output file (a recording) cannot be created or opened for writing.
        case cannotCreate
        /// Reading or writing failed, or the connection broke.
        case io
        /// The btsnoop capture is malformed.
        case badCapture
        /// The byte stream is not H4 (unknown packet indicator and the like).
        case badStream
    }

    public var category: Category
    public var message: String
    /// The failed call behind it, when there was one.
    public var systemError: SystemError?

    public init(_ category: Category, _ message: String, systemError: SystemError? = nil) {
        self.category = category
        self.message = message
        self.systemError = systemError
    }

    public var description: String { message }

    /// Classifies a failed call on the transport `name` (a spec such as "tcp:host:1"), keeping errno's text.
    static func from(_ error: SystemError, transport name: String) -> TransportError {
        let detail = "\(name): \(error.call): \(error.message)"
        switch error.errno {
        case EAFNOSUPPORT:
            return TransportError(.unavailable, "\(name): this kernel has no Bluetooth support (AF_BLUETOOTH unavailable); "
                + "use tcp:, unix:, serial: or btsnoop: instead", systemError: error)
        case ECONNREFUSED:
            return TransportError(.unavailable, "\(name): connection refused (is the H4 server listening?)", systemError: error)
        case ENOENT:
            return TransportError(.unavailable, "\(name): no such file or directory", systemError: error)
        // A path too long names no file that could be there: missing, as ENOENT.
        case ENODEV, ENXIO, EHOSTUNREACH, ENETUNREACH, ETIMEDOUT, EADDRNOTAVAIL, ENAMETOOLONG:
            return TransportError(.unavailable, detail, systemError: error)
        case ERFKILL:
            return TransportError(.unavailable, "\(name): the controller is blocked by rfkill (`rfkill unblock bluetooth`)",
                                  systemError: error)
        case EPERM, EACCES:
            return TransportError(.permission, "\(detail) (permission denied)", systemError: error)
        case EBUSY:
            return TransportError(.busy, "\(name): busy (another program holds it)", systemError: error)
        case ECONNRESET, EPIPE:
            return TransportError(.io, "\(name): connection closed by the peer (\(error.call): \(error.message))",
                                  systemError: error)
        default:
            return TransportError(.io, detail, systemError: error)
        }
    }

    /// A malformed capture; the decode error carries the byte offset in the file.
    static func badCapture(_ error: DecodeError, path: String) -> TransportError {
        TransportError(.badCapture, "btsnoop:\(path): \(error)")
    }
}
