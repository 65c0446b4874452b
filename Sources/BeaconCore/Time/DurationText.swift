/// Durations as users type them: plain seconds (`3`, `0.5`) or suffixed (`500ms`, `10s`, `2m`, `1h`).
public enum DurationText {
    /// Parses a non-negative duration; nil when the text is not one of the accepted forms or exceeds a year.
    public static func parse(_ text: String) -> Micros? {
        let units: [(suffix: String, micros: Double)] = [
            ("us", 1), ("ms", 1_000), ("s", 1_000_000), ("m", 60_000_000), ("h", 3_600_000_000),
        ]
        var number = Substring(text)
        var scale = 1_000_000.0
        for unit in units where text.hasSuffix(unit.suffix) {
            // "ms" also ends in "s"; the first match in the list is the longest suffix that fits.
            number = text.dropLast(unit.suffix.count)
            scale = unit.micros
            break
        }
        guard !number.isEmpty,
              number.utf8.allSatisfy({ ($0 >= 48 && $0 <= 57) || $0 == UInt8(ascii: ".") }),
              number.utf8.filter({ $0 == UInt8(ascii: ".") }).count <= 1,
              number.first != ".", number.last != ".",
              let value = Double(number) else { return nil }
        let micros = (value * scale).rounded()
        guard micros.isFinite, micros <= 366 * 86_400 * 1_000_000 else { return nil }
        return Micros(Int64(micros))
    }
}
