import Glibc

/// Directories by path, for tools that read and write trees of files: whether one is there, the names in
/// it, and making one with its parents. Failures name the call and the path.
public enum Directory {
    /// Whether `path` names a directory (following symbolic links); false when nothing can be examined there.
    public static func exists(_ path: String) -> Bool {
        var info = stat()
        do {
            try syscall("stat(\(path))") { stat(path, &info) }
        } catch {
            return false
        }
        return info.st_mode & S_IFMT == S_IFDIR
    }

    /// The names in directory `path` ending in `suffix`, sorted.
    public static func names(in path: String, suffix: String) throws(SystemError) -> [String] {
        let directory = try pointerSyscall("opendir(\(path))") { opendir(path) }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name.hasSuffix(suffix) { names.append(name) }
        }
        return names.sorted()
    }

    /// Creates `path` (mode 0755) and its missing parents.
    public static func makeWithParents(_ path: String) throws(SystemError) {
        var prefix = path.hasPrefix("/") ? "/" : ""
        for part in path.split(separator: "/") {
            prefix += part + "/"
            do {
                try syscall("mkdir(\(prefix))") { mkdir(prefix, 0o755) }
            } catch where error.errno == EEXIST {
                continue
            }
        }
    }
}
