/// Whether one gateway's live readings still fit the survey's radio map: a robust test over its latest
/// `window` readings, each standardised against the map at the beacon's estimated place and power. A
/// map that fits gives deviations whose median is about 0.7 σ (half of a normal or Student's t lies
/// within it); a gateway moved since the survey, or a room changed around it, gives readings the map no
/// longer explains, and a median beyond `threshold` σ. The median, not the mean, so a few bodies in the
/// path or a mislocated beacon do not raise it.
struct SurveyFit: Sendable {
    /// Readings judged together.
    static let window = 60
    /// Median deviation, in σ, beyond which the gateway no longer fits.
    static let threshold = 2.0
    /// Only estimates this sure are judged (1-σ radius, metres): the place must be known to judge a map by it.
    static let maximumError = 1.5

    private var deviations: [Double] = []
    private var next = 0
    private var misfit: Double?
    private var reported = false

    mutating func add(_ deviation: Double) {
        guard deviation.isFinite else { return }
        if deviations.count < Self.window {
            deviations.append(deviation)
        } else {
            deviations[next] = deviation
        }
        next = (next + 1) % Self.window
        guard deviations.count == Self.window, !reported, let median = RadioMap.median(deviations), median > Self.threshold else { return }
        misfit = median
    }

    /// The median deviation when the gateway has just been found not to fit; once per gateway.
    mutating func takeMisfit() -> Double? {
        guard let misfit, !reported else { return nil }
        reported = true
        return misfit
    }
}
