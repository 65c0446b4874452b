import BeaconCore

/// A region of a scene: the ground truth says for each one whether it is inside.
public struct NamedRegion: Hashable, Sendable {
    /// The region's key in ground-truth lines.
    public var name: String
    public var region: BeaconRegion

    public init(name: String, region: BeaconRegion) {
        self.name = name
        self.region = region
    }
}
