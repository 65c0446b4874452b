#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import BeaconCore

/// The log-normal shadowing (dB) between one beacon and one receiver: a first-order Gauss-Markov
/// process whose correlation between two packets is exp(−moved / decorrelationDistance − elapsed /
/// decorrelationTime), so a beacon standing still keeps its shadow for seconds and one walking changes
/// it every metre or so.
struct ShadowingProcess {
    let model: RadioModel.Shadowing
    private var value: Double?
    private var lastPoint = Point2(x: 0, y: 0)
    private var lastTime: Int64 = 0

    init(_ model: RadioModel.Shadowing) { self.model = model }

    /// The shadowing at `time` (µs) with the beacon at `point` (`BeaconPlace.point`). Draws one normal
    /// per call, whatever the outcome.
    mutating func next(point: Point2, time: Int64, rng: inout SplitMix64) -> Double {
        let innovation = rng.normal() * model.sigma
        guard let previous = value else {
            value = innovation
            lastPoint = point
            lastTime = time
            return innovation
        }
        let moved = Self.metres(from: lastPoint, to: point) / model.decorrelationDistance
        let elapsed = Double(time - lastTime) / Double(model.decorrelationTime.value)
        let correlation = exp(-(moved + elapsed))
        let next = correlation * previous + (1 - correlation * correlation).squareRoot() * innovation
        value = next
        lastPoint = point
        lastTime = time
        return next
    }

    /// How far the beacon moved: along the x axis (a plain scene's distances) exactly the change of x.
    static func metres(from a: Point2, to b: Point2) -> Double {
        a.y == b.y ? abs(b.x - a.x) : a.distance(to: b)
    }
}
