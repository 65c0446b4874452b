import BeaconCore
import BeaconEvaluation
import Testing
#if canImport(Glibc)
import Glibc
#endif

@Suite("Real-data evaluation")
struct ResearchEvaluationTests {
    static let t0 = Timestamp(microseconds: 1_610_000_000_000_000)

    /// One reading a second, positions back to back: (centimetres, RSSI, seconds).
    static func file(_ name: String, _ positions: [(Int, Int8, Int)]) -> ResearchFile {
        var readings: [ResearchReading] = []
        for (centimetres, rssi, seconds) in positions {
            for _ in 0..<seconds {
                readings.append(ResearchReading(time: t0 + .seconds(Int64(readings.count)), rssi: rssi, centimetres: centimetres))
            }
        }
        return ResearchFile(name: name, readings: readings)
    }

    static let logModel = RangingEstimator(filter: .intervalMean, distance: .logDistance(exponent: 2), proximity: .plain)

    @Test func parsesTheHeraldColumns() throws {
        let text = "time,rssi,distance\r\n2021-01-08 14:23:51,-38.0,10\r\n2021-01-08 14:23:53,-40.4,100\r\n"
        let file = try ResearchFile.parse(name: "20210108-1423-A", bytes: Array(text.utf8))
        #expect(file.pair == "20210108-1423")
        #expect(file.readings.map(\.rssi) == [-38, -40])
        #expect(file.readings.map(\.centimetres) == [10, 100])
        // 2021-01-08T14:23:51Z
        #expect(file.readings.first?.time == Timestamp(microseconds: 1_610_115_831_000_000))
        #expect(file.readings[1].time - file.readings[0].time == .seconds(2))
        for bad in ["2021-01-08,-38.0,10", "2021-01-08T14:23:51,-38.0,10", "2021-01-08 14:23:51,loud,10", "2021-01-08 14:23:51,-38,1.5",
                    "2021-01-08 14:23:51,-38"] {
            #expect(throws: ResearchDataError.self) { try ResearchFile.parse(name: "x", bytes: Array("time,rssi,distance\n\(bad)\n".utf8)) }
        }
    }

    @Test func calibratesFromTheMedianAtOneMetre() {
        let file = Self.file("p-A", [(100, -60, 3), (100, -58, 2), (200, -20, 9)])
        #expect(file.measuredPower == -60)
        #expect(Self.file("p-A", [(200, -60, 3)]).measuredPower == nil)
    }

    /// A beacon at its calibration distance ranges at 1 m with the log model; 20 dB weaker is 10 m; the
    /// calibration distance is not scored, and every other tick is scored against the distance of the
    /// latest reading before it (the tick's interval holds exactly that reading).
    @Test func scoresEveryHeardTickAgainstTheTruth() throws {
        let file = Self.file("p-A", [(100, -59, 60), (1000, -79, 61), (30, -59, 20), (200, -59, 10)])
        let measuredPower = try #require(file.measuredPower)
        #expect(measuredPower == -59)
        let ticks = ResearchEvaluation.ticks(file, measuredPower: measuredPower, estimator: Self.logModel)
        #expect(ticks.count == 151)
        #expect(ticks.prefix(60).allSatisfy { $0.truth == 1 && abs($0.estimate - 1) < 1e-9 })
        let scored = ResearchEvaluation.scored(ticks)
        #expect(scored.count == 91)
        #expect(scored.prefix(61).allSatisfy { $0.truth == 10 && abs($0.estimate - 10) < 1e-9 && $0.proximity == .far })
        #expect(scored.suffix(30).allSatisfy { abs($0.estimate - 1) < 1e-9 && $0.proximity == .near })
        // Errors: 61 × 0 m, 20 × 0.7 m, 10 × 1 m.
        let scores = TickScoring.scores(scored)
        #expect(abs(try #require(scores[.medianError])) < 1e-9)
        #expect(abs(try #require(scores[.p90Error]) - 1) < 1e-9)
        // 0.3 m is immediate and its estimate of 1 m near; 2 m and its 1 m are both near.
        #expect(abs(try #require(scores[.proximityAccuracy]) - 100.0 * 71 / 91) < 1e-9)
    }

    /// The fitted exponent of a file comes from the other phone pairs only.
    @Test func fitsOnTheOtherPairsOnly() throws {
        // Pair p3: 20 dB per decade (n = 2); pair p2: 30 dB per decade (n = 3), each side of 1 m.
        let n2 = [(100, Int8(-59), 5), (1000, -79, 5), (10, -39, 5)]
        let n3 = [(100, Int8(-59), 5), (1000, -89, 5), (10, -29, 5)]
        #expect(abs(try #require(ResearchEvaluation.fittedExponent([Self.file("p2-A", n3)])) - 3) < 1e-9)
        let files = [Self.file("p2-A", n3), Self.file("p2-B", n3), Self.file("p3-A", n2)]
        var notes: [String] = []
        let results = ResearchEvaluation.evaluate(files, models: [EvalModel(name: EvalModel.beaconDefaultName, estimator: Self.logModel)],
                                                  notes: &notes)
        #expect(notes.isEmpty)
        #expect(results.map(\.file) == ["p2-A", "p2-B", "p3-A"])
        #expect(results.map(\.fittedExponent) == [2, 2, 3])
        #expect(results.allSatisfy { $0.models.map(\.name) == [EvalModel.beaconDefaultName, EvalModel.fittedLogDistanceName] })
        #expect(results.allSatisfy { $0.ticks.count == 2 && $0.ticks[0].count == 10 })
    }

    @Test func leavesOutAFileThatCannotBeCalibrated() {
        var notes: [String] = []
        let results = ResearchEvaluation.evaluate([Self.file("p-A", [(200, -60, 5)])], models: EvalModel.compared(), notes: &notes)
        #expect(results.isEmpty)
        #expect(notes.count == 1)
    }

    /// The summary figure divides beacon default's median errors by AltBeacon default's.
    @Test func summaryFigure() throws {
        let file = Self.file("p-A", [(100, -59, 10), (1000, -79, 20)])
        let models = [EvalModel(name: EvalModel.beaconDefaultName, estimator: Self.logModel),
                      EvalModel(name: EvalModel.altBeaconDefaultName, estimator: RangingEstimator(filter: .intervalMean, distance: .altBeacon))]
        var notes: [String] = []
        let summary = try #require(RealDataSummary(ResearchEvaluation.evaluate([file], models: models, notes: &notes)))
        #expect(summary.defaultMeanOfMedians < 1e-9)
        // AltBeacon's curve at r = 79/59: 0.42093 r^6.9476 + 0.54992.
        let altBeacon = 0.42093 * pow(79.0 / 59, 6.9476) + 0.54992
        #expect(abs(summary.altBeaconPooled - abs(altBeacon - 10)) < 1e-6)
        #expect(summary.isMet)
    }
}
