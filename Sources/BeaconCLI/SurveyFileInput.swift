import BeaconCore

/// A survey file named on the command line (`locate --survey`), read, checked and made the site's radio map.
enum SurveyFileInput {
    /// The radio map of the survey at `path` on `site`. A file that is not a valid survey is one error line
    /// naming the line, column and member, and exit 65; one that cannot be read, exit 66. What the map
    /// cannot use or finds odd (members it does not know, gateways the site lacks, points that contradict
    /// their neighbours) is a warning each.
    static func radioMap(_ path: String, site: Site, model: SignalModel, console: Console) throws(ReportedFailure) -> RadioMap {
        let bytes = try OptionFile.bytes(path, option: "--survey", atMost: SurveyFile.maximumFileBytes, console: console)
        let file: SurveyFile
        do {
            file = try SurveyFile.decode(bytes)
        } catch {
            console.diagnose("Error: \(error.inFile(path))")
            throw ReportedFailure(exit: .dataError)
        }
        if let ignored = file.ignoredMembersWarning { console.diagnose("Warning: \(path): \(ignored)") }
        let radio = RadioMap(site: site, survey: file.points, model: model)
        if !radio.unknownGateways.isEmpty {
            let names = radio.unknownGateways.keys.sorted().prefix(5).map { "'\(DiagnosticEscaping.escaped($0))'" }.joined(separator: ", ")
            console.diagnose("Warning: \(path): \(radio.unknownGateways.values.reduce(0, +).counted("point")) of "
                             + "\(radio.unknownGateways.count.counted("gateway")) the site does not have (\(names)); ignored")
        }
        if let first = radio.contradictions.first {
            console.diagnose("Warning: \(path): the survey contradicts itself at \(radio.contradictions.count.counted("point")): "
                             + "for example '\(DiagnosticEscaping.escaped(first.gateway))' heard \(rounded(first.rssi)) dBm at "
                             + "(\(rounded(first.point.x)), \(rounded(first.point.y))) where the points in its \(RadioMap.binSize) m square "
                             + "heard \(rounded(first.neighbours)) dBm (median); the map takes "
                             + "the median of such neighbours")
        }
        if radio.heard == 0 {
            console.diagnose("Warning: \(path): no gateway of the site heard anything in the survey; the distance model alone places the beacons")
        }
        return radio
    }

    private static func rounded(_ value: Double) -> Double { (value * 100).rounded() / 100 }
}
