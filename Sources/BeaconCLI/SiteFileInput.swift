import BeaconCore
import BeaconTransport

/// A site file named on the command line (`locate --site`, `simulate --site`), read and checked the same
/// way for every command.
enum SiteFileInput {
    /// The site in the file at `path`. A file that is not a valid site is one error line naming the
    /// field and exit 65; one that cannot be read, exit 66.
    static func read(_ path: String, console: Console) throws(ReportedFailure) -> Site {
        let bytes: [UInt8]
        do {
            // One byte past the limit tells a file that is too large.
            bytes = try InputFile.read(path, atMost: Site.maximumFileBytes + 1)
        } catch {
            console.diagnose("Error: cannot read the --site file: \(error)")
            throw ReportedFailure(exit: .noInput)
        }
        do {
            return try Site.decode(bytes)
        } catch {
            console.diagnose("Error: \(error.position?.inFile(path) ?? path): \(error)")
            throw ReportedFailure(exit: .dataError)
        }
    }
}
