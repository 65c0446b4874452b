import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// `beacon advertise --format` for AltBeacon and Eddystone on an emulated controller, checked by readers
/// that share none of beacon's code: bumble's own host stack scanning on the other controller must
/// receive exactly the bytes the specifications give (written out here by hand, field by field), and
/// Wireshark's tshark must dissect the `--record` capture's advertising data into the same fields.
@Suite(
    "beacon advertise --format against bumble's scanner and tshark",
    .enabled(if: IntegrationGate.isEnabled, IntegrationGate.reason),
    // A hang guard for each test, waiting for its emulator slot included.
    .timeLimit(.minutes(5)))
struct AdvertiseFormatsIntegrationTests {
    /// What tshark makes of one Set (Extended) Advertising Data command (tools/tshark_advertising_data.py).
    struct Dissected: Decodable, Equatable {
        struct AltBeaconFields: Decodable, Equatable {
            let code: String
            let id: String
            let referenceRssi: String
            let manufacturerData: String
        }

        let opcode: String
        let types: [String]
        let lengths: [String]
        let uuid16: [String]
        let serviceData: [String]
        let companyId: [String]
        let generalDiscoverable: Bool
        let brEdrNotSupported: Bool
        let altBeacon: AltBeaconFields?
    }

    struct Case: CustomTestStringConvertible, Sendable {
        let arguments: [String]
        /// The identity and power members of the `advertising` line, as printed.
        let line: String
        /// The advertising data the specification gives for these arguments.
        let data: String
        /// With `--altbeacon COMPANY` for tshark.
        let altBeaconCompany: String?
        let dissected: Dissected
        var testDescription: String { arguments.joined(separator: " ") }
    }

    static let eddystoneUIDCase = Case(arguments: ["--format", "eddystone-uid", "--namespace", "EDD1EBEAC04E5DEFA017", "--instance", "0BDB87539B67"],
             line: #""format":"eddystone-uid","namespace":"EDD1EBEAC04E5DEFA017","instance":"0BDB87539B67","txPowerAt0m":-18"#,
             data: "020106"                              // flags
                + "0303AAFE"                             // complete list of 16-bit service UUIDs: 0xFEAA
                + "1716AAFE"                             // service data for 0xFEAA, 23 bytes
                + "00"                                   // frame type UID
                + "EE"                                   // power at 0 m: -18 dBm (-59 at 1 m + 41)
                + "EDD1EBEAC04E5DEFA017"                 // namespace
                + "0BDB87539B67"                         // instance
                + "0000",                                // reserved for future use, zero
             altBeaconCompany: nil,
             dissected: Dissected(
                opcode: "0x2037", types: ["0x01", "0x03", "0x16"], lengths: ["2", "3", "23"], uuid16: ["0xfeaa", "0xfeaa"],
                serviceData: ["00eeedd1ebeac04e5defa0170bdb87539b670000"], companyId: [],
                generalDiscoverable: true, brEdrNotSupported: true, altBeacon: nil))

