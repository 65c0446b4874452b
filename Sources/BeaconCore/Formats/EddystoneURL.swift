/// A URL as an Eddystone-URL frame carries it: a URL Scheme Prefix code, then at most 17 bytes in which
/// the codes 0x00...0x0D stand for common endings (".com/", ".org", …) and every other byte is the
/// character itself, printable ASCII 0x21...0x7E. The bytes are held inline so a frame is a plain value.
public struct EddystoneURL: Hashable, Sendable, CustomStringConvertible {
    /// URL Scheme Prefix: 0x00 `http://www.`, 0x01 `https://www.`, 0x02 `http://`, 0x03 `https://`.
    public var scheme: UInt8
    private var words: (UInt64, UInt64, UInt64) = (0, 0, 0)
    public private(set) var count: Int = 0

    /// Scheme prefixes by code (Eddystone-URL, URL Scheme Prefix).
    public static let schemes = ["http://www.", "https://www.", "http://", "https://"]
    /// Expansions by code 0x00...0x0D (Eddystone-URL, HTTP URL encoding).
    public static let expansions = [".com/", ".org/", ".edu/", ".net/", ".info/", ".biz/", ".gov/",
                                    ".com", ".org", ".edu", ".net", ".info", ".biz", ".gov"]
    /// The most encoded bytes a frame carries after the scheme: what fits after the flags, the
    /// service UUID list and the service data header of a 31-byte advertisement.
    public static let maximumEncodedLength = 17
    /// Characters carried as themselves; 0x0E...0x20 and 0x7F...0xFF are reserved.
    public static let literalRange: ClosedRange<UInt8> = 0x21...0x7E

    /// Reads the scheme and encoded URL; throws naming the offset of a reserved scheme or byte
    /// (0x0E...0x20 and 0x7F...0xFF are reserved) or of a URL longer than 17 bytes.
    init(reading r: inout ByteReader) throws(DecodeError) {
        scheme = try r.u8("URL scheme prefix")
        guard Int(scheme) < Self.schemes.count else {
            throw DecodeError(offset: r.offset - 1, field: "URL scheme prefix", needed: 0, available: r.remaining + 1,
                              reason: "reserved scheme prefix 0x\(Hex.encode([scheme]))")
        }
        guard r.remaining <= Self.maximumEncodedLength else {
            throw r.invalid("encoded URL", "\(r.remaining) bytes, at most \(Self.maximumEncodedLength)")
        }
        while !r.isAtEnd {
            let offset = r.offset
            let byte = try r.u8("encoded URL")
            guard Int(byte) < Self.expansions.count || Self.literalRange.contains(byte) else {
                throw DecodeError(offset: offset, field: "encoded URL", needed: 0, available: r.remaining + 1,
                                  reason: "reserved byte 0x\(Hex.encode([byte]))")
            }
            append(byte)
        }
    }

    public enum EncodingError: Error, Equatable, Sendable, CustomStringConvertible {
        /// The URL does not start with one of the four schemes.
        case noScheme
        /// A character outside printable ASCII; `offset` counts characters (Unicode scalars) from the start.
        case disallowedCharacter(offset: Int, Unicode.Scalar)
        /// The shortest encoding after the scheme needs `length` bytes.
        case tooLong(length: Int)

        /// What is wrong and what to do, for an error line.
        public var description: String {
            switch self {
            case .noScheme:
                "expected a URL starting with http:// or https://"
            case let .disallowedCharacter(offset, scalar):
                "character \(offset + 1) (U+\(Self.codePoint(scalar))) is not printable ASCII; percent-encode it (%XX)"
            case let .tooLong(length):
                "encodes to \(length) bytes after the scheme, and Eddystone-URL carries at most \(EddystoneURL.maximumEncodedLength); use a shorter URL"
            }
        }

        /// At least four upper-case hex digits, as U+ notation writes a code point.
        private static func codePoint(_ scalar: Unicode.Scalar) -> String {
            let digits = String(scalar.value, radix: 16, uppercase: true)
            return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
        }
    }

