import BeaconCore
import Glibc

extension ProcessCapabilities {
    /// This process's effective capabilities, from /proc/self/status; nil when that cannot be read
    /// (then nothing can be said about what the process may do).
    public static func current() -> ProcessCapabilities? {
        let fd = Glibc.open("/proc/self/status", O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { closeDescriptor(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let count: Int
            do {
                count = try syscall("read(/proc/self/status)") { chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) } }
            } catch {
                return nil
            }
            if count == 0 { break }
            bytes += chunk.prefix(count)
        }
        return parse(procStatus: String(decoding: bytes, as: UTF8.self))
    }
}
