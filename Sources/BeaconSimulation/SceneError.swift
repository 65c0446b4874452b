import BeaconCore

/// Why a scene cannot be simulated: the field at fault, as a path into the scene file
/// (`beacons[1].path.speed`), and what is wrong with it.
public struct SceneError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The field, or "scene" for the file as a whole.
    public var field: String
    public var reason: String
    /// Where in the file, when the text is not JSON.
    public var position: JSONParseError.Position?

    public init(field: String, _ reason: String, position: JSONParseError.Position? = nil) {
        self.field = field
        self.reason = reason
        self.position = position
    }

    public var description: String { "\(field): \(reason)" }
}
