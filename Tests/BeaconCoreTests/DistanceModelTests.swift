import Testing
import BeaconCore

@Suite("DistanceModel")
struct DistanceModelTests {
    @Test(arguments: [
        // (filtered RSSI, measured power, path-loss exponent, metres)
        (-59.0, -59.0, 2.0, 1.0),   // at the calibration distance
        (-79.0, -59, 2.0, 10.0),    // 20 dB weaker, n = 2: one decade
        (-99.0, -59, 2.0, 100.0),
        (-39.0, -59, 2.0, 0.1),
        (-79.0, -59, 4.0, 3.1622776601683795), // 10^(20/40)
        (-65.0, -65, 3.0, 1.0),
        (0.0, -59, 2.0, 0.0011220184543019633), // 0 dBm is a reading like any other: 10^(-59/20)
    ])
    func logDistance(rssi: Double, measuredPower: Double, n: Double, metres: Double) {
        let d = DistanceModel.logDistance(exponent: n).distance(rssi: rssi, measuredPower: measuredPower)
        #expect(abs(d - metres) < 1e-9 * metres)
    }

    /// AltBeacon's CurveFittedDistanceCalculator and node-bleacon's formula, values worked by hand.
    @Test func peerCurves() {
        // r = 1: r^10 below 1 does not apply, 0.42093 + 0.54992
        #expect(abs(DistanceModel.altBeacon.distance(rssi: -59, measuredPower: -59) - 0.97085) < 1e-9)
        // r = 0.5 < 1: r^10
        #expect(abs(DistanceModel.altBeacon.distance(rssi: -30, measuredPower: -60) - 0.0009765625) < 1e-12)
        // r = 1.5: 0.42093 * 1.5^6.9476 + 0.54992
        #expect(abs(DistanceModel.altBeacon.distance(rssi: -90, measuredPower: -60) - 7.590709) < 1e-5)
        // r = 1 gives 12^0 = 1; r = 4/3 gives 12^0.5
        #expect(DistanceModel.bleacon.distance(rssi: -60, measuredPower: -60) == 1)
        #expect(abs(DistanceModel.bleacon.distance(rssi: -80, measuredPower: -60) - 3.4641016151377544) < 1e-12)
    }

    /// Posterior medians checked against a brute-force numerical integration of the same model
    /// (200,001-point grid over ln d from 1e-4 to 1e4 m, computed outside this code).
    @Test(arguments: [
        (-20.0, 0.28872), (0.0, 1.05942), (10.0, 2.08376), (20.0, 3.93010), (30.0, 6.90614), (40.0, 11.48895), (60.0, 30.73637),
    ])
    func roomPriorMedian(attenuation: Double, metres: Double) {
        let d = DistanceModel.standard.distance(rssi: -59 - attenuation, measuredPower: -59)
        #expect(abs(d - metres) < 1e-3 * metres)
    }

    @Test func roomModelGrowsWithAttenuation() {
        var previous = 0.0
        for attenuation in stride(from: -60.0, through: 120, by: 0.5) {
            let d = DistanceModel.standard.distance(rssi: -59 - attenuation, measuredPower: -59)
            #expect(d > previous)
            previous = d
        }
    }

    @Test func preparedModelMatchesTheDirectOne() {
        for model in [DistanceModel.standard, .logDistance(exponent: 2.5), .altBeacon, .bleacon] {
            var prepared = PreparedDistanceModel(model)
            for rssi in stride(from: -127.0, through: 20, by: 0.37) {
                let direct = model.distance(rssi: rssi, measuredPower: -59)
                #expect(abs(prepared.distance(rssi: rssi, measuredPower: -59) - direct) <= 1e-4 * direct)
            }
            // Beyond the table (an offset pushes a reading out of any controller's range): computed directly.
            #expect(prepared.distance(rssi: -400, measuredPower: -59) == model.distance(rssi: -400, measuredPower: -59))
        }
    }

    @Test func unknownDistance() {
        for model in [DistanceModel.standard, .logDistance(exponent: 2), .altBeacon, .bleacon] {
            #expect(model.distance(rssi: .nan, measuredPower: -59) == -1)
            #expect(model.distance(rssi: -70, measuredPower: .infinity) == -1)
            var prepared = PreparedDistanceModel(model)
            #expect(prepared.distance(rssi: .nan, measuredPower: -59) == -1)
        }
        #expect(DistanceModel.logDistance(exponent: 0).distance(rssi: -70, measuredPower: -59) == -1)
        #expect(DistanceModel.altBeacon.distance(rssi: -70, measuredPower: 0) == -1)
        #expect(DistanceModel.bleacon.distance(rssi: -70, measuredPower: 0) == -1)
    }

    @Test func parsesWhatItPrints() {
        for model in [DistanceModel.standard, .logDistance(exponent: 2.5), .altBeacon, .bleacon] {
            #expect(DistanceModel.parse(model.description) == model)
        }
        for bad in ["", "log", "log:", "log:0.49", "log:7", "log:x", "Room", "curve"] {
            #expect(DistanceModel.parse(bad) == nil)
        }
    }

    @Test func jsonNames() {
        #expect(Proximity.allCases.map(\.rawValue) == ["immediate", "near", "far", "unknown"])
        #expect(RegionState.allCases.map(\.rawValue) == ["unknown", "inside", "outside"])
    }
}
