#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import BeaconCore

/// One beacon's log-normal shadowing (dB): a first-order Gauss-Markov process whose correlation
/// between two packets is exp(−moved / decorrelationDistance − elapsed / decorrelationTime), so a
/// beacon standing still keeps its shadow for seconds and one walking changes it every metre or so.
struct ShadowingProcess {
    let model: RadioModel.Shadowing
    private var value: Double?
    private var lastDistance = 0.0
    private var lastTime: Int64 = 0

    init(_ model: RadioModel.Shadowing) { self.model = model }

    /// The shadowing at `time` (µs) and `distance` (m). Draws one normal per call, whatever the outcome.
    mutating func next(distance: Double, time: Int64, rng: inout SplitMix64) -> Double {
        let innovation = rng.normal() * model.sigma
        guard let previous = value else {
            value = innovation
            lastDistance = distance
            lastTime = time
            return innovation
        }
        let moved = abs(distance - lastDistance) / model.decorrelationDistance
        let elapsed = Double(time - lastTime) / Double(model.decorrelationTime.value)
        let correlation = exp(-(moved + elapsed))
        let next = correlation * previous + (1 - correlation * correlation).squareRoot() * innovation
        value = next
        lastDistance = distance
        lastTime = time
        return next
    }
}
