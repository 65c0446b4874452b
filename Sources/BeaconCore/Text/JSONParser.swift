extension JSONValue {
    /// Reads one JSON text (RFC 8259, strictly) from input that may be hostile: refuses text larger than
    /// `maximumBytes`, arrays and objects nested more than `maximumDepth` deep, invalid UTF-8, lone
    /// surrogates, numbers that do not fit a Double, NaN and Infinity, duplicate keys and anything after
    /// the value. Never traps; recursion is bounded by `maximumDepth`.
    public static func parse(_ bytes: UnsafeRawBufferPointer, maximumDepth: Int, maximumBytes: Int) throws(JSONParseError) -> JSONValue {
        guard bytes.count <= maximumBytes else {
            throw JSONParseError(position: nil, reason: "larger than the limit of \(maximumBytes) bytes")
        }
        var parser = JSONParser(bytes: bytes, maximumDepth: maximumDepth)
        return try parser.document()
    }

    /// Reads one JSON text from `bytes`; see `parse(_:maximumDepth:maximumBytes:)` on a buffer.
    public static func parse(_ bytes: [UInt8], maximumDepth: Int, maximumBytes: Int) throws(JSONParseError) -> JSONValue {
        // withUnsafeBytes rethrows untyped: the result carries the typed error out.
        let result = bytes.withUnsafeBytes { buffer in
            Result { () throws(JSONParseError) -> JSONValue in
                try parse(buffer, maximumDepth: maximumDepth, maximumBytes: maximumBytes)
            }
        }
        return try result.get()
    }
}

/// A recursive-descent reader over a byte buffer; each array or object level is one call deeper, and
/// the depth is checked before the call.
private struct JSONParser {
    let bytes: UnsafeRawBufferPointer
    let maximumDepth: Int
    var offset = 0

    init(bytes: UnsafeRawBufferPointer, maximumDepth: Int) {
        self.bytes = bytes
        self.maximumDepth = maximumDepth
    }

    mutating func document() throws(JSONParseError) -> JSONValue {
        skipWhitespace()
        let value = try value(depth: 0)
        skipWhitespace()
        guard offset == bytes.count else { throw failure("unexpected text after the value") }
        return value
    }

    private var next: UInt8? { offset < bytes.count ? bytes[offset] : nil }

    private mutating func skipWhitespace() {
        while let byte = next, byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 { offset += 1 }
    }

