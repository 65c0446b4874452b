import Testing
import BeaconCore
import BeaconSimulation

@Suite("ProximityClassifier")
struct ProximityClassifierTests {
    let plain = ProximityClassifier(margin: 0)

    @Test(arguments: [
        (-1.0, Proximity.unknown), (-0.01, .unknown), (Double.nan, .unknown),
        (0.0, .immediate), (0.49, .immediate), (0.5, .near), (2.99, .near), (3.0, .far), (1000.0, .far),
    ])
    func thresholdsWithoutHistory(distance: Double, expected: Proximity) {
        #expect(ProximityClassifier().classify(distance) == expected)
        #expect(ProximityClassifier().classify(distance, previous: .unknown) == expected)
    }

    @Test func configurableThresholds() {
        let c = ProximityClassifier(immediateBelow: 1.0, nearBelow: 5.0, margin: 0)
        #expect(c.classify(0.9) == .immediate)
        #expect(c.classify(1.0) == .near)
        #expect(c.classify(4.9) == .near)
        #expect(c.classify(5.0) == .far)
    }

    /// A class is left only once the distance is past the boundary by the margin, either way.
    @Test func hysteresisHoldsAClassNearItsBoundary() {
        let c = ProximityClassifier() // 0.5 m and 3 m, margin 0.5
        #expect(c.classify(4.49, previous: .near) == .near)
        #expect(c.classify(4.5, previous: .near) == .far)
        #expect(c.classify(2.01, previous: .far) == .far)
        #expect(c.classify(1.99, previous: .far) == .near)
        #expect(c.classify(0.74, previous: .immediate) == .immediate)
        #expect(c.classify(0.75, previous: .immediate) == .near)
        #expect(c.classify(0.34, previous: .near) == .near)
        #expect(c.classify(0.33, previous: .near) == .immediate)
        // A jump across both boundaries lands in the class the distance is in.
        #expect(c.classify(0.1, previous: .far) == .immediate)
        #expect(c.classify(50, previous: .immediate) == .far)
        #expect(c.classify(-1, previous: .near) == .unknown)
    }

    /// Noise around a boundary: with hysteresis the class changes far less often than without.
    @Test func hysteresisSuppressesFlips() {
        var rng = SplitMix64(seed: 7)
        var flips = (plain: 0, hysteresis: 0)
        var last = (plain: Proximity.unknown, hysteresis: Proximity.unknown)
        for _ in 0..<10_000 {
            let d = 3.0 * (1 + 0.1 * Double.random(in: -1...1, using: &rng))
            let p = plain.classify(d, previous: last.plain)
            let h = ProximityClassifier().classify(d, previous: last.hysteresis)
            if last.plain != .unknown, p != last.plain { flips.plain += 1 }
            if last.hysteresis != .unknown, h != last.hysteresis { flips.hysteresis += 1 }
            last = (p, h)
        }
        #expect(flips.plain > 1000)
        #expect(flips.hysteresis == 0)
    }
}

@Suite("ProximityState")
struct ProximityStateTests {
    /// The first class is reported at once; a new one only after it held for `confirmations` ticks in
    /// a row; a tick back in the reported class, or unknown, does not count towards a change.
    @Test func newClassIsReportedOnceItHolds() {
        let classifier = ProximityClassifier(margin: 0, confirmations: 3)
        var state = ProximityState()
        #expect(state.update(1, classifier) == .near)
        #expect(state.update(5, classifier) == .near)
        #expect(state.update(5, classifier) == .near)
        #expect(state.update(-1, classifier) == .unknown)   // unknown: listed as such, the count goes on
        #expect(state.update(5, classifier) == .far)
        #expect(state.reported == .far)
        // A short excursion does not change the class.
        #expect(state.update(1, classifier) == .far)
        #expect(state.update(5, classifier) == .far)
        #expect(state.update(1, classifier) == .far)
        #expect(state.update(0.1, classifier) == .far)     // a different candidate starts its own count
        #expect(state.update(0.1, classifier) == .far)
        #expect(state.update(0.1, classifier) == .immediate)
    }

    /// After an interval unheard, a class measured past the margin is reported at once; one within the
    /// margin of the reported class is still that class, and the waiver lasts for one known distance.
    @Test func anIntervalUnheardWaivesTheConfirmationsButNotTheMargin() {
        let classifier = ProximityClassifier(margin: 0.5, confirmations: 3)
        var state = ProximityState()
        #expect(state.update(0.2, classifier) == .immediate)
        state.missedInterval()
        #expect(state.update(-1, classifier) == .unknown)     // still unheard: nothing changes
        #expect(state.update(0.6, classifier) == .immediate)  // within 50 % of the 0.5 m boundary
        state.missedInterval()
        #expect(state.update(20, classifier) == .far)         // past it: reported at once
        #expect(state.update(1, classifier) == .far)          // heard again: confirmations apply
        #expect(state.update(1, classifier) == .far)
        #expect(state.update(1, classifier) == .near)
    }

    @Test func oneConfirmationReportsEachClassAtOnce() {
        var state = ProximityState()
        for (distance, expected) in [(1.0, Proximity.near), (5, .far), (0.1, .immediate), (1, .near)] {
            #expect(state.update(distance, .plain) == expected)
        }
    }
}
