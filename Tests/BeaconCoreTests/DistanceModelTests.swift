import Testing
import BeaconCore

@Suite("DistanceModel")
struct DistanceModelTests {
    let model = DistanceModel()

    @Test func defaults() {
        #expect(model.pathLossExponent == 2.0)
        #expect(model.immediateBelow == 0.5)
        #expect(model.nearBelow == 3.0)
    }

    @Test(arguments: [
        // (mean RSSI, measured power, path-loss exponent, metres)
        (-59.0, Int8(-59), 2.0, 1.0),   // at the calibration distance
        (-79.0, -59, 2.0, 10.0),        // 20 dB weaker, n = 2: one decade
        (-99.0, -59, 2.0, 100.0),
        (-39.0, -59, 2.0, 0.1),
        (-79.0, -59, 4.0, 3.1622776601683795), // 10^(20/40)
        (-65.0, -65, 3.0, 1.0),
    ])
    func accuracyFollowsLogDistance(rssi: Double, measuredPower: Int8, n: Double, metres: Double) {
        let m = DistanceModel(pathLossExponent: n)
        #expect(abs(m.accuracy(meanRSSI: rssi, measuredPower: measuredPower) - metres) < 1e-9 * metres)
    }

    @Test func unknownAccuracy() {
        #expect(model.accuracy(meanRSSI: 0, measuredPower: -59) == -1)
        #expect(model.accuracy(meanRSSI: .nan, measuredPower: -59) == -1)
        #expect(DistanceModel(pathLossExponent: 0).accuracy(meanRSSI: -70, measuredPower: -59) == -1)
    }

    @Test(arguments: [
        (-1.0, Proximity.unknown),
        (-0.01, .unknown),
        (Double.nan, .unknown),
        (0.0, .immediate),
        (0.49, .immediate),
        (0.5, .near),
        (2.99, .near),
        (3.0, .far),
        (1000.0, .far),
    ])
    func proximityThresholds(accuracy: Double, expected: Proximity) {
        #expect(model.proximity(accuracy: accuracy) == expected)
    }

    @Test func configurableThresholds() {
        let m = DistanceModel(immediateBelow: 1.0, nearBelow: 5.0)
        #expect(m.proximity(accuracy: 0.9) == .immediate)
        #expect(m.proximity(accuracy: 1.0) == .near)
        #expect(m.proximity(accuracy: 4.9) == .near)
        #expect(m.proximity(accuracy: 5.0) == .far)
    }

    @Test func jsonNames() {
        #expect(Proximity.allCases.map(\.rawValue) == ["immediate", "near", "far", "unknown"])
        #expect(RegionState.allCases.map(\.rawValue) == ["unknown", "inside", "outside"])
    }
}
