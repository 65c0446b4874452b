/// Times as users type them: ISO-8601 date and time, `2026-01-01T00:00:00Z`, with optional fractional
/// seconds (up to microseconds) and a `Z` or `±HH:MM` offset. The inverse of `Timestamp.iso8601`.
public enum TimestampText {
    /// Parses `YYYY-MM-DDTHH:MM:SS[.ffffff](Z|±HH:MM)`; nil for anything else, including impossible
    /// dates (February 30) and leap seconds.
    public static func parse(_ text: String) -> Timestamp? {
        var scanner = DigitScanner(Array(text.utf8))
        guard let year = scanner.number(digits: 4), scanner.skip("-"),
              let month = scanner.number(digits: 2), scanner.skip("-"),
              let day = scanner.number(digits: 2), scanner.skip("T") || scanner.skip("t"),
              let hour = scanner.number(digits: 2), scanner.skip(":"),
              let minute = scanner.number(digits: 2), scanner.skip(":"),
              let second = scanner.number(digits: 2) else { return nil }
        var micros: Int64 = 0
        if scanner.skip(".") {
            var places = 0
            while let digit = scanner.digit() {
                places += 1
                guard places <= 6 else { return nil }
                micros = micros * 10 + digit
            }
            guard places > 0 else { return nil }
            for _ in places..<6 { micros *= 10 }
        }
        var offsetMinutes: Int64 = 0
        if !(scanner.skip("Z") || scanner.skip("z")) {
            let sign: Int64
            if scanner.skip("+") { sign = 1 } else if scanner.skip("-") { sign = -1 } else { return nil }
            guard let hours = scanner.number(digits: 2), scanner.skip(":"), let minutes = scanner.number(digits: 2),
                  hours <= 23, minutes <= 59 else { return nil }
            offsetMinutes = sign * (hours * 60 + minutes)
        }
        guard scanner.isAtEnd, (1...12).contains(month), day >= 1, day <= daysIn(month: month, year: year),
              hour <= 23, minute <= 59, second <= 59 else { return nil }
        let seconds = days(year: year, month: month, day: day) * 86_400 + hour * 3600 + minute * 60 + second
            - offsetMinutes * 60
        return Timestamp(microseconds: seconds * 1_000_000 + micros)
    }

    /// Days from 1970-01-01 to a proleptic Gregorian date (Howard Hinnant's days_from_civil).
    static func days(year: Int64, month: Int64, day: Int64) -> Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    static func daysIn(month: Int64, year: Int64) -> Int64 {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }
}

/// Reads ASCII digits and punctuation from the front of a byte array.
private struct DigitScanner {
    private let bytes: [UInt8]
    private var index = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    var isAtEnd: Bool { index == bytes.count }

    mutating func skip(_ character: Unicode.Scalar) -> Bool {
        guard index < bytes.count, bytes[index] == UInt8(ascii: character) else { return false }
        index += 1
        return true
    }

    mutating func digit() -> Int64? {
        guard index < bytes.count, bytes[index] >= 48, bytes[index] <= 57 else { return nil }
        index += 1
        return Int64(bytes[index - 1] - 48)
    }

    /// Exactly `digits` digits.
    mutating func number(digits: Int) -> Int64? {
        var value: Int64 = 0
        for _ in 0..<digits {
            guard let digit = digit() else { return nil }
            value = value * 10 + digit
        }
        return value
    }
}
