@testable import BeaconCLI
import BeaconCore
import Testing

@Suite("--major and --minor in hex")
struct MajorMinorHexTests {
    static let uuid = "E2C56DB5-DFFB-48D2-B060-D0F5A71096E0"

    @Test("--major and --minor take 0x hex as well as decimal, and every command's help says so")
    func hexAcceptedAndDocumented() throws {
        let options = try RangeOptions(ParsedOptions.parse(["--uuid", Self.uuid, "--major", "0x1F", "--minor", "0XFFFF"],
                                                           specs: RangeOptions.help.options), environment: [:])
        #expect(options.regions.map(\.constraint) == [.iBeacon(uuid: try #require(BeaconUUID(Self.uuid)), major: 31, minor: 65535)])
        for help in [RangeOptions.help, AdvertiseOptions.help, CalibrateOptions.help, SimulateOptions.help] {
            let specs = help.options.filter { $0.name == "major" || $0.name == "minor" }
            #expect(specs.count == 2 && specs.allSatisfy { $0.help.contains("decimal or 0x hex") }, "\(help.name)")
            #expect(unwrapped(help.render()).contains("decimal or 0x hex"))
        }
    }
}
