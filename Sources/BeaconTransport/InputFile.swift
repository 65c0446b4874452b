import Glibc

/// Reads whole files.
public enum InputFile {
    /// The bytes of the file at `path`.
    public static func read(_ path: String) throws(SystemError) -> [UInt8] {
        try read(path, atMost: .max)
    }

    /// The first `limit` bytes of the file at `path`, or all of them when it has fewer: an endless
    /// file (/dev/zero, a FIFO whose writer never stops) is read no further.
    public static func read(_ path: String, atMost limit: Int) throws(SystemError) -> [UInt8] {
        let fd = try syscall("open(\(path))") { open(path, O_RDONLY | O_CLOEXEC) }
        defer { closeDescriptor(fd) }
        var contents: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while contents.count < limit {
            let count = try readOnce(fd, into: &chunk)
            if count == 0 { break }
            contents.append(contentsOf: chunk[0..<min(count, limit - contents.count)])
        }
        return contents
    }
}
