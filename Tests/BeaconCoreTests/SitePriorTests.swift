import BeaconCore
import Testing

@Suite("Site prior")
struct SitePriorTests {
    static let attenuations = stride(from: -10.0, through: 60, by: 2.5)

    @Test("a fit with a huge uncertainty leaves the room model as it is")
    func vagueFitChangesNothing() {
        let room = RoomPrior()
        let narrowed = room.narrowed(by: SitePrior(exponent: 1.2, exponentDeviation: 100))
        #expect(abs(narrowed.exponents.lowerBound - room.exponents.lowerBound) < 1e-3)
        #expect(abs(narrowed.exponents.upperBound - room.exponents.upperBound) < 1e-3)
        for a in Self.attenuations {
            let (before, after) = (room.medianDistance(attenuation: a), narrowed.medianDistance(attenuation: a))
            #expect(abs(after / before - 1) < 1e-3, "attenuation \(a): \(before) m, narrowed \(after) m")
        }
    }

    @Test("a tight fit decides the exponent, outside the room model's range too")
    func tightFitDominates() {
        for n in [1.2, 3, 5] {
            let narrowed = RoomPrior().narrowed(by: SitePrior(exponent: n, exponentDeviation: 0.001))
            #expect(abs(narrowed.exponents.lowerBound - n) < 0.01 && abs(narrowed.exponents.upperBound - n) < 0.01, "\(narrowed.exponents)")
            let single = RoomPrior(exponents: n...n, exponentSteps: 1)
            for a in Self.attenuations {
                #expect(abs(narrowed.medianDistance(attenuation: a) / single.medianDistance(attenuation: a) - 1) < 0.01, "n \(n), attenuation \(a)")
            }
        }
        let exact = RoomPrior().narrowed(by: SitePrior(exponent: 1.4, exponentDeviation: 0))
        #expect(exact.exponents == 1.4...1.4)
    }

    @Test("in between, the precisions weigh the two: a fit as sure as the room model meets it halfway")
    func precisionWeighted() {
        // The room model's uniform 2...4: mean 3, variance 1/3. A fit at 1.5 with the same variance.
        let narrowed = RoomPrior().narrowed(by: SitePrior(exponent: 1.5, exponentDeviation: (1.0 / 3).squareRoot()))
        let mean = (narrowed.exponents.lowerBound + narrowed.exponents.upperBound) / 2
        let halfWidth = (narrowed.exponents.upperBound - narrowed.exponents.lowerBound) / 2
        #expect(abs(mean - 2.25) < 1e-9)
        // Variance halved: the uniform's half-width is √3 σ = √3 √(1/6).
        #expect(abs(halfWidth - (3.0 / 6).squareRoot()) < 1e-9)
        // Never outside the exponents a fit may have.
        let low = RoomPrior().narrowed(by: SitePrior(exponent: 0.5, exponentDeviation: 0.2))
        #expect(low.exponents.lowerBound >= PathLossFit.plausibleExponents.lowerBound)
    }

    @Test("the weight scales the fit's precision: weight 0 is the room model, a quarter is twice the deviation")
    func weightScalesPrecision() {
        let room = RoomPrior()
        #expect(room.narrowed(by: SitePrior(exponent: 1.5, exponentDeviation: 0, weight: 0)) == room)
        let quarter = room.narrowed(by: SitePrior(exponent: 1.5, exponentDeviation: 0.4, weight: 0.25))
        let doubled = room.narrowed(by: SitePrior(exponent: 1.5, exponentDeviation: 0.8))
        #expect(abs(quarter.exponents.lowerBound - doubled.exponents.lowerBound) < 1e-12)
        #expect(abs(quarter.exponents.upperBound - doubled.exponents.upperBound) < 1e-12)
        #expect(quarter.exponents.lowerBound > room.narrowed(by: SitePrior(exponent: 1.5, exponentDeviation: 0.4)).exponents.lowerBound)
    }

    static let calibrateOutput = """
        {"event":"calibration","time":"2026-11-29T12:00:30.000Z","uuid":"E2C56DB5-DFFB-48D2-B060-D0F5A71096E0","major":1,"minor":2,"address":"F0:F1:F2:F3:F4:01","distance":1.00,"samples":297,"rssi":-62.0,"spread":3.00,"advertisedMeasuredPower":-59,"measuredPower":-62,"flags":"--measured-power -62"}
        {"event":"fit","time":"2026-11-29T12:05:00.000Z","samples":3,"pathLossExponent":2.66,"exponentDeviation":0.85,"measuredPower":-62,"measuredPowerDeviation":2.94,"residual":0.40,"priorWeight":0.2500,"flags":"--path-loss-exponent 2.66 --measured-power -62"}

        """

    @Test("the file: the last fit line of beacon calibrate's output, the calibrations around it skipped")
    func decodesCalibrateOutput() throws {
        #expect(try SitePrior.decode(Array(Self.calibrateOutput.utf8)) == SitePrior(exponent: 2.66, exponentDeviation: 0.85, weight: 0.25))
        // A fit without a prior weight (written before calibrate weighed its fits) weighs fully.
        let twoFits = Self.calibrateOutput + #"{"event":"fit","pathLossExponent":1.4,"exponentDeviation":0.1}"# + "\r\n"
        #expect(try SitePrior.decode(Array(twoFits.utf8)) == SitePrior(exponent: 1.4, exponentDeviation: 0.1, weight: 1))
    }

    @Test("a bad file names the line and the field", arguments: [
        (#"{"event":"fit","pathLossExponent":2}"#, "line 1: exponentDeviation: missing"),
        (#"{"event":"fit","pathLossExponent":"2","exponentDeviation":0.3}"#, "line 1: pathLossExponent: expected a number, found a string"),
        (#"{"event":"fit","pathLossExponent":9,"exponentDeviation":0.3}"#, "line 1: pathLossExponent: 9.0 is outside 0.5...6.0"),
        (#"{"event":"fit","pathLossExponent":2,"exponentDeviation":-1}"#, "line 1: exponentDeviation: -1.0 is outside 0.0...100.0"),
        (#"{"event":"fit","pathLossExponent":2,"exponentDeviation":1,"priorWeight":2}"#, "line 1: priorWeight: 2.0 is outside 0.0...1.0"),
        (#"{"event":"fit","pathLossExponent":2,"exponentDeviation":1,"priorWeight":null}"#, "line 1: priorWeight: expected a number, found null"),
        ("\n[1,2]", "line 2: expected a JSON object, found an array"),
        ("{\"event\":", "line 1: not a JSON object"),
        (#"{"event":"calibration"}"#, #"no "fit" line"#),
        ("", #"no "fit" line"#),
    ])
    func refusals(text: String, message: String) throws {
        let error = try #require(throws: SitePriorError.self) { try SitePrior.decode(Array(text.utf8)) }
        #expect(error.description.hasPrefix(message), "\(error)")
    }

    @Test func refusesAFileLargerThanTheLimit() throws {
        let error = try #require(throws: SitePriorError.self) { try SitePrior.decode(Array(repeating: 0x20, count: SitePrior.maximumFileBytes + 1)) }
        #expect(error.description.contains("larger than"))
    }
}
