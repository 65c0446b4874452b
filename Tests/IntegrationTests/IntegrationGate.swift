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

/// Fails the current test with the validator's report unless every line is valid.
func expectValidOutput(_ lines: [String], sourceLocation: SourceLocation = #_sourceLocation) async throws {
    let problems = try await OutputSchemaCheck.problems(in: lines)
    #expect(problems == nil, "output does not match docs/output.schema.json: \(problems ?? "")",
            sourceLocation: sourceLocation)
}