    /// The shortest encoding of `text`: among the schemes it starts with and every way of covering the
    /// rest with expansion codes and single characters, the fewest bytes.
    public init(_ text: String) throws(EncodingError) {
        for (offset, scalar) in text.unicodeScalars.enumerated()
        where !(scalar.isASCII && Self.literalRange.contains(UInt8(scalar.value))) {
            throw .disallowedCharacter(offset: offset, scalar)
        }
        let bytes = Array(text.utf8)
        var best: (scheme: UInt8, encoded: [UInt8])?
        // Longer prefixes first, so a tie keeps "https://www." over "https://" + "www.".
        for (code, prefix) in Self.schemes.enumerated().sorted(by: { $0.element.utf8.count > $1.element.utf8.count }) {
            let prefixBytes = Array(prefix.utf8)
            guard bytes.starts(with: prefixBytes) else { continue }
            let encoded = Self.shortestEncoding(bytes[prefixBytes.count...])
            if let shortest = best, shortest.encoded.count <= encoded.count { continue }
            best = (UInt8(code), encoded)
        }
        guard let best else { throw .noScheme }
        guard best.encoded.count <= Self.maximumEncodedLength else { throw .tooLong(length: best.encoded.count) }
        scheme = best.scheme
        for byte in best.encoded { append(byte) }
    }

    /// Fewest bytes for `rest` (printable ASCII only), by dynamic programming from the end: at each
    /// position either one character or any expansion that matches there. Ties take the expansion.
    static func shortestEncoding(_ rest: ArraySlice<UInt8>) -> [UInt8] {
        let characters = Array(rest)
        let expansions = Self.expansions.map { Array($0.utf8) }
        // cost[i]: bytes to encode characters[i...]; step[i]: the code or character used at i, and its width.
        var cost = [Int](repeating: 0, count: characters.count + 1)
        var step = [(byte: UInt8, width: Int)](repeating: (0, 1), count: characters.count)
        for i in stride(from: characters.count - 1, through: 0, by: -1) {
            var choice = (byte: characters[i], width: 1)
            var choiceCost = 1 + cost[i + 1]
            for (code, expansion) in expansions.enumerated() where characters[i...].starts(with: expansion) {
                let candidate = 1 + cost[i + expansion.count]
                if candidate <= choiceCost, candidate < choiceCost || expansion.count > choice.width {
                    choice = (UInt8(code), expansion.count)
                    choiceCost = candidate
                }
            }
            step[i] = choice
            cost[i] = choiceCost
        }
        var out: [UInt8] = []
        var i = 0
        while i < characters.count {
            out.append(step[i].byte)
            i += step[i].width
        }
        return out
    }

    private mutating func append(_ byte: UInt8) {
        let shift = UInt64(count % 8) * 8
        switch count / 8 {
        case 0: words.0 |= UInt64(byte) << shift
        case 1: words.1 |= UInt64(byte) << shift
        default: words.2 |= UInt64(byte) << shift
        }
        count += 1
    }

    /// The encoded bytes after the scheme, as sent.
    public var encoded: [UInt8] {
        (0..<count).map { i in
            let word = i < 8 ? words.0 : i < 16 ? words.1 : words.2
            return UInt8(truncatingIfNeeded: word >> (UInt64(i % 8) * 8))
        }
    }

    /// The URL with the scheme and every expansion code written out.
    public var url: String {
        var text = Self.schemes[Int(scheme)]
        for byte in encoded {
            if Int(byte) < Self.expansions.count {
                text += Self.expansions[Int(byte)]
            } else {
                text.unicodeScalars.append(Unicode.Scalar(byte))
            }
        }
        return text
    }

    public var description: String { url }

    public static func == (a: EddystoneURL, b: EddystoneURL) -> Bool {
        a.scheme == b.scheme && a.count == b.count && a.words == b.words
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(scheme)
        hasher.combine(count)
        hasher.combine(words.0)
        hasher.combine(words.1)
        hasher.combine(words.2)
    }
}
