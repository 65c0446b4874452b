import BeaconCore
import Foundation
import Testing

/// `JSONValue` read and written through Swift's Codable, as a scene file holds a site.
@Suite struct JSONValueCodingTests {
    static let text = #"{"s": "x", "n": [1, -2.5e3, 0.1, true, false, null], "o": {"b": {}, "a": []}}"#

    @Test func aDecoderReadsEveryKindOfValueWithMembersInNameOrder() throws {
        let value = try JSONDecoder().decode(JSONValue.self, from: Data(Self.text.utf8))
        #expect(value == .object([("n", .array([.number(1), .number(-2500), .number(0.1), .bool(true), .bool(false), .null])),
                                  ("o", .object([("a", .array([])), ("b", .object([]))])),
                                  ("s", .string("x"))]))
    }

    @Test func anEncoderWritesWhatTheProjectsReaderReadsBack() throws {
        // Members in name order on both sides: an encoder that sorts them, and a decoder's reading.
        let value = try JSONDecoder().decode(JSONValue.self, from: Data(Self.text.utf8))
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let written = try encoder.encode(value)
        #expect(try JSONValue.parse(Array(written), maximumDepth: 8, maximumBytes: 1 << 16) == value)
    }

    @Test func aNumberTooLargeForADoubleIsRefused() {
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(JSONValue.self, from: Data("[1e400]".utf8)) }
    }
}
