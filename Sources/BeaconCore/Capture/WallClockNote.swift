/// The note `--record` writes whenever the wall clock that lines are printed by moves against the
/// schedule (a step of the wall clock, a stopped process, a replayed capture's step back): a Linux
/// monitor System Note, which btmon shows as `= Note: …` and Wireshark as `System Note`, reading
///
///     beacon wall clock: record time +3600.000000s (stepped forward 3600.000s)
///
/// Records carry schedule time (never stepping); from the note on, the lines of the run printed times
/// that much later than its records. The part in parentheses says why, for people; readers ignore it.
public enum WallClockNote {
    public static let prefix = "beacon wall clock: record time "

    /// The note's text, without the terminating NUL the record adds.
    public static func text(offset: Micros, cause: String) -> String {
        let magnitude = offset.value.magnitude
        let fraction = String(magnitude % 1_000_000)
        return prefix + (offset.value < 0 ? "-" : "+") + "\(magnitude / 1_000_000)."
            + String(repeating: "0", count: 6 - fraction.count) + fraction + "s (\(cause))"
    }

    /// The System Note record's data: the text and a NUL, as btmon writes notes.
    public static func data(offset: Micros, cause: String) -> [UInt8] {
        Array(text(offset: offset, cause: cause).utf8) + [0]
    }

    /// The offset a System Note's data gives, nil for any other note (or one whose number is not
    /// `±SECONDS.MICROSs` within the range of times).
    public static func offset<Data: Collection>(in data: Data) -> Micros? where Data.Element == UInt8 {
        // Everything up to the NUL (or the end); a note is short, a copy costs nothing.
        let bytes = Array(data.prefix { $0 != 0 })
        let prefix = Array(Self.prefix.utf8)
        guard bytes.count > prefix.count, bytes.starts(with: prefix) else { return nil }
        var rest = bytes[prefix.count...]
        guard let sign = rest.popFirst(), sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") else { return nil }
        let number = rest.prefix { $0 != UInt8(ascii: "s") }
        let parts = number.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        let digits = { (part: ArraySlice<UInt8>) in !part.isEmpty && part.allSatisfy { $0 >= 0x30 && $0 <= 0x39 } }
        guard number.count < rest.count, parts.count == 2, digits(parts[0]), parts[1].count == 6, digits(parts[1]),
              parts[0].count <= 12 else { return nil }
        let value = { (part: ArraySlice<UInt8>) in part.reduce(Int64(0)) { $0 * 10 + Int64($1 - 0x30) } }
        let microseconds = value(parts[0]) * 1_000_000 + value(parts[1])
        return Micros(sign == UInt8(ascii: "-") ? -microseconds : microseconds)
    }
}
