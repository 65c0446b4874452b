/// Why a scene cannot be simulated: the field at fault, as a path into the scene file
/// (`beacons[1].path.speed`), and what is wrong with it.
public struct SceneError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The field, or "scene" for the file as a whole.
    public var field: String
    public var reason: String

    public init(field: String, _ reason: String) {
        self.field = field
        self.reason = reason
    }

    public var description: String { "\(field): \(reason)" }
}
