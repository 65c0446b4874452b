import BeaconCore

/// How one gateway of a site scene hears, besides the scene's receiver: receivers of one make differ by
/// several dB, some are noisier than others, and the room around one can make its signals fall faster or
/// slower with distance.
public struct SceneGateway: Hashable, Sendable {
    /// The site gateway it describes.
    public var name: String
    /// dB added to everything the gateway hears (default 0).
    public var rssiOffset: Double
    /// The path-loss exponent of what the gateway hears (mounted high, behind furniture); nil: the scene
    /// radio's.
    public var pathLossExponent: Double?
    /// Standard deviation in dB of normal noise added to each packet the gateway hears (default 0).
    public var noise: Double
    /// When the gateway stops listening, from the start of the scene (its capture ends there: replayed,
    /// the gateway goes offline); nil listens to the end of the scene.
    public var stop: Micros?

    public init(name: String, rssiOffset: Double = 0, pathLossExponent: Double? = nil, noise: Double = 0, stop: Micros? = nil) {
        self.name = name
        self.rssiOffset = rssiOffset
        self.pathLossExponent = pathLossExponent
        self.noise = noise
        self.stop = stop
    }
}
