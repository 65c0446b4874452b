import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// `beacon scan` and `beacon range` against AltBeacon and Eddystone advertisements that bumble's own
/// host stack sends on another emulated controller (tools/bumble_formats_advertiser.py, with bytes
/// written from the specifications). Runs end on what beacon printed (then SIGINT), never after a span
/// of wall-clock time.
@Suite(
    "scan and range of every format against bumble's advertiser",
    .enabled(if: IntegrationGate.isEnabled, IntegrationGate.reason),
    .timeLimit(.minutes(5)))
struct FormatsIntegrationTests {
    /// Starts bumble's advertiser of `format` on controller `index`, waits until advertising is on, runs
    /// `body` and stops the advertiser whatever happens.
    static func withAdvertiser<T>(_ rig: BumbleRig, on index: Int, format: String,
                                  _ body: () async throws -> T) async throws -> T {
        let advertiser = try ChildProcess(
            name: "bumble_formats_advertiser \(format)", executable: ProjectPaths.python,
            arguments: [ProjectPaths.tool("bumble_formats_advertiser.py"), "--transport", rig.bumbleSpec(index), "--format", format],
            input: .heldOpen, limit: HangGuard.processLimit)
        do {
            try await advertiser.waitForLine(within: HangGuard.startUp, "advertising started") { $0.contains(#""event":"advertising""#) }
            let result = try await body()
            await advertiser.stop()
            return result
        } catch {
            await advertiser.stop()
            throw error
        }
    }

    /// Runs beacon until a stdout line satisfies `until`, then SIGINT; returns the lines once it has exited 0.
    static func run(_ arguments: [String], _ what: String, until: @escaping (String) -> Bool) async throws -> [String] {
        let beacon = try BeaconProcess.start(arguments, limit: HangGuard.processLimit)
        try await beacon.waitForLine(within: HangGuard.startUp, what, where: until)
        beacon.send(SIGINT)
        #expect(try await beacon.waitForExit(within: HangGuard.step) == .exited(0), "\(beacon.failure("exit status"))")
        return beacon.stdoutLines
    }

    static func object(_ line: String) throws -> [String: Any] {
        try #require(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
    }

    @Test("beacon scan reports each format bumble advertises, with the identity the specification's bytes carry",
          arguments: ["altbeacon", "eddystone-uid", "eddystone-url"])
    func scanReports(format: String) async throws {
        try await BumbleRig.with { rig in
            try await Self.withAdvertiser(rig, on: 0, format: format) {
                let lines = try await Self.run(["scan", "--hci", rig.specs[1]], "a \(format) beacon line") {
                    $0.contains(#""event":"beacon""#) && $0.contains(#""format":"\#(format)""#)
                }
                let line = try Self.object(try #require(lines.first { $0.contains(#""format":"\#(format)""#) }))
                #expect(line["address"] as? String == TestBeacon.advertiserAddress)
                switch format {
                case "altbeacon":
                    #expect(line["id1"] as? String == "2F234454-CF6D-4A0F-ADF2-F4911BA9FFA6")
                    #expect(line["id2"] as? Int == 1 && line["id3"] as? Int == 2 && line["companyId"] as? Int == 0x0118)
                    #expect(line["measuredPower"] as? Int == -59 && line["reserved"] as? Int == 0)
                case "eddystone-uid":
                    #expect(line["namespace"] as? String == "00010203040506070809" && line["instance"] as? String == "0A0B0C0D0E0F")
                    #expect(line["txPowerAt0m"] as? Int == -20 && line["measuredPower"] as? Int == -61)
                default:
                    #expect(line["url"] as? String == "https://goo.gl/a" && line["txPowerAt0m"] as? Int == -21)
                }
                // Nothing else is on the air: every line is this beacon.
                #expect(lines.allSatisfy { $0.contains(#""format":"\#(format)""#) })
                try await expectValidOutput(lines)
            }
        }
    }

    @Test("beacon range enters an Eddystone-UID region and carries the TLM frames' telemetry on the beacon's entry")
    func rangesEddystoneWithTelemetry() async throws {
        try await BumbleRig.with { rig in
            try await Self.withAdvertiser(rig, on: 0, format: "eddystone-tlm") {
                let lines = try await Self.run(["range", "--hci", rig.specs[1], "--region", "tag=eddystone:00010203040506070809"],
                                               "a range line with telemetry") {
                    $0.contains(#""event":"range""#) && $0.contains(#""telemetry":"#)
                }
                let events = lines.map { (try? Self.object($0))?["event"] as? String ?? "" }
                #expect(Array(events.prefix(3)) == ["state", "enter", "state"])
                let range = try Self.object(try #require(lines.last { $0.contains(#""telemetry":"#) }))
                let beacon = try #require((range["beacons"] as? [[String: Any]])?.first)
                #expect(beacon["instance"] as? String == "0A0B0C0D0E0F" && beacon["measuredPower"] as? Int == -61)
                let telemetry = try #require(beacon["telemetry"] as? [String: Any])
                #expect(telemetry["batteryMillivolts"] as? Int == 3000 && telemetry["temperature"] as? Double == 24.5)
                #expect(telemetry["advertisementCount"] as? Int == 256 && telemetry["uptime"] as? Double == 360)
                try await expectValidOutput(lines)
            }
        }
    }

    @Test("beacon range enters an AltBeacon region (ID2 matched, ID3 any) and ranges the beacon")
    func rangesAltBeacon() async throws {
        try await BumbleRig.with { rig in
            try await Self.withAdvertiser(rig, on: 0, format: "altbeacon") {
                let lines = try await Self.run(["range", "--hci", rig.specs[1], "--region", "altbeacon:2F234454-CF6D-4A0F-ADF2-F4911BA9FFA6:1"],
                                               "a range line with the AltBeacon") {
                    $0.contains(#""event":"range""#) && $0.contains(TestBeacon.advertiserAddress)
                }
                let range = try Self.object(try #require(lines.last))
                let beacon = try #require((range["beacons"] as? [[String: Any]])?.first)
                #expect(beacon["format"] as? String == "altbeacon" && beacon["id3"] as? Int == 2)
                try await expectValidOutput(lines)
            }
        }
    }
}
