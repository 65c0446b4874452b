/// The date and clock text of the latest second a writer printed a time in. A ranging line's times (its
/// own and each beacon's last-heard time) mostly fall in one second, and the date and clock digits are
/// most of what writing a time costs: within the same second only the milliseconds are written.
struct TimeTextCache {
    /// `YYYY-MM-DDTHH:MM:SS.`, the text up to the milliseconds.
    private static let prefixLength = 20

    /// The second (since the epoch) whose text `prefix` holds; nil before the first time.
    private var second: Int64?
    private var prefix: (UInt64, UInt64, UInt32) = (0, 0, 0)

    /// Writes `time`'s `Timestamp.iso8601` text into `text`, which holds exactly `Timestamp.textLength` bytes.
    @inline(__always)
    mutating func write(_ time: Timestamp, into text: UnsafeMutableBufferPointer<UInt8>) {
        let printed = time.clampedToPrintableRange
        let milliseconds = Timestamp.floorDivide(printed.microseconds, 1000)
        let second = Timestamp.floorDivide(milliseconds, 1000)
        let start = UnsafeMutableRawPointer(text.baseAddress!)
        if second == self.second {
            withUnsafeBytes(of: prefix) { start.copyMemory(from: $0.baseAddress!, byteCount: Self.prefixLength) }
            var sink = ByteSink(UnsafeMutableBufferPointer(rebasing: text[Self.prefixLength...]))
            sink.putDigits(UInt64(milliseconds - second * 1000), width: 3)
            sink.put(UInt8(ascii: "Z"))
        } else {
            printed.write(into: text)
            withUnsafeMutableBytes(of: &prefix) { $0.baseAddress!.copyMemory(from: start, byteCount: Self.prefixLength) }
            self.second = second
        }
    }
}
