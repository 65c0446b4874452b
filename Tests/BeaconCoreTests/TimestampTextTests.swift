import BeaconCore
import Testing

@Suite("ISO-8601 times")
struct TimestampTextTests {
    @Test("date and time in UTC, with fractions and offsets", arguments: [
        ("1970-01-01T00:00:00Z", 0),
        ("2026-01-01T00:00:00Z", 1_767_225_600_000_000),
        ("2026-01-01T00:00:00.5Z", 1_767_225_600_500_000),
        ("2026-01-01T00:00:00.000001Z", 1_767_225_600_000_001),
        ("2026-01-01t01:00:00+01:00", 1_767_225_600_000_000),
        ("2025-12-31T23:30:00-00:30", 1_767_225_600_000_000),
        ("2024-02-29T12:00:00Z", 1_709_208_000_000_000),
        ("1969-12-31T23:59:59Z", -1_000_000),
    ] as [(String, Int64)])
    func parses(text: String, micros: Int64) {
        #expect(TimestampText.parse(text) == Timestamp(microseconds: micros))
    }

    @Test("the inverse of Timestamp.iso8601")
    func roundTrip() {
        for micros: Int64 in [0, 1_767_225_600_123_000, 4_102_444_799_999_000, 951_782_400_000_000] {
            let time = Timestamp(microseconds: micros)
            #expect(TimestampText.parse(time.iso8601) == time)
        }
    }

    @Test("anything else is refused", arguments: [
        "", "2026-01-01", "2026-01-01T00:00:00", "2026-01-01 00:00:00Z", "2026-1-01T00:00:00Z", "2026-13-01T00:00:00Z",
        "2026-02-29T00:00:00Z", "2026-04-31T00:00:00Z", "2026-01-01T24:00:00Z", "2026-01-01T00:60:00Z",
        "2026-01-01T00:00:60Z", "2026-01-01T00:00:00.Z", "2026-01-01T00:00:00.1234567Z", "2026-01-01T00:00:00+0100",
        "2026-01-01T00:00:00Zjunk", "2026-01-01T00:00:00+24:00",
    ])
    func refuses(text: String) {
        #expect(TimestampText.parse(text) == nil)
    }
}
