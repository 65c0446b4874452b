/// Why a site file was refused: the field at fault, as a path such as `gateways[1].position`, and why.
public struct SiteError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Empty when the file as a whole is at fault (not JSON, too large).
    public var field: String
    public var reason: String
    /// Where in the file, when the text is not JSON.
    public var position: JSONParseError.Position?

    public init(field: String, reason: String, position: JSONParseError.Position? = nil) {
        self.field = field
        self.reason = reason
        self.position = position
    }

    public var description: String { field.isEmpty ? reason : "\(field): \(reason)" }
}
