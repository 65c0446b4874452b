/// Why a site file was refused: the field at fault, as a path such as `gateways[1].position`, and why.
public struct SiteError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Empty when the file as a whole is at fault (not JSON, too large).
    public var field: String
    public var reason: String

    public init(field: String, reason: String) {
        self.field = field
        self.reason = reason
    }

    public var description: String { field.isEmpty ? reason : "\(field): \(reason)" }
}
