import BeaconCore

/// A site's fit named by `range --site-fit`: the last "fit" line of `beacon calibrate --sample` in the file.
enum SiteFitInput {
    /// The fit in the file at `path`. A file without a usable fit line is one error line naming the line
    /// and field and exit 65; one that cannot be read, exit 66.
    static func read(_ path: String, console: Console) throws(ReportedFailure) -> SitePrior {
        let bytes = try OptionFile.bytes(path, option: "--site-fit", atMost: SitePrior.maximumFileBytes, console: console)
        do {
            return try SitePrior.decode(bytes)
        } catch {
            console.diagnose("Error: --site-fit \(path): \(error)")
            throw ReportedFailure(exit: .dataError)
        }
    }
}
