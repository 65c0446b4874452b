/// A point in time in microseconds since the Unix epoch: the resolution of btsnoop records, so a
/// recorded run and its replay see exactly the same instants.
public struct Timestamp: Hashable, Comparable, Sendable, ASCIIText {
    public var microseconds: Int64

    @inlinable
    public init(microseconds: Int64) { self.microseconds = microseconds }

    @inlinable
    public static func < (a: Timestamp, b: Timestamp) -> Bool { a.microseconds < b.microseconds }

    // The ranges below are constants inlined where they are used: a replay tests every capture time
    // against them in another module, where a stored range would be read through a call.

    /// The times the ranging state machines work with: about ±146,000 years around 1970, so adding a
    /// session's durations cannot overflow. A capture can hold any 64-bit time.
    @inlinable
    public static var supportedRange: ClosedRange<Timestamp> {
        ClosedRange(uncheckedBounds: (Timestamp(microseconds: -(1 << 62)), Timestamp(microseconds: 1 << 62)))
    }

    /// This time moved into `supportedRange`.
    @inlinable
    public var clampedToSupportedRange: Timestamp {
        min(max(self, Self.supportedRange.lowerBound), Self.supportedRange.upperBound)
    }

    public static func + (t: Timestamp, d: Micros) -> Timestamp { Timestamp(microseconds: t.microseconds &+ d.value) }
    public static func - (a: Timestamp, b: Timestamp) -> Micros { Micros(a.microseconds &- b.microseconds) }

    /// The times a four-digit ISO-8601 year can show, 0000-01-01T00:00:00.000Z to 9999-12-31T23:59:59.999Z:
    /// `iso8601` prints a time outside them as the nearest end, so every printed time keeps its format.
    @inlinable
    public static var printableRange: ClosedRange<Timestamp> {
        ClosedRange(uncheckedBounds: (Timestamp(microseconds: -62_167_219_200_000_000), Timestamp(microseconds: 253_402_300_799_999_999)))
    }

    /// This time moved into `printableRange`: the time `iso8601` prints.
    var clampedToPrintableRange: Timestamp {
        min(max(self, Self.printableRange.lowerBound), Self.printableRange.upperBound)
    }

    /// ISO-8601 UTC with millisecond precision, e.g. `2026-11-29T12:00:00.000Z`; clamped to `printableRange`.
    public var iso8601: String { description }

    /// `iso8601`'s length: every printed time has a four-digit year.
    public static let textLength = 24

    /// Writes `iso8601`'s text in place: every output line carries times.
    public func write(into text: UnsafeMutableBufferPointer<UInt8>) {
        let printed = clampedToPrintableRange
        let ms = Self.floorDivide(printed.microseconds, 1000)
        let secs = Self.floorDivide(ms, 1000)
        let milli = ms - secs * 1000
        let days = Self.floorDivide(secs, 86400)
        let secOfDay = secs - days * 86400
        let (y, m, d) = Timestamp.civil(fromDays: days)
        // Every part is in range for its width: the year is clamped to four digits above.
        var sink = ByteSink(text)
        sink.putDigits(UInt64(y), width: 4)
        sink.put(UInt8(ascii: "-"))
        sink.putDigits(UInt64(m), width: 2)
        sink.put(UInt8(ascii: "-"))
        sink.putDigits(UInt64(d), width: 2)
        sink.put(UInt8(ascii: "T"))
        sink.putDigits(UInt64(secOfDay / 3600), width: 2)
        sink.put(UInt8(ascii: ":"))
        sink.putDigits(UInt64(secOfDay / 60 % 60), width: 2)
        sink.put(UInt8(ascii: ":"))
        sink.putDigits(UInt64(secOfDay % 60), width: 2)
        sink.put(UInt8(ascii: "."))
        sink.putDigits(UInt64(milli), width: 3)
        sink.put(UInt8(ascii: "Z"))
    }

    /// `value / divisor` rounded towards negative infinity, for any value (a capture may hold Int64.min).
    @inline(__always)
    static func floorDivide(_ value: Int64, _ divisor: Int64) -> Int64 {
        value >= 0 ? value / divisor : (value + 1) / divisor - 1
    }

    /// Days since 1970-01-01 to a proleptic Gregorian date (Howard Hinnant's algorithm).
    static func civil(fromDays z0: Int64) -> (Int64, Int64, Int64) {
        let z = z0 + 719468
        let era = (z >= 0 ? z : z - 146096) / 146097
        let doe = z - era * 146097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365
        let y = yoe + era * 400
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        return (m <= 2 ? y + 1 : y, m, d)
    }
}

/// A span of time in microseconds.
public struct Micros: Hashable, Comparable, Sendable, CustomStringConvertible {
    public var value: Int64

    @inlinable
    public init(_ value: Int64) { self.value = value }
    @inlinable
    public static func milliseconds(_ ms: Int64) -> Micros { Micros(ms * 1000) }
    public static func seconds(_ s: Int64) -> Micros { Micros(s * 1_000_000) }

    public static func < (a: Micros, b: Micros) -> Bool { a.value < b.value }
    public var seconds: Double { Double(value) / 1_000_000 }

    /// Its magnitude in seconds to the millisecond, rounded: `30.000s`, `0.900s`.
    public var secondsToTheMillisecond: String {
        let milliseconds = value.magnitude / 1000 + (value.magnitude % 1000 >= 500 ? 1 : 0)
        let millis = String(milliseconds % 1000)
        return "\(milliseconds / 1000).\(String(repeating: "0", count: 3 - millis.count))\(millis)s"
    }

    /// Short human form: `1s`, `500ms`, `1.5s`.
    public var description: String {
        if value % 1_000_000 == 0 { return "\(value / 1_000_000)s" }
        if value % 1000 == 0 { return "\(value / 1000)ms" }
        return "\(value)us"
    }
}