    static let cases: [Case] = [
        Case(arguments: ["--format", "altbeacon", "--id1", "2F234454-CF6D-4A0F-ADF2-F4911BA9FFA6", "--id2", "1", "--id3", "2",
                         "--reserved", "0xAB"],
             line: #""format":"altbeacon","id1":"2F234454-CF6D-4A0F-ADF2-F4911BA9FFA6","id2":1,"id3":2,"measuredPower":-59,"companyId":280,"reserved":171"#,
             data: "020106"                              // flags: LE General Discoverable, BR/EDR not supported
                + "1BFF"                                 // manufacturer specific data, 27 bytes
                + "1801"                                 // company 0x0118 (Radius Networks), little-endian
                + "BEAC"                                 // AltBeacon code
                + "2F234454CF6D4A0FADF2F4911BA9FFA6"     // ID1
                + "0001" + "0002"                        // ID2 1, ID3 2, big-endian
                + "C5"                                   // reference RSSI -59 dBm
                + "AB",                                  // manufacturer reserved byte
             altBeaconCompany: "0x0118",
             dissected: Dissected(
                opcode: "0x2037", types: ["0x01", "0xff"], lengths: ["2", "27"], uuid16: [], serviceData: [],
                companyId: ["0x0118"], generalDiscoverable: true, brEdrNotSupported: true,
                altBeacon: .init(code: "0xbeac", id: "2f234454cf6d4a0fadf2f4911ba9ffa600010002", referenceRssi: "-59",
                                 manufacturerData: "0xab"))),
        Case(arguments: ["--format", "altbeacon", "--id1", "00112233-4455-6677-8899-AABBCCDDEEFF", "--id2", "0", "--id3", "0xFFFF",
                         "--company-id", "0x004C", "--measured-power", "-70"],
             line: #""format":"altbeacon","id1":"00112233-4455-6677-8899-AABBCCDDEEFF","id2":0,"id3":65535,"measuredPower":-70,"companyId":76,"reserved":0"#,
             data: "020106" + "1BFF"
                + "4C00"                                 // company 0x004C: AltBeacon takes any manufacturer
                + "BEAC"
                + "00112233445566778899AABBCCDDEEFF"     // ID1
                + "0000" + "FFFF"                        // ID2 0, ID3 65535
                + "BA"                                   // reference RSSI -70 dBm
                + "00",                                  // reserved byte, 0 by default
             altBeaconCompany: "0x004c",
             dissected: Dissected(
                opcode: "0x2037", types: ["0x01", "0xff"], lengths: ["2", "27"], uuid16: [], serviceData: [],
                companyId: ["0x004c"], generalDiscoverable: true, brEdrNotSupported: true,
                altBeacon: .init(code: "0xbeac", id: "00112233445566778899aabbccddeeff0000ffff", referenceRssi: "-70",
                                 manufacturerData: "0x00"))),
        eddystoneUIDCase,
        Case(arguments: ["--format", "eddystone-url", "--url", "https://www.example.com/", "--tx-power-at-0m", "-20"],
             line: #""format":"eddystone-url","url":"https://www.example.com/","txPowerAt0m":-20"#,
             data: "020106" + "0303AAFE"
                + "0E16AAFE"                             // service data for 0xFEAA, 14 bytes
                + "10"                                   // frame type URL
                + "EC"                                   // power at 0 m: -20 dBm
                + "01"                                   // scheme https://www.
                + "6578616D706C65"                       // "example"
                + "00",                                  // .com/
             altBeaconCompany: nil,
             dissected: Dissected(
                opcode: "0x2037", types: ["0x01", "0x03", "0x16"], lengths: ["2", "3", "14"], uuid16: ["0xfeaa", "0xfeaa"],
                serviceData: ["10ec016578616d706c6500"], companyId: [],
                generalDiscoverable: true, brEdrNotSupported: true, altBeacon: nil)),
        // The legacy commands carry the same data (bumble's legacy advertiser only transmits ADV_IND,
        // hence --connectable).
        Case(arguments: ["--format", "eddystone-url", "--url", "http://www.info/", "--legacy", "--connectable"],
             line: #""format":"eddystone-url","url":"http://www.info/","txPowerAt0m":-18"#,
             data: "020106" + "0303AAFE"
                + "0A16AAFE"                             // service data for 0xFEAA, 10 bytes
                + "10" + "EE"                            // frame type URL, -18 dBm at 0 m
                + "02"                                   // scheme http://, so that "www" is followed by
                + "777777" + "04",                       // .info/: 4 bytes, where http://www. + "info/" takes 5
             altBeaconCompany: nil,
             dissected: Dissected(
                opcode: "0x2008", types: ["0x01", "0x03", "0x16"], lengths: ["2", "3", "10"], uuid16: ["0xfeaa", "0xfeaa"],
                serviceData: ["10ee0277777704"], companyId: [],
                generalDiscoverable: true, brEdrNotSupported: true, altBeacon: nil)),
    ]

