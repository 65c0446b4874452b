import BeaconCore
import Testing

/// Inputs the fuzz targets in fuzz/ found breaking the library, kept so the bugs stay fixed.
@Suite("fuzz regressions")
struct FuzzRegressionTests {
    /// fuzz/FuzzTransportSpec.swift: U+070F (a prepended-concatenation mark) before the "," joins both into one
    /// character, so the canonical "serial:DEV\u{70F},115200" did not parse back (the baud became part of the device).
    @Test("transport spec separators are found after a character that joins the next one")
    func separatorAfterPrependCharacter() throws {
        // The failing input: "serial:/v", 0x01, a lead byte without its continuation, then U+070F twice.
        let input: [UInt8] = [0x73, 0x65, 0x72, 0x69, 0x61, 0x6C, 0x3A, 0x2F, 0x76, 0x01, 0xC5, 0xDC, 0x8F, 0xDC, 0x8F]
        let text = String(decoding: input, as: UTF8.self)
        let spec = try TransportSpec.parse(text)
        #expect(spec == .serial(device: "/v\u{01}\u{FFFD}\u{070F}\u{070F}", baud: 115200, rtscts: false))
        #expect(try TransportSpec.parse(spec.description) == spec)

        #expect(try TransportSpec.parse("serial:/dev/x\u{070F},9600,rtscts") == .serial(device: "/dev/x\u{070F}", baud: 9600, rtscts: true))
        #expect(try TransportSpec.parse("tcp:host\u{070F}:9001") == .tcp(host: "host\u{070F}", port: 9001))
        #expect(throws: TransportSpecError(text: "unix\u{070F}:/run/h4", problem: .unknownForm)) {
            try TransportSpec.parse("unix\u{070F}:/run/h4")
        }
    }
}
