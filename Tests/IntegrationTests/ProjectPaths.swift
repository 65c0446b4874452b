import Foundation

/// Where the repository's files are, found from this source file's location
/// so the tests work from any working directory.
enum ProjectPaths {
    /// The repository root (this file is Tests/IntegrationTests/ProjectPaths.swift).
    static let root: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()
        .deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The tools venv's interpreter, created by `make deps`.
    static let python: String = root.appendingPathComponent(".venv/bin/python").path

    /// A script in tools/.
    static func tool(_ name: String) -> String {
        root.appendingPathComponent("tools").appendingPathComponent(name).path
    }

    /// A fresh private directory for one test's sockets, ptys and captures.
    static func makeScratchDirectory() throws -> URL {
        // Short path: unix socket paths are limited to 107 bytes.
        let url = URL(fileURLWithPath: "/tmp").appendingPathComponent("beacon-it-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: false)
        return url
    }
}
