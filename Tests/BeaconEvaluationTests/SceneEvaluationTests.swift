import BeaconCore
import BeaconEvaluation
import BeaconSimulation
import Testing

/// Short scenes with a noise-free radio, where every answer is known.
@Suite("Scene evaluation")
struct SceneEvaluationTests {
    static let uuid = BeaconUUID(high: 0xE2C5_6DB5_DFFB_48D2, low: 0xB060_D0F5_A710_96E0)
    /// Path loss alone: every packet arrives at the mean power of its true distance.
    static let quietRadio = RadioModel(pathLossExponent: 2, shadowing: .init(sigma: 0), channelOffsets: [0, 0, 0], fastFading: 0)
    static let logModel = RangingEstimator(filter: .intervalMean, distance: .logDistance(exponent: 2))

    static func scene(_ path: BeaconPath, stop: Micros? = nil, seconds: Int64 = 60) -> Scene {
        var beacon = SceneBeacon(beacon: .iBeacon(IBeacon(identity: IBeaconID(uuid: uuid, major: 1, minor: 1), measuredPower: -59)),
                                 address: SceneBeacon.defaultAddress(index: 0), path: path)
        beacon.stop = stop
        return Scene(name: "test", duration: .seconds(seconds), radio: quietRadio,
                     regions: [NamedRegion(name: "test", region: BeaconRegion(uuid: uuid))], beacons: [beacon])
    }

    /// A beacon at its calibration distance ranges at 1 m with the log model, every tick, with no error.
    @Test func beaconAtItsCalibrationDistance() throws {
        let recording = try SceneRecording(Self.scene(.standing(distance: 1)), seed: 1)
        #expect(recording.truth.count == 60)
        #expect(recording.beaconsNeverLeave && recording.allStandStill)
        let run = SceneRun(recording, estimator: Self.logModel)
        #expect(run.malformedPackets == 0)
        #expect(run.ticks.count == 59)
        #expect(run.ticks.allSatisfy { $0.beacon == 0 && $0.tick.truth == 1 && abs($0.tick.estimate - 1) < 1e-9 })
        let scores = TickScoring.scores(run.ticks.map(\.tick))
        #expect(scores[.medianError].map { $0 < 1e-9 } == true)
        #expect(scores[.proximityAccuracy] == 100)
        #expect(SceneMetrics.falseExits(run, recording) == 0)
        #expect(SceneMetrics.flips(run, beacons: 1) == 0)
        // Entered with the first advertisement, within one advertising interval and its jitter.
        let enter = try #require(SceneMetrics.enterLatencies(run, recording).first)
        #expect(enter >= 0 && enter <= 0.11)
        #expect(SceneMetrics.exitLatencies(run, recording).isEmpty)
    }

    /// A beacon switched off at 20 s: the truth departs at the 20 s tick, the monitor exits `exitAfter`
    /// after the last advertisement.
    @Test func exitLatency() throws {
        let recording = try SceneRecording(Self.scene(.standing(distance: 2), stop: .seconds(20)), seed: 1)
        #expect(!recording.beaconsNeverLeave)
        let changes = SceneMetrics.changes(recording, region: 0)
        #expect(changes.arrivals == [recording.start] && changes.departures == [recording.start + .seconds(20)])
        let run = SceneRun(recording, estimator: Self.logModel)
        let exit = try #require(SceneMetrics.exitLatencies(run, recording).first)
        #expect(exit > 9.8 && exit <= 10)
        #expect(SceneMetrics.falseExits(run, recording) == 0)
    }

    /// Walked out to 3 m and back: two steps (arrival at 3 m, back at 1 m), each followed at once by a
    /// noise-free estimate; a 20 s average follows late.
    @Test func lagAfterAStep() throws {
        let path = BeaconPath.leavingAndReturning(distance: 1, away: 3, speed: 1, leaveAt: .seconds(5), awayFor: .seconds(25))
        let recording = try SceneRecording(Self.scene(path, seconds: 70), seed: 1)
        let steps = SceneMetrics.steps(recording)
        #expect(steps.map { ($0.time - recording.start).seconds } == [7, 34])
        let run = SceneRun(recording, estimator: Self.logModel)
        #expect(SceneMetrics.lags(run, steps: steps) == [0, 0])
        // Walking at 1 m/s, a tick's estimate (the mean of the last second's readings) is about half a
        // second behind the truth at the tick.
        #expect(run.ticks.allSatisfy { $0.tick.absoluteError < 0.7 })
        #expect(run.ticks.contains { $0.tick.absoluteError > 0.3 })
        var slow = Self.logModel
        slow.filter = .trimmedMean(window: .seconds(20), fraction: 0)
        let slowLags = SceneMetrics.lags(SceneRun(recording, estimator: slow), steps: steps)
        #expect(slowLags.allSatisfy { $0 > 1 })
    }

    /// The evaluation of a whole (short) scene fills the columns that apply to it.
    @Test func sceneTable() throws {
        let result = try SceneEvaluation.evaluate(Self.scene(.standing(distance: 1)), models: [
            EvalModel(name: EvalModel.beaconDefaultName, estimator: Self.logModel, plotted: true),
            EvalModel(name: "other", estimator: RangingEstimator(filter: .intervalMean, distance: .logDistance(exponent: 3)))])
        #expect(result.dataset.metrics == [.medianError, .p90Error, .proximityAccuracy, .enterLatency,
                                           .falseExits0, .falseExits30, .falseExits50, .flips])
        #expect(result.dataset.rows.allSatisfy { $0.scores[.falseExits50] == 0 && $0.scores[.flips] == 0 })
        #expect(result.plotFiles.map(\.name) == ["scene-test-distance.csv", "scene-test-regions.csv"])
        #expect(ReportTable.shortfalls(result.dataset).isEmpty)
    }
}