    @Test("bumble's scanner receives the specification's bytes; tshark dissects the recording into its fields", arguments: cases)
    func heardAndDissected(_ advertised: Case) async throws {
        try await BumbleRig.with(extended: true) { rig in
            let capture = rig.scratch.appendingPathComponent("advertiser.btsnoop").path
            let advertiser = try BeaconProcess.start(["advertise", "--hci", rig.specs[0], "--record", capture] + advertised.arguments,
                                                     limit: HangGuard.processLimit)
            let started = try await advertiser.waitForLine(within: HangGuard.startUp, "advertising line") {
                BeaconOutputLine.event(of: $0) == "advertising"
            }.line
            #expect(started.contains(advertised.line), "\(started)")
            #expect(started.contains(#""data":"\#(advertised.data)""#), "\(started)")

            // Several in a row, each exactly the specification's bytes.
            let heard = try await rig.scan(on: 1, count: 3)
            #expect(heard.count >= 3, "the scanner stopped after \(heard.count) advertisements without hearing 3")
            for advertisement in heard {
                #expect(advertisement.address == TestBeacon.advertiserAddress)
                #expect(advertisement.data == advertised.data)
                #expect(advertisement.ibeacon == nil)
            }

            advertiser.send(SIGINT)
            #expect(try await advertiser.waitForExit(within: HangGuard.step) == .exited(0), "\(advertiser.failure("exit status"))")
            let lines = try AdvertiserOutputLine.decode(advertiser.stdoutLines)
            #expect(lines.map(\.event) == ["advertising", "stopped"])
            try await expectValidOutput(advertiser.stdoutLines)

            // The recording, as tshark reads it: one Set Advertising Data command, with the expected fields.
            let dissector = try ChildProcess(
                name: "tshark_advertising_data.py", executable: ProjectPaths.python,
                arguments: [ProjectPaths.tool("tshark_advertising_data.py")]
                    + (advertised.altBeaconCompany.map { ["--altbeacon", $0] } ?? []) + [capture],
                limit: HangGuard.processLimit)
            #expect(try await dissector.waitForExit(within: HangGuard.step) == .exited(0), "\(dissector.failure("exit status"))")
            let dissected = try dissector.stdoutLines.filter { !$0.isEmpty }.map {
                try JSONDecoder().decode(Dissected.self, from: Data($0.utf8))
            }
            #expect(dissected == [advertised.dissected])
        }
    }

    @Test("--legacy: the controller holds a non-connectable Eddystone-UID (ADV_NONCONN_IND) with its data, then disables it",
)
    func legacyControllerState() async throws {
        let advertised = Self.eddystoneUIDCase
        // legacy_advertiser_check.py reads the emulated controller's own state while beacon advertises:
        // type 3 (ADV_NONCONN_IND), the 100 ms interval, the data; and that advertising is off after SIGINT.
        let step = HangGuard.step.components.seconds
        let (checker, termination) = try await EmulatorSlots.shared.run {
            let checker = try ChildProcess(
                name: "legacy_advertiser_check",
                executable: ProjectPaths.python,
                arguments: [ProjectPaths.tool("legacy_advertiser_check.py"), "--beacon", BeaconProcess.binaryPath,
                            "--expect-type", "3", "--expect-interval", "160", "--expect-data", advertised.data,
                            "--signal", "INT", "--timeout", String(step), "--"] + advertised.arguments,
                limit: HangGuard.processLimit)
            return (checker, try await checker.waitForExit(within: HangGuard.startUp + .seconds(3 * step)))
        }
        let report = try #require(checker.stdoutLines.last, "\(checker.failure("no report"))")
        #expect(termination == .exited(0), "\(report)\n\(checker.stderrLines.joined(separator: "\n"))")
        #expect(report.contains(#""problems":[]"#), "\(report)")
    }
}
