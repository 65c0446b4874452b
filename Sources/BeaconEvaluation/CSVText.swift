/// CSV text (RFC 4180) for the plot data: a field holding a comma, a quote or a line break is quoted.
public struct CSVText: Sendable {
    public private(set) var text = ""

    public init(header: [String]) { row(header) }

    public mutating func row(_ fields: [String]) {
        text += fields.map(Self.quoted).joined(separator: ",") + "\n"
    }

    static func quoted(_ field: String) -> String {
        guard field.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return field }
        return "\"" + field.split(separator: "\"", omittingEmptySubsequences: false).joined(separator: "\"\"") + "\""
    }
}
