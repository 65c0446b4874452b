/// One line of a survey: what one gateway heard from a beacon held still at a known point of the site.
/// A gateway that heard nothing there is recorded too (`rssi` nil): that is information as well.
public struct SurveyPoint: Equatable, Sendable {
    /// Where the beacon was, metres in the site's frame.
    public var point: Point2
    /// The floor's index in the site (0 when the site has one floor).
    public var floor: Int
    /// The gateway's name, as in the site file and its readings.
    public var gateway: String
    /// The median RSSI the gateway heard there (dBm); nil when it heard nothing.
    public var rssi: Double?
    /// How many readings the median is of (0 when nothing was heard).
    public var samples: Int
    /// The readings' spread about the median, dB (their median absolute deviation scaled to a 1-σ), when known.
    public var spread: Double?
    /// When the point was taken, when known.
    public var time: Timestamp?

    public init(point: Point2, floor: Int = 0, gateway: String, rssi: Double?, samples: Int,
                spread: Double? = nil, time: Timestamp? = nil) {
        self.point = point
        self.floor = floor
        self.gateway = gateway
        self.rssi = rssi
        self.samples = samples
        self.spread = spread
        self.time = time
    }
}
