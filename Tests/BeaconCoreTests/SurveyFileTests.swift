import BeaconCore
import Foundation
import SchemaValidation
import Testing

@Suite struct SurveyFileTests {
    static let minimal = #"{"x":3.2,"y":1.5,"gateway":"gw1","rssi":-71.5,"samples":3400}"#

    /// The lines of the ```json blocks of docs/survey.md.
    static func documentedLines() throws -> [String] {
        let markdown = try String(contentsOf: SiteTests.root.appendingPathComponent("docs/survey.md"), encoding: .utf8)
        let blocks = markdown.components(separatedBy: "```json\n").dropFirst().compactMap { $0.components(separatedBy: "```").first }
        return blocks.flatMap { $0.split(separator: "\n").map(String.init) }
    }

    private func decode(_ text: String) throws(SurveyError) -> SurveyFile { try SurveyFile.decode(Array(text.utf8)) }

    private func refusal(_ text: String) -> SurveyError? {
        do {
            _ = try decode(text)
            return nil
        } catch {
            return error
        }
    }

    @Test func theMinimalLineIsAPointOnFloorZeroWithoutSpreadOrTime() throws {
        let file = try decode(Self.minimal)
        #expect(file.points == [SurveyPoint(point: Point2(x: 3.2, y: 1.5), gateway: "gw1", rssi: -71.5, samples: 3400)])
        #expect(file.ignoredMembers.isEmpty)
    }

