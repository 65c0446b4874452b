import BeaconCore

// The calibration a restarted `beacon locate --calibrate` reads back from the broker (a network input):
// never traps, every refusal is one line, what is read names only the site's gateways with finite
// numbers within the documented ranges, and its own line is read back.

private let site = Site(rooms: [Room(name: "hall", polygon: [Point2(x: 0, y: 0), Point2(x: 8, y: 0), Point2(x: 8, y: 4), Point2(x: 0, y: 4)])],
                        gateways: [SiteGateway(name: "gw1", x: 0.5, y: 0.5, room: "hall"), SiteGateway(name: "gw2", x: 7.5, y: 3.5),
                                   SiteGateway(name: "gw3", x: 7.5, y: 0.5)])

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCalibrationMessage(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let report: CalibrationReport
    do {
        report = try CalibrationReport.decode(fuzzInput(data, size), site: site)
    } catch {
        require(!error.description.isEmpty && !error.description.contains("\n") && !error.description.contains("\r"),
                "not a one-line error: \(error)")
        return 0
    }
    let fits = report.calibration.gateways
    require(!fits.isEmpty && fits.count <= site.gateways.count, "\(fits.count) fits read")
    require(Set(fits.map(\.gateway)).count == fits.count, "a gateway fitted twice")
    for fit in fits {
        require(site.gateways.indices.contains(fit.gateway) && fit.outliers.allSatisfy(site.gateways.indices.contains), "an index beyond the site")
        require([fit.offset, fit.offsetError, fit.exponent, fit.exponentError, fit.covariance, fit.centre, fit.residual].allSatisfy(\.isFinite),
                "non-finite fit \(fit)")
        require(fit.offsetError >= 0 && fit.exponentError >= 0 && fit.centre > 0 && fit.pairs >= 1, "out of range: \(fit)")
        let level = fit.level(at: fit.centre)
        require(level.value.isFinite && level.error.isFinite && level.error >= 0, "level \(level) of \(fit)")
    }
    // Written, every number is rounded (and a covariance held within its errors once read again): from
    // the second writing on, the line reads back as itself.
    var text = report.json
    for pass in 1...2 {
        guard let again = try? CalibrationReport.decode(Array(text.utf8), site: site) else {
            require(false, "its own line refused: \(text)")
            return 0
        }
        require(pass == 1 || again.json == text, "read back differently: \(text) / \(again.json)")
        text = again.json
    }
    return 0
}
