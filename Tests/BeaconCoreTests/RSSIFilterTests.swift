import Testing
import BeaconCore

@Suite("RSSI filters")
struct RSSIFilterTests {
    static let t0 = Timestamp(microseconds: 1_800_000_000_000_000)
    static func at(_ seconds: Double) -> Timestamp { t0 + Micros(Int64(seconds * 1e6)) }

    static let allKinds: [RSSIFilterKind] = [
        .intervalMean, .runningMedian(window: .seconds(10)), .altBeaconAverage, .altBeaconARMA, .standard,
    ]

    @Test(arguments: allKinds)
    func emptyFilterHasNoValue(kind: RSSIFilterKind) {
        var f = ConfiguredRSSIFilter(kind)
        #expect(f.value(at: Self.t0) == nil)
        f.endInterval()
        #expect(f.value(at: Self.at(1e9)) == nil)
    }

    @Test(arguments: allKinds)
    func singleReadingIsItsOwnValue(kind: RSSIFilterKind) {
        var f = ConfiguredRSSIFilter(kind)
        f.add(-63, at: Self.t0)
        #expect(f.value(at: Self.at(0.5)) == -63)
    }

    /// 0 dBm is a reading like any other, not "no reading".
    @Test(arguments: allKinds)
    func zeroDBmIsAReading(kind: RSSIFilterKind) {
        var f = ConfiguredRSSIFilter(kind)
        f.add(0, at: Self.t0)
        #expect(f.value(at: Self.t0) == 0)
    }

    @Test func intervalMeanStartsAfreshEachInterval() {
        var f = IntervalMeanFilter()
        for (i, r) in [-50.0, -52, -57].enumerated() { f.add(r, at: Self.at(Double(i) * 0.1)) }
        #expect(f.value(at: Self.at(1)) == -53)
        f.endInterval()
        #expect(f.value(at: Self.at(1)) == nil)
        f.add(-70, at: Self.at(1.5))
        #expect(f.value(at: Self.at(2)) == -70)
    }

    @Test func runningMedianForgetsReadingsOlderThanItsWindow() {
        var f = WindowFilter(window: .seconds(10), statistic: .median)
        for (i, r) in [-90.0, -60, -61, -62].enumerated() { f.add(r, at: Self.at(Double(i))) }
        #expect(f.value(at: Self.at(3)) == -61.5)   // (-62 + -61) / 2, the middle two of four readings
        f.endInterval()                              // a window filter carries on across intervals
        #expect(f.value(at: Self.at(10.5)) == -61)  // the -90 at 0 s has left the window
        #expect(f.value(at: Self.at(100)) == nil)    // all have
        f.add(-40, at: Self.at(101))
        #expect(f.value(at: Self.at(101)) == -40)
    }

    @Test func trimmedMeanDropsTheExtremes() {
        var f = WindowFilter(window: .seconds(20), statistic: .trimmedMean(fraction: 0.1))
        // Ten readings: one outlier at each end is trimmed.
        let readings: [Double] = [-100, -60, -61, -59, -60, -62, -58, -60, -60, -20]
        for (i, r) in readings.enumerated() { f.add(r, at: Self.at(Double(i))) }
        #expect(f.value(at: Self.at(9)) == -60)
    }

    @Test func windowKeepsAtMostItsCapacity() {
        var f = WindowFilter(window: .seconds(1_000_000), statistic: .median)
        for i in 0..<5_000 { f.add(i < 4_000 ? -100 : -50, at: Self.at(Double(i) * 0.001)) }
        // Only the newest 1024 readings are kept: 1000 at -50, 24 at -100; the median is -50.
        #expect(f.value(at: Self.at(5)) == -50)
    }

    @Test func armaMovesATenthOfTheWay() {
        var f = ARMAFilter(coefficient: 0.1)
        f.add(-60, at: Self.t0)
        f.add(-70, at: Self.at(0.1))
        #expect(abs(f.value(at: Self.at(0.1))! - -61) < 1e-12)
        f.add(-70, at: Self.at(0.2))
        #expect(abs(f.value(at: Self.at(0.2))! - -61.9) < 1e-12)
    }

    /// After a long gap the Kalman filter trusts the new reading almost entirely; readings close
    /// together move it only a little.
    @Test func kalmanWeighsReadingsByTheTimeBetweenThem() {
        var close = KalmanFilter(processNoise: 1, measurementNoise: 25)
        close.add(-60, at: Self.t0)
        close.add(-80, at: Self.at(0.1))
        var apart = KalmanFilter(processNoise: 1, measurementNoise: 25)
        apart.add(-60, at: Self.t0)
        apart.add(-80, at: Self.at(3_600))
        let c = close.value(at: Self.at(0.1))!, a = apart.value(at: Self.at(3_600))!
        #expect(c > -71 && c < -60)
        #expect(a < -79.8)
    }

    @Test func kalmanStaysFiniteForHugeGapsAndRepeatedTimes() {
        var f = KalmanFilter(processNoise: 1, measurementNoise: 25)
        f.add(-60, at: Timestamp.supportedRange.lowerBound)
        f.add(-61, at: Timestamp.supportedRange.upperBound)
        f.add(-62, at: Timestamp.supportedRange.upperBound)
        let v = f.value(at: Timestamp.supportedRange.upperBound)!
        #expect(v.isFinite && v < -61 && v > -62)
    }

    /// A beacon standing still: the default filter holds the value steady.
    @Test func kalmanSmoothsNoise() {
        var f = ConfiguredRSSIFilter(.standard)
        var worst = 0.0
        for i in 0..<600 {
            let noise = Double((i * 7919) % 13) - 6   // deterministic ±6 dB, mean 0
            f.add(-70 + noise, at: Self.at(Double(i) * 0.1))
            if i > 100 { worst = max(worst, abs(f.value(at: Self.at(Double(i) * 0.1))! + 70)) }
        }
        #expect(worst < 2.5)
    }

    @Test(arguments: allKinds + [.runningMedian(window: .milliseconds(2_500)), .trimmedMean(window: .seconds(5), fraction: 0.25),
                                 .arma(coefficient: 0.5), .kalman(processNoise: 0.5, measurementNoise: 9)])
    func parsesWhatItPrints(kind: RSSIFilterKind) {
        #expect(RSSIFilterKind.parse(kind.description) == kind)
    }

    @Test func parseDefaultsAndRefusals() {
        #expect(RSSIFilterKind.parse("median") == .runningMedian(window: RSSIFilterKind.defaultMedianWindow))
        #expect(RSSIFilterKind.parse("trimmed") == .altBeaconAverage)
        #expect(RSSIFilterKind.parse("trimmed:30s") == .trimmedMean(window: .seconds(30), fraction: 0.1))
        #expect(RSSIFilterKind.parse("arma") == .altBeaconARMA)
        #expect(RSSIFilterKind.parse("kalman") == .standard)
        for bad in ["", "Mean", "mean:1", "median:", "median:0", "median:x", "median:1s,2", "trimmed:1s,0.5",
                    "arma:0", "arma:2", "kalman:1", "kalman:1,0", "kalman:,", "kalman:1,2,3", "lowpass"] {
            #expect(RSSIFilterKind.parse(bad) == nil, "\(bad)")
        }
    }
}
