/// What a file given as a btsnoop capture is instead, told from its first bytes, so that the error can say
/// what it looks like and what to do rather than only show its magic.
public enum CaptureLookalike: Equatable, Sendable {
    /// A pcap capture (any byte order, microsecond or nanosecond times).
    case pcap
    /// A pcapng capture (its Section Header Block).
    case pcapng
    /// btmon's text output: a decoded listing, not the packets.
    case btmonText
    /// Any other text.
    case text
    /// Bytes of no kind known here.
    case unknown

    /// The kind of the file that begins with `start` (the first 8 bytes or more).
    public static func of(_ start: some Collection<UInt8>) -> CaptureLookalike {
        let magic = Array(start.prefix(4))
        if [[0xD4, 0xC3, 0xB2, 0xA1], [0xA1, 0xB2, 0xC3, 0xD4], [0x4D, 0x3C, 0xB2, 0xA1], [0xA1, 0xB2, 0x3C, 0x4D]].contains(magic) {
            return .pcap
        }
        if magic == [0x0A, 0x0D, 0x0D, 0x0A] { return .pcapng }
        // btmon's first line is "Bluetooth monitor ver 5.66"; a btsnoop header is only 16 bytes long.
        if start.count >= 8, "Bluetooth monitor ver".utf8.starts(with: start.prefix(21)) { return .btmonText }
        if !start.isEmpty, start.allSatisfy(isText) { return .text }
        return .unknown
    }

    /// Printable ASCII, white space, or a byte of a UTF-8 sequence.
    private static func isText(_ byte: UInt8) -> Bool {
        (0x20..<0x7F).contains(byte) || byte == 0x09 || byte == 0x0A || byte == 0x0D || byte >= 0x80
    }

    /// What the file is and what to do, for the error after "not a btsnoop file"; nil for `unknown`.
    public var advice: String? {
        switch self {
        case .pcap: "it is a pcap capture; convert it with tshark -r FILE -F btsnoop -w FILE.btsnoop"
        case .pcapng: "it is a pcapng capture; convert it with tshark -r FILE -F btsnoop -w FILE.btsnoop"
        case .btmonText: "it is btmon's text output, which keeps no packets; record a capture with btmon -w FILE"
        case .text: "it is text; record a capture with btmon -w FILE or beacon range --record FILE"
        case .unknown: nil
        }
    }
}
