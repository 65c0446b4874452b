import BeaconTransport

/// A file an option names (`--site`, `--survey`, `--scene`, …), read the same way for every command.
enum OptionFile {
    /// The file's bytes, at most `limit` + 1 of them: one byte past the limit tells a file that is too large,
    /// which its decoder refuses. A file that cannot be read is one error line naming the option, and exit 66.
    static func bytes(_ path: String, option: String, atMost limit: Int, console: Console) throws(ReportedFailure) -> [UInt8] {
        do {
            return try InputFile.read(path, atMost: limit + 1)
        } catch {
            console.diagnose("Error: cannot read the \(option) file: \(error)")
            throw ReportedFailure(exit: .noInput)
        }
    }
}
