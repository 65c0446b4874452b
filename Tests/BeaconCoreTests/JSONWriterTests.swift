import Foundation
import Testing
import BeaconCore

@Suite("JSONWriter")
struct JSONWriterTests {
    func written(_ body: (inout JSONWriter) -> Void) -> String {
        var w = JSONWriter()
        body(&w)
        return w.text
    }

    @Test func orderedKeysNestingAndNoSpaces() {
        let text = written { w in
            w.object { o in
                o.field("z", 1)
                o.field("a", "x")
                o.field("nested", object: { n in
                    n.field("empty", array: { _ in })
                    n.field("list", array: { l in
                        l.integer(-3)
                        l.string("s")
                        l.object { _ in }
                        l.array { inner in inner.bool(true); inner.null() }
                        l.number(1.5, decimals: 2)
                    })
                })
                o.field("flag", false)
            }
        }
        #expect(text == #"{"z":1,"a":"x","nested":{"empty":[],"list":[-3,"s",{},[true,null],1.50]},"flag":false}"#)
    }

    @Test(arguments: [
        ("plain", #""plain""#),
        ("quote \" and backslash \\", #""quote \" and backslash \\""#),
        ("slash / stays", #""slash / stays""#),
        ("\u{08}\u{0C}\n\r\t", #""\b\f\n\r\t""#),
        ("\u{00}\u{01}\u{1F}", #""\u0000\u0001\u001f""#),
        ("\u{7F} del is not a control char in JSON", "\"\u{7F} del is not a control char in JSON\""),
        ("é ß 漢 🙂", "\"é ß 漢 🙂\""),          // non-ASCII is written as UTF-8
        ("\u{2028}", "\"\u{2028}\""),
    ])
    func stringEscaping(input: String, expected: String) {
        #expect(written { $0.string(input) } == expected)
    }

    @Test("every character from U+0000 to U+00FF, in strings long enough to grow the writer many times, reads back through Foundation's JSON parser")
    func longStringsReadBackByAnotherParser() throws {
        let all = String((0...0xFF).map { Character(Unicode.Scalar(UInt8($0))) })
        let long = String(repeating: all, count: 40)
        var w = JSONWriter(capacity: 16)
        w.object { o in
            o.key(escaping: all)
            o.string(long)
            o.field("n", 1.25, decimals: 2)
        }
        let parsed = try JSONSerialization.jsonObject(with: Data(w.bytes)) as? [String: Any]
        #expect(parsed?[all] as? String == long)
        #expect(parsed?["n"] as? Double == 1.25)
        #expect(w.capacity >= w.count && w.count > long.utf8.count)
    }

    @Test("members one after another: commas, nulls, a nested object, wide integers, and fixed and shortest decimals")
    func membersOneAfterAnother() {
        let text = written { w in
            w.object { o in
                o.field("first", 1)
                o.field("id", Fixture.uuid)
                o.field("none", nil as UInt16?)
                o.field("some", 7 as UInt16?)
                o.field("unknown", nil, decimals: 1)
                o.field("nan", .nan, decimals: 1)
                o.field("big", 1e20, decimals: 1)
                o.field("rounded", -0.04, decimals: 1)
                o.field("wide", UInt64.max)
                o.field("inner", object: { i in
                    i.field("ok", true)
                    i.field("text", "a\"b")
                })
                o.field("empty", object: { _ in })
                o.field("last", "x")
            }
        }
        #expect(text == #"{"first":1,"id":"E2C56DB5-DFFB-48D2-B060-D0F5A71096E0","none":null,"some":7,"unknown":null,"nan":null,"big":1e+20,"rounded":0.0,"wide":18446744073709551615,"inner":{"ok":true,"text":"a\"b"},"empty":{},"last":"x"}"#)
    }

    @Test("members larger than the room the writer holds grow it and are written whole, once")
    func membersLargerThanTheRoomGrowTheWriter() throws {
        let long = String(repeating: "\u{01}é", count: 700)
        var w = JSONWriter(capacity: 16)
        w.object { o in
            o.field("a", long)
            o.field("b", 2)
            o.field("c", long)
        }
        #expect(w.capacity >= w.count && w.count > 2 * long.utf8.count)
        let parsed = try JSONSerialization.jsonObject(with: Data(w.bytes)) as? [String: Any]
        #expect(parsed?.count == 3)
        #expect(parsed?["a"] as? String == long && parsed?["c"] as? String == long)
        #expect(parsed?["b"] as? Int == 2)
    }

    @Test func keysFromElsewhereAreEscaped() {
        #expect(written { w in w.object { o in o.key(escaping: "a\"b\n"); o.integer(1) } } == #"{"a\"b\n":1}"#)
    }

    @Test func schemaKeysAreWrittenAsGiven() {
        #expect(written { w in w.object { $0.field("measuredPowerValid", true) } } == #"{"measuredPowerValid":true}"#)
    }

    @Test func identifiersAreWrittenInPlace() {
        let uuid = BeaconUUID(high: 0xE2C5_6DB5_DFFB_48D2, low: 0xB060_D0F5_A710_96E0)
        let address = DeviceAddress(value: 0xC0_01_02_03_04_0F)
        #expect(written { w in w.object { $0.field("uuid", uuid); $0.field("address", address) } }
                == #"{"uuid":"E2C56DB5-DFFB-48D2-B060-D0F5A71096E0","address":"C0:01:02:03:04:0F"}"#)
        #expect(uuid.description == "E2C56DB5-DFFB-48D2-B060-D0F5A71096E0")
        #expect(address.description == "C0:01:02:03:04:0F")
    }

    @Test(arguments: [
        (-50.0, 1, "-50.0"),
        (-53.333333, 1, "-53.3"),
        (-52.25, 1, "-52.3"),      // half away from zero
        (0.3548133892335755, 2, "0.35"),
        (10.0, 2, "10.00"),
        (-1.0, 2, "-1.00"),
        (-0.004, 2, "0.00"),       // never -0
        (0.005, 2, "0.01"),
        (123456.789, 0, "123457"),
        (0.05, 2, "0.05"),         // zeros between the point and the first digit
        (-0.5, 3, "-0.500"),
        (7.0, 0, "7"),
        (1.000000001, 9, "1.000000001"),
        (3.0e20, 2, "3e+20"),      // beyond fixed-point range: shortest form
        (0.49999999999999994, 0, "0"),  // just below a half: adding 0.5 would round it up
        (2.5, 0, "3"),
        (-2.5, 0, "-3"),
        (100_000_000_000_000.5, 0, "100000000000001"),
    ])
    func fixedDecimals(value: Double, decimals: Int, expected: String) {
        #expect(written { $0.number(value, decimals: decimals) } == expected)
    }

    @Test("times in members print as Timestamp.iso8601 does, in the same second, across seconds and days, before 1970 and clamped")
    func timesInMembers() {
        let times = [1_790_000_000_000_000, 1_790_000_000_123_456, 1_790_000_000_999_999, 1_790_000_001_000_000,
                     1_790_000_000_500_000, 1_790_006_400_000_000, -1, -1_000, -999_999, -1_000_000, 0,
                     Int64.min, Int64.max, 1_790_000_000_000_000].map { Timestamp(microseconds: $0) }
        var w = JSONWriter()
        for time in times {
            w.object { $0.field("time", time) }
            w.endLine()
        }
        #expect(w.text == times.map { #"{"time":"\#($0.iso8601)"}"# + "\n" }.joined())
    }

    @Test func nonFiniteIsNull() {
        let text = written { w in
            w.array { a in
                a.number(.nan, decimals: 2)
                a.number(.infinity, decimals: 1)
                a.number(-.infinity, decimals: 0)
            }
        }
        #expect(text == "[null,null,null]")
    }

    @Test func integersOfAnyWidth() {
        let text = written { w in
            w.array { a in
                a.integer(Int8(-128))
                a.integer(UInt16(65535))
                a.integer(Int64.min)
                a.integer(UInt64.max)
            }
        }
        #expect(text == "[-128,65535,-9223372036854775808,18446744073709551615]")
    }

}

@Suite("JSONWriter lines")
struct JSONWriterLinesTests {
    @Test("values, and lines encoded elsewhere, each end with a newline and no comma joins them")
    func linesInOneBuffer() {
        var w = JSONWriter()
        w.object { $0.field("n", 1) }
        w.endLine()
        w.appendLine(#"{"n":2}"#)
        w.object { $0.field("n", 3) }
        w.endLine()
        #expect(w.text == "{\"n\":1}\n{\"n\":2}\n{\"n\":3}\n")
    }

    @Test("removeWritten drops the bytes but keeps the writer's place and capacity: a value goes on in the next piece")
    func removeWrittenKeepsPlace() {
        var w = JSONWriter()
        var first = ""
        w.object { o in
            o.field("beacons", array: { list in
                list.integer(1)
                first = list.text
                list.removeWritten()
                list.integer(2)
            })
        }
        #expect(first == #"{"beacons":[1"#)
        #expect(w.text == ",2]}")
        w.endLine()
        w.removeWritten()
        #expect(w.count == 0)
        let capacity = w.capacity
        w.integer(7)
        #expect(w.text == "7")
        #expect(w.capacity == capacity)
    }
}
