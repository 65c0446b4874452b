import Glibc

/// A directory that output files are written into, made when it is missing (one level: its parent must
/// be there).
public enum OutputDirectory {
    /// Makes the directory `path` (mode 0755): true when it made it, false when a directory is there
    /// already. Anything else at the path, a missing parent or no permission is an output that cannot
    /// be created.
    public static func make(_ path: String) throws(TransportError) -> Bool {
        let name = "--out \(path)"
        do throws(SystemError) {
            try syscall("mkdir") { mkdir(path, 0o755) }
            return true
        } catch {
            if error.errno == EEXIST, Directory.exists(path) { return false }
            var failure = error.errno == EEXIST
                ? TransportError(.cannotCreate, "\(name): something that is not a directory is there", systemError: error)
                : TransportError.from(error, transport: name)
            failure.category = .cannotCreate
            throw failure
        }
    }

    /// Removes the empty directory `path`: one made for outputs that were removed again, so nothing is
    /// left behind.
    public static func remove(_ path: String) throws(SystemError) {
        try syscall("rmdir(\(path))") { rmdir(path) }
    }
}
