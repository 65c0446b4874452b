import BeaconCore
import Testing

@Suite("control characters and noncharacters")
struct NameCharactersTests {
    @Test("isControlOrNoncharacter agrees with the Unicode properties (general category Cc, noncharacter code point) on every scalar")
    func agreesWithUnicodeProperties() {
        var disagreements: [String] = []
        for value in UInt32(0)...0x10FFFF {
            guard let scalar = Unicode.Scalar(value) else { continue }  // surrogates are no scalars
            let expected = scalar.properties.generalCategory == .control || scalar.properties.isNoncharacterCodePoint
            if scalar.isControlOrNoncharacter != expected { disagreements.append("U+" + String(value, radix: 16, uppercase: true)) }
        }
        #expect(disagreements.isEmpty, "\(disagreements.prefix(20))")
    }

    @Test("the bounds of each set", arguments: [
        (0x00, true), (0x1F, true), (0x20, false), (0x7E, false), (0x7F, true), (0x9F, true), (0xA0, false),
        (0xFDCF, false), (0xFDD0, true), (0xFDEF, true), (0xFDF0, false), (0xFFFD, false), (0xFFFE, true),
        (0xFFFF, true), (0x1FFFE, true), (0x10FFFF, true), (0x10FFFD, false),
    ] as [(UInt32, Bool)])
    func bounds(value: UInt32, expected: Bool) throws {
        let scalar = try #require(Unicode.Scalar(value))
        #expect(scalar.isControlOrNoncharacter == expected)
    }
}
