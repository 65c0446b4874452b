/// A JSON value as read by `JSONValue.parse`: the whole of RFC 8259, objects keeping their members'
/// order (their keys are unique: the reader refuses duplicates).
public enum JSONValue: Sendable, Equatable {
    case null
    case bool(Bool)
    /// Always finite: the reader refuses a number that does not fit a Double.
    case number(Double)
    case string(String)
    case array([JSONValue])
    /// Members in the order written.
    case object([(String, JSONValue)])

    /// The member named `key` of an object; nil for a missing member or a value that is not an object.
    public subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.0 == key }?.1
    }

    public var bool: Bool? {
        if case .bool(let value) = self { return value }
        return nil
    }

    public var number: Double? {
        if case .number(let value) = self { return value }
        return nil
    }

    public var string: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    public var array: [JSONValue]? {
        if case .array(let value) = self { return value }
        return nil
    }

    public var object: [(String, JSONValue)]? {
        if case .object(let value) = self { return value }
        return nil
    }

    public var isNull: Bool {
        if case .null = self { return true }
        return false
    }

    /// The kind of value, for errors such as "expected a number, found a string".
    public var kind: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }

    public static func == (a: JSONValue, b: JSONValue) -> Bool {
        switch (a, b) {
        case (.null, .null): true
        case (.bool(let x), .bool(let y)): x == y
        case (.number(let x), .number(let y)): x == y
        case (.string(let x), .string(let y)): x == y
        case (.array(let x), .array(let y)): x == y
        case (.object(let x), .object(let y)): x.count == y.count && zip(x, y).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
        default: false
        }
    }
}

/// Why a JSON text was refused: one line, with where in the text when there is a place to point at.
public struct JSONParseError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Line (from 1, counting line feeds) and column (from 1, counting Unicode scalars).
    public struct Position: Hashable, Sendable {
        public var line: Int
        public var column: Int

        public init(line: Int, column: Int) {
            self.line = line
            self.column = column
        }

        /// `FILE:LINE:COLUMN`, as compilers and jq point into a file.
        public func inFile(_ path: String) -> String { "\(path):\(line):\(column)" }
    }

    /// Nil when the text as a whole is refused (larger than the limit).
    public var position: Position?
    public var reason: String

    public var description: String {
        guard let position else { return reason }
        return "line \(position.line), column \(position.column): \(reason)"
    }

    /// The reason for a file's error line, which names the position itself (`Position.inFile`): text
    /// that is not JSON says so; a refusal of the whole text (too large) is its reason alone.
    public var fileReason: String { position == nil ? reason : "not valid JSON: \(reason)" }
}
