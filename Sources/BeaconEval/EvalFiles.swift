import BeaconTransport
import Glibc

/// The files `beacon-eval` reads and writes; failures name the call and the path.
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

    static func read(_ path: String) throws(SystemError) -> String {
        let fd = try syscall("open(\(path))") { open(path, O_RDONLY | O_CLOEXEC) }
        defer { _ = close(fd) }
        var contents: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = try syscall("read(\(path))") { chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) } }
            if count == 0 { return String(decoding: contents, as: UTF8.self) }
            contents += chunk[0..<count]
        }
    }

    static func write(_ text: String, to path: String) throws(SystemError) {
        let fd = try syscall("open(\(path))") { open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644) }
        defer { _ = close(fd) }
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let count = try syscall("write(\(path))") { bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) } }
            bytes = bytes.dropFirst(count)
        }
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
