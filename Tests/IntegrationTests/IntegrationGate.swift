import Foundation
import Testing

/// Integration tests start emulated controllers and run the built binary, so
/// they only run when asked: `make test` sets BEACON_INTEGRATION=1.
enum IntegrationGate {
    static let isEnabled = ProcessInfo.processInfo.environment["BEACON_INTEGRATION"] == "1"
    static let reason: Comment =
        "set BEACON_INTEGRATION=1 (make test does) to run against bumble's emulated controllers"
}

/// The iBeacon every integration test advertises and ranges.
enum TestBeacon {
    static let uuid = "E2C56DB5-DFFB-48D2-B060-D0F5A71096E0"
    static let major = 1
    static let minor = 2
    static let measuredPower = -59
    /// What bumble's emulated controllers report for every reception.
    static let emulatedRSSI = -50.0
    /// Controller 0's public address: the advertiser in every rig.
    static let advertiserAddress = "F0:F1:F2:F3:F4:01"
}

/// The site `beacon locate` fuses in the integration tests: two 4 m rooms side by side, gw1 in the
/// office's far corner, gw2 and gw3 in the hall's.
enum TestSite {
    static let officeAndHall = """
        {"rooms":[{"name":"office","polygon":[[0,0],[4,0],[4,4],[0,4]]},{"name":"hall","polygon":[[4,0],[8,0],[8,4],[4,4]]}],
         "gateways":[{"name":"gw1","position":[0.5,0.5,1],"room":"office"},{"name":"gw2","position":[7.5,3.5,1],"room":"hall"},
                     {"name":"gw3","position":[7.5,0.5,1],"room":"hall"}]}
        """
}

/// Fails the current test with the validator's report unless every line is valid.
func expectValidOutput(_ lines: [String], sourceLocation: SourceLocation = #_sourceLocation) async throws {
    let problems = try await OutputSchemaCheck.problems(in: lines)
    #expect(problems == nil, "output does not match docs/output.schema.json: \(problems ?? "")",
            sourceLocation: sourceLocation)
}
