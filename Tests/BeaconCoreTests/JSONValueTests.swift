import Testing
import BeaconCore

@Suite struct JSONValueTests {
    private func parse(_ text: String, depth: Int = 32, bytes: Int = 1 << 20) throws(JSONParseError) -> JSONValue {
        try JSONValue.parse(Array(text.utf8), maximumDepth: depth, maximumBytes: bytes)
    }

    private func refusal(_ bytes: [UInt8], depth: Int = 32, limit: Int = 1 << 20) -> String? {
        do {
            _ = try JSONValue.parse(bytes, maximumDepth: depth, maximumBytes: limit)
            return nil
        } catch {
            return error.description
        }
    }

    private func refusal(_ text: String, depth: Int = 32) -> String? { refusal(Array(text.utf8), depth: depth) }

    @Test func readsEveryKindOfValueKeepingMemberOrder() throws {
        let value = try parse(#" {"b": [1, -2.5e3, 0.0], "a": {"t": true, "f": false, "n": null}, "s": "x"} "#)
        #expect(value.object?.map(\.0) == ["b", "a", "s"])
        #expect(value["b"]?.array == [.number(1), .number(-2500), .number(0)])
        #expect(value["a"]?["t"]?.bool == true)
        #expect(value["a"]?["f"]?.bool == false)
        #expect(value["a"]?["n"]?.isNull == true)
        #expect(value["s"]?.string == "x")
        #expect(value["missing"] == nil)
        #expect(value["s"]?["x"] == nil)
    }

    @Test func readsAScalarAsTheWholeText() throws {
        #expect(try parse("42") == .number(42))
        #expect(try parse("\"hi\"") == .string("hi"))
        #expect(try parse("null") == .null)
        #expect(try parse("[]") == .array([]))
        #expect(try parse("{}") == .object([]))
    }

    @Test func decodesEscapesAndSurrogatePairs() throws {
        #expect(try parse(#""a\"\\\/\b\f\n\r\t""#) == .string("a\"\\/\u{08}\u{0C}\n\r\t"))
        #expect(try parse(#""\u00e9\u0000\uFFFD""#) == .string("é\u{0}\u{FFFD}"))
        #expect(try parse(#""\ud83d\ude00 smile""#) == .string("😀 smile"))
        #expect(try parse("\"é😀\"") == .string("é😀"))
    }

    @Test func refusesUnpairedSurrogates() {
        #expect(refusal(#""\ud83d""#) == #"line 1, column 2: unpaired surrogate \uD83D"#)
        #expect(refusal(#""\ud83dx""#)?.contains("unpaired surrogate") == true)
        #expect(refusal(#""\ud83d\u0041""#)?.contains("unpaired surrogate") == true)
        #expect(refusal(#""\ude00""#)?.contains("unpaired surrogate \\uDE00") == true)
    }

    @Test(arguments: [
        [0x22, 0xC0, 0x80, 0x22],             // overlong NUL
        [0x22, 0xE0, 0x80, 0xAF, 0x22],       // overlong '/'
        [0x22, 0xED, 0xA0, 0x80, 0x22],       // encoded surrogate
        [0x22, 0xF4, 0x90, 0x80, 0x80, 0x22], // above U+10FFFF
        [0x22, 0xFF, 0x22],
        [0x22, 0xC3, 0x22],                    // cut short
        [0x22, 0xE2, 0x82],                    // cut short at the end of input
    ] as [[UInt8]])
    func refusesInvalidUTF8(bytes: [UInt8]) {
        #expect(refusal(bytes) == "line 1, column 2: invalid UTF-8")
    }

    @Test func refusesNumbersOutOfRange() {
        #expect(refusal("[1e309]") == "line 1, column 2: number out of range")
        #expect(refusal("-1e400") == "line 1, column 1: number out of range")
        #expect(try! parse("1e-400") == .number(0))
        #expect(try! parse("-0") == .number(0))
        #expect(try! parse("1.7976931348623157e308") == .number(.greatestFiniteMagnitude))
    }

    @Test(arguments: ["NaN", "Infinity", "-Infinity", "[NaN]"])
    func refusesNaNAndInfinity(text: String) {
        #expect(refusal(text)?.hasSuffix("NaN and Infinity are not JSON numbers") == true)
    }

    @Test(arguments: [
        ("01", "line 1, column 1: a number may not have a leading zero"),
        ("1.", "line 1, column 3: unexpected end of input, expected a digit after '.'"),
        (".5", "line 1, column 1: expected a value"),
        ("+1", "line 1, column 1: expected a value"),
        ("1e", "line 1, column 3: unexpected end of input, expected a digit in the exponent"),
        ("-", "line 1, column 2: unexpected end of input, expected a digit"),
        ("0x10", "line 1, column 2: unexpected text after the value"),
    ])
    func refusesMalformedNumbers(text: String, reason: String) {
        #expect(refusal(text) == reason)
    }

    @Test func refusesDuplicateKeysNamingThem() {
        #expect(refusal(#"{"a":1,"b":2,"a":3}"#) == #"line 1, column 14: duplicate member "a""#)
        #expect(refusal(#"{"a":1,"\u0061":3}"#)?.contains(#"duplicate member "a""#) == true)
    }

    @Test("a duplicate key is found in an object of any size: among few members, and among many, before and after the 16th")
    func refusesDuplicateKeysInLargeObjects() throws {
        func object(_ keys: [String]) -> String { "{" + keys.map { #""\#($0)":0"# }.joined(separator: ",") + "}" }
        let distinct = (0..<40).map { "k\($0)" }
        #expect(try parse(object(distinct)).object?.count == 40)
        for (first, again) in [(0, 15), (3, 16), (0, 39), (20, 39), (15, 16), (16, 17)] {
            var keys = distinct
            keys[again] = keys[first]
            #expect(refusal(object(keys))?.contains(#"duplicate member "k\#(first)""#) == true, "k\(first) again as member \(again)")
        }
    }

    @Test func refusesTrailingGarbage() {
        #expect(refusal("{} x") == "line 1, column 4: unexpected text after the value")
        #expect(refusal("[1] [2]") == "line 1, column 5: unexpected text after the value")
        #expect(refusal("1 2") != nil)
    }

    @Test func errorsNameLineAndColumn() {
        #expect(refusal("{\n  \"a\": 1,\n  \"b\": 2 \"c\"\n}") == "line 3, column 10: expected ',' or '}'")
        #expect(refusal("[1,\n 2") == "line 2, column 3: unexpected end of input, expected ',' or ']'")
        #expect(refusal("\"é\" x") == "line 1, column 5: unexpected text after the value")
        #expect(refusal("{\"a\" 1}") == "line 1, column 6: expected ':'")
        #expect(refusal("{1:2}") == "line 1, column 2: expected a member name in quotes")
        #expect(refusal("[1,]") == "line 1, column 4: expected a value")
        #expect(refusal("[tru]") == "line 1, column 2: expected a value")
        #expect(refusal("") == "line 1, column 1: unexpected end of input, expected a value")
        #expect(refusal("\"abc") == "line 1, column 1: unterminated string")
        #expect(refusal("\"a\\x\"") == "line 1, column 3: invalid escape in a string")
        #expect(refusal("\"\\u12G4\"") == "line 1, column 2: \\u needs four hex digits")
    }

    @Test func refusesUnescapedControlCharactersInStrings() {
        #expect(refusal("\"a\tb\"") == "line 1, column 3: control character U+0009 in a string must be escaped")
        #expect(refusal("\"a\nb\"")?.contains("U+000A") == true)
    }

    @Test func refusesAByteOrderMarkAndNonJSONWhitespace() {
        #expect(refusal([0xEF, 0xBB, 0xBF] + Array("{}".utf8)) == "line 1, column 1: expected a value")
        #expect(refusal("\u{0C}1") == "line 1, column 1: expected a value")
        #expect(try! parse(" \t\r\n1\n") == .number(1))
    }

    @Test func refusesNestingDeeperThanTheLimitNamingIt() throws {
        #expect(try parse("[[[1]]]", depth: 3) == .array([.array([.array([.number(1)])])]))
        #expect(refusal("[[[[1]]]]", depth: 3) == "line 1, column 4: nested more than 3 deep (the limit)")
        #expect(refusal(#"{"a":{"b":[]}}"#, depth: 2) == "line 1, column 11: nested more than 2 deep (the limit)")
        #expect(refusal("1", depth: 0) == nil)
        #expect(refusal("[]", depth: 0)?.contains("nested more than 0 deep") == true)
    }

    @Test func refusesAMillionOpeningBracketsWithoutRecursingThroughThem() {
        let deep = [UInt8](repeating: UInt8(ascii: "["), count: 1_000_000)
        #expect(refusal(deep, depth: 64, limit: 2_000_000) == "line 1, column 65: nested more than 64 deep (the limit)")
    }

    @Test func refusesTextLargerThanTheLimitNamingIt() {
        #expect(refusal(Array("[1, 2]".utf8), limit: 5) == "larger than the limit of 5 bytes")
        #expect(refusal(Array("[1, 2]".utf8), limit: 6) == nil)
    }

    @Test func duplicateKeyErrorsQuoteControlCharactersAndCutLongNames() {
        let control = refusal(#"{"\u0001":1,"\u0001":2}"#)
        #expect(control?.contains(#"duplicate member "\u{"#) == true)
        #expect(control?.unicodeScalars.contains("\u{1}") == false)
        let long = String(repeating: "k", count: 100)
        let reason = refusal("{\"\(long)\":1,\"\(long)\":2}")
        #expect(reason?.hasSuffix("\"" + String(repeating: "k", count: 40) + "…\"") == true)
    }

    @Test func neverTrapsOnTruncationsOfAValidText() {
        let text = Array(#"{"a":[1,-2.5e-3,"\ud83d\ude00é",true,false,null,{"b":{}}]}"#.utf8)
        for end in 0..<text.count {
            #expect(refusal(Array(text[..<end])) != nil, "prefix of \(end) bytes")
        }
        #expect(refusal(text) == nil)
    }
}
