import Foundation
import Synchronization

/// JSON lines checked against the schemas in docs/ by the project's one validator,
/// tools/validate_output.py (Python's jsonschema, in the tools venv that `make deps` creates), so the
/// unit tests and the integration tests judge lines by the same, independent implementation of JSON
/// Schema. One validator process per schema serves the whole test run.
public enum SchemaValidator {
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    public static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// A running `validate_output.py --each`: lines in, one verdict per line out.
    private final class Running {
        let process = Process()
        let input = Pipe()
        let output = Pipe()
        var pending: [UInt8] = []

        init(schema: String) throws {
            let python = SchemaValidator.root.appendingPathComponent(".venv/bin/python").path
            guard FileManager.default.isExecutableFile(atPath: python) else {
                throw Failure(description: "no tools venv at \(python): run `make deps`")
            }
            process.executableURL = URL(fileURLWithPath: python)
            process.arguments = [SchemaValidator.root.appendingPathComponent("tools/validate_output.py").path, "--each",
                                 "--schema", SchemaValidator.root.appendingPathComponent("docs").appendingPathComponent(schema).path]
            process.standardInput = input
            process.standardOutput = output
            try process.run()
        }

        func verdicts(_ lines: [String]) throws -> [String?] {
            input.fileHandleForWriting.write(Data(lines.map { $0 + "\n" }.joined().utf8))
            var verdicts: [String?] = []
            while verdicts.count < lines.count {
                if let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                    let verdict = String(decoding: pending[..<newline], as: UTF8.self)
                    pending.removeSubrange(...newline)
                    verdicts.append(verdict == "ok" ? nil : verdict)
                    continue
                }
                let more = output.fileHandleForReading.availableData
                guard !more.isEmpty else { throw Failure(description: "validate_output.py ended (status \(process.isRunning ? "running" : String(process.terminationStatus)))") }
                pending += more
            }
            return verdicts
        }
    }

    private static let running = Mutex<[String: Running]>([:])

    /// For each line (one JSON value on one line), nil when it is valid against docs/`schema`, else the
    /// validator's reason.
    public static func problems(_ lines: [String], schema: String = "output.schema.json") throws -> [String?] {
        try running.withLock { (running: inout [String: Running]) throws -> [String?] in
            let validator = try running[schema] ?? Running(schema: schema)
            running[schema] = validator
            return try validator.verdicts(lines)
        }
    }
}
