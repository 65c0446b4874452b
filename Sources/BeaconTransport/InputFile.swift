import Glibc

/// Reads whole files.
public enum InputFile {
    /// The bytes of the file at `path`.
    public static func read(_ path: String) throws(SystemError) -> [UInt8] {
        let fd = try syscall("open(\(path))") { open(path, O_RDONLY | O_CLOEXEC) }
        defer { closeDescriptor(fd) }
        var contents: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = try readOnce(fd, into: &chunk)
            if count == 0 { return contents }
            contents.append(contentsOf: chunk[0..<count])
        }
    }
}
