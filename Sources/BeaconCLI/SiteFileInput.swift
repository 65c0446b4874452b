import BeaconCore

/// A site file named on the command line (`locate --site`, `simulate --site`), read and checked the same
/// way for every command.
enum SiteFileInput {
    /// The site in the file at `path`. A file that is not a valid site is one error line naming the
    /// field and exit 65; one that cannot be read, exit 66.
    static func read(_ path: String, console: Console) throws(ReportedFailure) -> Site {
        let bytes = try OptionFile.bytes(path, option: "--site", atMost: Site.maximumFileBytes, console: console)
        do {
            return try Site.decode(bytes)
        } catch {
            console.diagnose("Error: \(error.position?.inFile(path) ?? path): \(error)")
            throw ReportedFailure(exit: .dataError)
        }
    }
}
