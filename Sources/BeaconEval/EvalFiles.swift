import BeaconTransport

/// Text files for `beacon-eval` (reads go through `InputFile`, directories through `Directory`); failures
/// name the call and the path.
enum EvalFiles {
    static func write(_ text: String, to path: String) throws {
        let file = try OutputFile(path: path)
        try file.append { $0 += text.utf8 }
        try file.close()
    }
}
