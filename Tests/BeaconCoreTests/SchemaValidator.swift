import Foundation

/// JSON lines checked against the schemas in docs/ by the project's one validator,
/// tools/validate_output.py (Python's jsonschema, in the tools venv that `make deps` creates), so the
/// unit tests and the integration tests judge lines by the same, independent implementation of JSON Schema.
enum SchemaValidator {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// For each line (one JSON value on one line), nil when it is valid against docs/`schema`, else the
    /// validator's reason.
    static func problems(_ lines: [String], schema: String = "output.schema.json") throws -> [String?] {
        let python = root.appendingPathComponent(".venv/bin/python").path
        guard FileManager.default.isExecutableFile(atPath: python) else {
            throw Failure(description: "no tools venv at \(python): run `make deps`")
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = [root.appendingPathComponent("tools/validate_output.py").path, "--each",
                             "--schema", root.appendingPathComponent("docs").appendingPathComponent(schema).path]
        let input = Pipe(), output = Pipe(), errors = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        input.fileHandleForWriting.write(Data(lines.map { $0 + "\n" }.joined().utf8))
        try input.fileHandleForWriting.close()
        let answer = output.fileHandleForReading.readDataToEndOfFile()
        let complaint = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let results = String(decoding: answer, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        guard process.terminationStatus == 0, results.count == lines.count else {
            throw Failure(description: "validate_output.py exited \(process.terminationStatus): \(String(decoding: complaint, as: UTF8.self))")
        }
        return results.map { $0 == "ok" ? nil : String($0) }
    }
}