    /// A value at `depth` containers deep.
    private mutating func value(depth: Int) throws(JSONParseError) -> JSONValue {
        switch next {
        case UInt8(ascii: "{"): return try object(depth: depth + 1)
        case UInt8(ascii: "["): return try array(depth: depth + 1)
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): try literal("true"); return .bool(true)
        case UInt8(ascii: "f"): try literal("false"); return .bool(false)
        case UInt8(ascii: "n"): try literal("null"); return .null
        case UInt8(ascii: "-"), .some(UInt8(ascii: "0")...UInt8(ascii: "9")): return .number(try number())
        case UInt8(ascii: "N"), UInt8(ascii: "I"): throw failure("NaN and Infinity are not JSON numbers")
        default: throw expected("a value")
        }
    }

    private mutating func enter(_ depth: Int) throws(JSONParseError) {
        guard depth <= maximumDepth else { throw failure("nested more than \(maximumDepth) deep (the limit)") }
        offset += 1
        skipWhitespace()
    }

    private mutating func array(depth: Int) throws(JSONParseError) -> JSONValue {
        try enter(depth)
        var elements: [JSONValue] = []
        if next == UInt8(ascii: "]") {
            offset += 1
            return .array(elements)
        }
        while true {
            elements.append(try value(depth: depth))
            skipWhitespace()
            switch next {
            case UInt8(ascii: ","): offset += 1; skipWhitespace()
            case UInt8(ascii: "]"): offset += 1; return .array(elements)
            default: throw expected("',' or ']'")
            }
        }
    }

    private mutating func object(depth: Int) throws(JSONParseError) -> JSONValue {
        try enter(depth)
        var members: [(String, JSONValue)] = []
        // Filled only once the object has `setKeys` members (isDuplicate).
        var keys: Set<String> = []
        if next == UInt8(ascii: "}") {
            offset += 1
            return .object(members)
        }
        while true {
            guard next == UInt8(ascii: "\"") else { throw expected("a member name in quotes") }
            let keyOffset = offset
            let key = try string()
            guard !Self.isDuplicate(key, of: members, keys: &keys) else {
                throw failure("duplicate member \(JSONValue.quoted(key))", at: keyOffset)
            }
            skipWhitespace()
            guard next == UInt8(ascii: ":") else { throw expected("':'") }
            offset += 1
            skipWhitespace()
            members.append((key, try value(depth: depth)))
            skipWhitespace()
            switch next {
            case UInt8(ascii: ","): offset += 1; skipWhitespace()
            case UInt8(ascii: "}"): offset += 1; return .object(members)
            default: throw expected("',' or '}'")
            }
        }
    }

    /// Up to this many members, a key is looked for among them one by one, which costs less than hashing
    /// it (a readings message holds an object of seven members per beacon); from there on, in a set.
    private static let setKeys = 16

    /// Whether `key` is one of `members`' keys; `keys` holds them all once there are `setKeys` of them.
    private static func isDuplicate(_ key: String, of members: [(String, JSONValue)], keys: inout Set<String>) -> Bool {
        guard members.count >= setKeys else { return members.contains { $0.0 == key } }
        if keys.isEmpty { keys = Set(members.lazy.map(\.0)) }
        return !keys.insert(key).inserted
    }

    private mutating func literal(_ word: String) throws(JSONParseError) {
        let start = offset
        for byte in word.utf8 {
            guard next == byte else { throw failure("expected a value", at: start) }
            offset += 1
        }
    }

    private mutating func digits() {
        while let byte = next, byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") { offset += 1 }
    }

    private var nextIsDigit: Bool {
        guard let byte = next else { return false }
        return byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }

    private mutating func number() throws(JSONParseError) -> Double {
        let start = offset
        if next == UInt8(ascii: "-") {
            offset += 1
            if next == UInt8(ascii: "I") { throw failure("NaN and Infinity are not JSON numbers", at: start) }
        }
        guard nextIsDigit else { throw expected("a digit") }
        if next == UInt8(ascii: "0") {
            offset += 1
            if nextIsDigit { throw failure("a number may not have a leading zero", at: start) }
        } else {
            digits()
        }
        if next == UInt8(ascii: ".") {
            offset += 1
            guard nextIsDigit else { throw expected("a digit after '.'") }
            digits()
        }
        if next == UInt8(ascii: "e") || next == UInt8(ascii: "E") {
            offset += 1
            if next == UInt8(ascii: "+") || next == UInt8(ascii: "-") { offset += 1 }
            guard nextIsDigit else { throw expected("a digit in the exponent") }
            digits()
        }
        let text = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<offset]), as: UTF8.self)
        guard let number = Double(text), number.isFinite else { throw failure("number out of range", at: start) }
        return number
    }

    /// A string from its opening quote; its UTF-8 checked, its escapes decoded.
    private mutating func string() throws(JSONParseError) -> String {
        let quote = offset
        offset += 1
        // Only a string with escapes is copied; the others are decoded from the input in place.
        var unescaped: [UInt8]?
        var runStart = offset
        while true {
            guard let byte = next else { throw failure("unterminated string", at: quote) }
            switch byte {
            case UInt8(ascii: "\""):
                let run = UnsafeRawBufferPointer(rebasing: bytes[runStart..<offset])
                offset += 1
                guard var text = unescaped else { return String(decoding: run, as: UTF8.self) }
                text.append(contentsOf: run)
                return String(decoding: text, as: UTF8.self)
            case UInt8(ascii: "\\"):
                var text = unescaped ?? []
                text.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[runStart..<offset]))
                let scalar = try escape()
                UTF8.encode(scalar) { text.append($0) }
                unescaped = text
                runStart = offset
            case 0..<0x20:
                throw failure("control character U+\(JSONParser.hex4(UInt32(byte))) in a string must be escaped")
            case 0x20..<0x80:
                offset += 1
            default:
                try utf8Sequence()
            }
        }
    }

    /// One multi-byte UTF-8 sequence (Unicode Table 3-7: no overlong forms, no surrogates, at most U+10FFFF).
    private mutating func utf8Sequence() throws(JSONParseError) {
        let lead = bytes[offset]
        let secondRange: ClosedRange<UInt8>
        let length: Int
        switch lead {
        case 0xC2...0xDF: length = 2; secondRange = 0x80...0xBF
        case 0xE0: length = 3; secondRange = 0xA0...0xBF
        case 0xE1...0xEC, 0xEE...0xEF: length = 3; secondRange = 0x80...0xBF
        case 0xED: length = 3; secondRange = 0x80...0x9F
        case 0xF0: length = 4; secondRange = 0x90...0xBF
        case 0xF1...0xF3: length = 4; secondRange = 0x80...0xBF
        case 0xF4: length = 4; secondRange = 0x80...0x8F
        default: throw failure("invalid UTF-8")
        }
        guard bytes.count - offset >= length, secondRange.contains(bytes[offset + 1]),
              (2..<length).allSatisfy({ (0x80...0xBF).contains(bytes[offset + $0]) })
        else { throw failure("invalid UTF-8") }
        offset += length
    }

    /// The character an escape stands for, from its backslash.
    private mutating func escape() throws(JSONParseError) -> Unicode.Scalar {
        let start = offset
        offset += 1
        guard let letter = next else { throw failure("unterminated string", at: start) }
        offset += 1
        switch letter {
        case UInt8(ascii: "\""): return "\""
        case UInt8(ascii: "\\"): return "\\"
        case UInt8(ascii: "/"): return "/"
        case UInt8(ascii: "b"): return "\u{08}"
        case UInt8(ascii: "f"): return "\u{0C}"
        case UInt8(ascii: "n"): return "\n"
        case UInt8(ascii: "r"): return "\r"
        case UInt8(ascii: "t"): return "\t"
        case UInt8(ascii: "u"):
            let unit = try hexUnit(escapeAt: start)
            switch unit {
            case 0xD800...0xDBFF:
                guard next == UInt8(ascii: "\\"), offset + 1 < bytes.count, bytes[offset + 1] == UInt8(ascii: "u") else {
                    throw failure("unpaired surrogate \\u\(JSONParser.hex4(unit))", at: start)
                }
                let lowStart = offset
                offset += 2
                let low = try hexUnit(escapeAt: lowStart)
                guard (0xDC00...0xDFFF).contains(low) else {
                    throw failure("unpaired surrogate \\u\(JSONParser.hex4(unit))", at: start)
                }
                // Both halves are in range, so the sum is a valid scalar above U+FFFF.
                return Unicode.Scalar(0x10000 + (unit - 0xD800) << 10 + (low - 0xDC00)) ?? "\u{FFFD}"
            case 0xDC00...0xDFFF:
                throw failure("unpaired surrogate \\u\(JSONParser.hex4(unit))", at: start)
            default:
                return Unicode.Scalar(unit) ?? "\u{FFFD}"
            }
        default:
            throw failure("invalid escape in a string", at: start)
        }
    }

    /// The four hex digits after `\u`.
    private mutating func hexUnit(escapeAt start: Int) throws(JSONParseError) -> UInt32 {
        var unit: UInt32 = 0
        for _ in 0..<4 {
            guard let byte = next else { throw failure("unterminated string", at: start) }
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw failure("\\u needs four hex digits", at: start)
            }
            unit = unit << 4 | UInt32(digit)
            offset += 1
        }
        return unit
    }

    private func expected(_ what: String) -> JSONParseError {
        failure(offset < bytes.count ? "expected \(what)" : "unexpected end of input, expected \(what)")
    }

    private func failure(_ reason: String, at errorOffset: Int? = nil) -> JSONParseError {
        var position = JSONParseError.Position(line: 1, column: 1)
        for byte in UnsafeRawBufferPointer(rebasing: bytes[..<min(errorOffset ?? offset, bytes.count)]) {
            if byte == 0x0A {
                position.line += 1
                position.column = 1
            } else if byte & 0xC0 != 0x80 {
                position.column += 1
            }
        }
        return JSONParseError(position: position, reason: reason)
    }

    private static func hex4(_ value: UInt32) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }
}

extension JSONValue {
    /// A member name or other text of the input for an error: quoted, control characters escaped, long names cut short.
    static func quoted(_ text: String) -> String {
        var shown = ""
        for (index, scalar) in text.unicodeScalars.enumerated() {
            if index == 40 {
                shown += "…"
                break
            }
            shown += scalar.isControlOrNoncharacter ? scalar.escaped(asASCII: true) : String(scalar)
        }
        return "\"\(shown)\""
    }
}
