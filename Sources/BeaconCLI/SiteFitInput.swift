import BeaconCore
import BeaconTransport

/// A site's fit named by `range --site-fit`: the last "fit" line of `beacon calibrate --sample` in the file.
enum SiteFitInput {
    /// The fit in the file at `path`. A file without a usable fit line is one error line naming the line
    /// and field and exit 65; one that cannot be read, exit 66.
    static func read(_ path: String, console: Console) throws(ReportedFailure) -> SitePrior {
        let bytes: [UInt8]
        do {
            // One byte past the limit tells a file that is too large.
            bytes = try InputFile.read(path, atMost: SitePrior.maximumFileBytes + 1)
        } catch {
            console.diagnose("Error: cannot read the --site-fit file: \(error)")
            throw ReportedFailure(exit: .noInput)
        }
        do {
            return try SitePrior.decode(bytes)
        } catch {
            console.diagnose("Error: --site-fit \(path): \(error)")
            throw ReportedFailure(exit: .dataError)
        }
    }
}
