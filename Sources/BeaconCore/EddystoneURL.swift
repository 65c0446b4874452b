/// A URL as an Eddystone-URL frame carries it (Eddystone-URL specification): a scheme prefix code,
/// then at most 17 bytes in which the codes 0x00...0x0D stand for common endings (".com/", ".org", …)
/// and every other byte is the character itself, printable ASCII 0x21...0x7E.
public struct EddystoneURL: Hashable, Sendable {
    /// The URL as given; the frame decodes to exactly this text.
    public let text: String
    /// The URL Scheme Prefix byte.
    public let scheme: UInt8
    /// The encoded URL after the scheme.
    public let encoded: [UInt8]

    /// What fits after the flags, the service UUID list and the service data header of a 31-byte advertisement.
    public static let maxEncodedLength = 17

    /// URL Scheme Prefix codes, by index.
    public static let schemes = ["http://www.", "https://www.", "http://", "https://"]
    /// HTTP URL encoding expansion codes, by index (0x00...0x0D).
    public static let expansions = [".com/", ".org/", ".edu/", ".net/", ".info/", ".biz/", ".gov/",
                                    ".com", ".org", ".edu", ".net", ".info", ".biz", ".gov"]
    /// Characters carried as themselves; 0x0E...0x20 and 0x7F...0xFF are reserved.
    public static let literalRange: ClosedRange<UInt8> = 0x21...0x7E

    public enum EncodingError: Error, Equatable, Sendable {
        /// The URL does not start with one of the four schemes.
        case noScheme
        /// A character outside printable ASCII; `offset` counts characters (Unicode scalars) from the start.
        case disallowedCharacter(offset: Int, Unicode.Scalar)
        /// The shortest encoding after the scheme needs `length` bytes.
        case tooLong(length: Int)
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
        guard best.encoded.count <= Self.maxEncodedLength else { throw .tooLong(length: best.encoded.count) }
        self.text = text
        scheme = best.scheme
        encoded = best.encoded
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
}
