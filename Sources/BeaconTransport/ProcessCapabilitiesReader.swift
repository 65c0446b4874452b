import BeaconCore
import Glibc

extension ProcessCapabilities {
    /// This process's effective capabilities, from /proc/self/status; nil when that cannot be read
    /// (no /proc), since then nothing can be said about what the process may do.
    public static func current() -> ProcessCapabilities? {
        do throws(SystemError) {
            return parse(procStatus: try readWholeFile("/proc/self/status"))
        } catch {
            return nil
        }
    }

    private static func readWholeFile(_ path: String) throws(SystemError) -> String {
        let fd = try syscall("open(\(path))") { Glibc.open(path, O_RDONLY | O_CLOEXEC) }
        defer { closeDescriptor(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = try syscall("read(\(path))") { chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) } }
            if count == 0 { break }
            bytes += chunk.prefix(count)
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
