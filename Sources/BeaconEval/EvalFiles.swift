import BeaconTransport
import Glibc

/// Directories and text files for `beacon-eval` (reads go through `InputFile`); failures name the call and the path.
enum EvalFiles {
    static func isDirectory(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
    }

    /// The names in directory `path` ending in `suffix`, sorted.
    static func list(_ path: String, suffix: String) throws(SystemError) -> [String] {
        guard let directory = opendir(path) else { throw SystemError(call: "opendir(\(path))", errno: errno) }
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

    static func write(_ text: String, to path: String) throws {
        let file = try OutputFile(path: path)
        try file.append { $0 += text.utf8 }
        try file.close()
    }

    /// Creates `path` and its missing parents.
    static func makeDirectories(_ path: String) throws(SystemError) {
        var prefix = path.hasPrefix("/") ? "/" : ""
        for part in path.split(separator: "/") {
            prefix += part + "/"
            if mkdir(prefix, 0o755) != 0 && errno != EEXIST { throw SystemError(call: "mkdir(\(prefix))", errno: errno) }
        }
    }
}
