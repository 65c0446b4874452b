import BeaconCore
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `beacon range --advertise-self` on emulated controllers: two gateways, each advertising its own beacon
/// on the controller it scans with, hear each other; stopped, a gateway's beacon goes quiet.
@Suite("beacon range --advertise-self on emulated controllers",
       .enabled(if: IntegrationGate.isEnabled && MosquittoBroker.isInstalled, IntegrationGate.reason),
       .timeLimit(.minutes(5)))
struct SelfAdvertiseIntegrationTests {
    static let uuid = "E2C56DB5-DFFB-48D2-B060-D0F5A71096E0"

    /// The gateway's beacon, as beacon derives it from its name.
    static func identity(of gateway: String) throws -> IBeaconID {
        let plan = AdvertisingPlan.gatewayBeacon(uuid: try #require(BeaconUUID(uuid)), gateway: gateway)
        guard case .iBeacon(let beacon) = plan.beacon else { throw ChildProcessError(description: "not an iBeacon") }
        return beacon.identity
    }

    static func gateway(_ name: String, _ spec: String, broker: String) throws -> ChildProcess {
        try BeaconProcess.start(["range", "--hci", spec, "--uuid", uuid, "--exit-after", "2s",
                                 "--mqtt", broker, "--gateway", name, "--advertise-self"], limit: HangGuard.processLimit)
    }

    /// The index of the first range line of `process` that lists `other`'s beacon.
    static func ranges(_ process: ChildProcess, _ other: String) async throws -> Int {
        let identity = try identity(of: other)
        let range = try await process.waitForLine(within: HangGuard.startUp, "range line with the other gateway's beacon") { line in
            guard BeaconOutputLine.event(of: line) == "range" else { return false }
            let beacons = try BeaconOutputLine.decode([line]).first?.beacons ?? []
            return beacons.contains { $0.major == Int(identity.major) && $0.minor == Int(identity.minor) }
        }
        return range.index
    }

    @Test("two gateways with --advertise-self range each other's beacons; the one stopped first is exited by the other")
    func gatewaysHearEachOther() async throws {
        try await MosquittoBroker.with { broker, _ in
            let url = broker.url(prefix: "site")
            // Extended commands: bumble's emulated controllers put legacy advertising on the air only when connectable.
            try await BumbleRig.with(extended: true) { rig in try await Self.hearEachOther(rig.specs, broker: url) }
        }
    }

    static func hearEachOther(_ specs: [String], broker url: String) async throws {
        let gw1 = try gateway("gw1", specs[0], broker: url)
        let gw2 = try gateway("gw2", specs[1], broker: url)
        let heard1 = try await ranges(gw1, "gw2")
        _ = try await ranges(gw2, "gw1")
        let announced = BeaconID.iBeacon(try identity(of: "gw2")).deviceID
        let told = gw2.stderrLines
        #expect(told.contains { $0.contains("Advertising this gateway's own beacon \(announced)") }, "\(told)")

        gw2.send(SIGINT)
        #expect(try await gw2.waitForExit(within: HangGuard.step) == .exited(0), "\(gw2.failure("exit status"))")
        // Its advertising is off: gw1 stops hearing it and exits the region --exit-after later.
        try await gw1.waitForLine(from: heard1, within: HangGuard.step, "exit line after gw2 stopped") {
            BeaconOutputLine.event(of: $0) == "exit"
        }
        gw1.send(SIGINT)
        #expect(try await gw1.waitForExit(within: HangGuard.step) == .exited(0), "\(gw1.failure("exit status"))")
        try await expectValidOutput(gw1.stdoutLines)
    }
}