    @Test func everyMemberIsRead() throws {
        let file = try decode(#"{"x":-1,"y":2,"floor":2,"gateway":"gw 2","rssi":-80,"samples":12,"spread":1.5,"time":"2026-12-03T07:38:29.250Z"}"#)
        #expect(file.points == [SurveyPoint(point: Point2(x: -1, y: 2), floor: 2, gateway: "gw 2", rssi: -80, samples: 12, spread: 1.5,
                                            time: TimestampText.parse("2026-12-03T07:38:29.250Z"))])
    }

    @Test func aGatewayThatHeardNothingIsANullRSSIWithNoSamples() throws {
        let file = try decode(#"{"x":0,"y":0,"gateway":"gw1","rssi":null,"samples":0,"spread":null,"time":null}"#)
        #expect(file.points == [SurveyPoint(point: Point2(x: 0, y: 0), gateway: "gw1", rssi: nil, samples: 0)])
    }

    @Test func emptyLinesCarriageReturnsAndAMissingLastNewlineAreAllowed() throws {
        let file = try decode("\n" + Self.minimal + "\r\n  \n" + Self.minimal)
        #expect(file.points.count == 2)
        #expect(try decode("").points.isEmpty)
    }

    @Test func unknownMembersAreIgnoredAndCountedWithASuggestion() throws {
        let file = try decode(#"{"x":0,"y":0,"gateway":"g","rssi":-60,"samples":1,"sread":2,"beacon":{"id":"b"}}"# + "\n"
                              + #"{"x":0,"y":0,"gateway":"g","rssi":-60,"samples":1,"sread":3}"#)
        #expect(file.points.count == 2)
        #expect(file.ignoredMembers == [.init(name: "sread", lines: 2, firstLine: 1), .init(name: "beacon", lines: 1, firstLine: 1)])
        let warning = try #require(file.ignoredMembersWarning)
        #expect(warning.contains(#""sread" (2 lines from line 1, did you mean 'spread'?)"#))
        #expect(warning.contains(#""beacon" (1 line from line 1)"#))
    }

    @Test(arguments: [
        (#"{"x":1,"y":2,"gateway":"g","rssi":-60,"samples":1"#, 50, "", "not valid JSON"),
        (#"[1,2]"#, 1, "", "expected an object, found an array"),
        (#"{"y":2,"gateway":"g","rssi":-60,"samples":1}"#, 1, "x", "missing"),
        (#"{"x":"1","y":2,"gateway":"g","rssi":-60,"samples":1}"#, 2, "x", "expected a coordinate within ±10000 m, found a string"),
        (#"{"x":1,"y":1e300,"gateway":"g","rssi":-60,"samples":1}"#, 8, "y", "expected a coordinate within ±10000 m"),
        (#"{"x":NaN,"y":1,"gateway":"g","rssi":-60,"samples":1}"#, 6, "", "not valid JSON"),
        (#"{"x":1,"y":1,"floor":1.5,"gateway":"g","rssi":-60,"samples":1}"#, 14, "floor", "expected a whole number"),
        (#"{"x":1,"y":1,"floor":5000,"gateway":"g","rssi":-60,"samples":1}"#, 14, "floor", "from -1000 to 1000"),
        (#"{"x":1,"y":1,"gateway":"","rssi":-60,"samples":1}"#, 14, "gateway", "a non-empty string"),
        (#"{"x":1,"y":1,"gateway":"a\u0007b","rssi":-60,"samples":1}"#, 14, "gateway", "without control characters"),
        (#"{"x":1,"y":1,"gateway":7,"rssi":-60,"samples":1}"#, 14, "gateway", "expected a gateway's name"),
        (#"{"x":1,"y":1,"gateway":"g","rssi":42,"samples":1}"#, 28, "rssi", "expected dBm from -127 to 20, or null when nothing was heard, found 42.0"),
        (#"{"x":1,"y":1,"gateway":"g","rssi":"-60","samples":1}"#, 28, "rssi", "found a string"),
        (#"{"x":1,"y":1,"gateway":"g","rssi":-60}"#, 1, "samples", "missing"),
        (#"{"x":1,"y":1,"gateway":"g","rssi":-60,"samples":2.5}"#, 39, "samples", "expected a whole number"),
        (#"{"x":1,"y":1,"gateway":"g","rssi":-60,"samples":-1}"#, 39, "samples", "from 0 to 1000000000"),
        (#"{"x":1,"y":1,"gateway":"g","rssi":-60,"samples":0}"#, 39, "samples", "at least 1 with an rssi heard"),
        (#"{"x":1,"y":1,"gateway":"g","rssi":null,"samples":4}"#, 40, "samples", "expected 0 with an rssi of null"),
        (#"{"x":1,"y":1,"gateway":"g","rssi":-60,"samples":1,"spread":-2}"#, 51, "spread", "dB from 0 to 100"),
        (#"{"x":1,"y":1,"gateway":"g","rssi":-60,"samples":1,"time":"yesterday"}"#, 51, "time", "expected an ISO 8601 time"),
        (#"{"x":1,"y":1,"gateway":"g","rssi":-60,"samples":1,"x":2}"#, 51, "", "not valid JSON"),
    ] as [(String, Int, String, String)])
    func aMalformedLineIsRefusedNamingItsLineColumnAndMember(text: String, column: Int, field: String, reason: String) throws {
        let error = try #require(refusal(Self.minimal + "\n" + text + "\n" + Self.minimal))
        #expect(error.line == 2)
        #expect(error.column == column)
        #expect(error.field == field)
        #expect(error.reason.contains(reason), "\(error)")
        #expect(error.inFile("s.jsonl").hasPrefix("s.jsonl:2:\(column): "))
        #expect(!error.description.contains("\n"))
    }

    @Test func aColumnCountsCharactersNotBytesAndSkipsNestedMembersOfTheSameName() throws {
        let error = try #require(refusal(#"{"note":{"rssi":1},"é":1,"x":1,"y":1,"gateway":"g","rssi":99,"samples":1}"#))
        #expect(error.column == 52)
        #expect(error.field == "rssi")
    }

    @Test func moreThanTheMostPointsIsAClearErrorAtTheFirstLineOver() throws {
        let line = Array((Self.minimal + "\n").utf8)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(line.count * (SurveyFile.maximumPoints + 1))
        for _ in 0...SurveyFile.maximumPoints { bytes += line }
        #expect(throws: SurveyError(line: SurveyFile.maximumPoints + 1, column: 1, field: "", reason: "more than 100000 points (the limit)")) {
            try SurveyFile.decode(bytes)
        }
    }

    @Test func aFileOverTheSizeLimitIsRefusedWhole() throws {
        let bytes = [UInt8](repeating: UInt8(ascii: "\n"), count: SurveyFile.maximumFileBytes + 1)
        let error = try #require(throws: SurveyError.self) { try SurveyFile.decode(bytes) }
        #expect(error.line == nil)
        #expect(error.inFile("s.jsonl") == "s.jsonl: larger than the limit of 16777216 bytes")
    }

    @Test func theDocumentedLinesAreSurveyPointsAndValidateAgainstTheSchema() throws {
        let lines = try Self.documentedLines()
        #expect(lines.count >= 3)
        for line in lines { #expect(throws: Never.self) { try decode(line) } }
        #expect(try SchemaValidator.problems(lines, schema: "survey.schema.json") == lines.map { _ in nil })
    }

    @Test func theSchemaRefusesWhatTheDecoderRefuses() throws {
        let lines = [#"{"x":1,"y":1,"gateway":"g","rssi":null,"samples":3}"#, #"{"x":1,"y":1,"gateway":"g","rssi":-60,"samples":0}"#,
                     #"{"x":1,"gateway":"g","rssi":-60,"samples":1}"#, #"{"x":1,"y":20000,"gateway":"g","rssi":-60,"samples":1}"#]
        for line in lines { #expect(refusal(line) != nil) }
        #expect(try SchemaValidator.problems(lines, schema: "survey.schema.json").allSatisfy { $0 != nil })
    }
}
