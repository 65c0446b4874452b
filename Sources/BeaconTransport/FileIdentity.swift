import Glibc

/// Which file a path names (device and inode), so a command can refuse to write over one of its inputs
/// whatever path leads to it.
public struct FileIdentity: Hashable, Sendable {
    public let device: UInt64
    public let inode: UInt64

    /// The file at `path` (following symbolic links), nil when there is none or it cannot be examined:
    /// then there is nothing to protect.
    public init?(path: String) {
        var info = stat()
        guard (try? syscall("stat") { stat(path, &info) }) != nil else { return nil }
        device = UInt64(info.st_dev)
        inode = UInt64(info.st_ino)
    }
}
