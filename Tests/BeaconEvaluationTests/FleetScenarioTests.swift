#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import BeaconCore
import BeaconEvaluation
import Testing

@Suite("Fleet scenario")
struct FleetScenarioTests {
    @Test func aTrackStandsWalksAtItsSpeedAndStands() {
        let track = FleetTrack(name: "line", waypoints: [Point2(x: 0, y: 0), Point2(x: 2, y: 0), Point2(x: 2, y: 1)],
                               speed: 0.5, standing: .seconds(10))
        #expect(track.length == 3)
        #expect(track.duration == .seconds(26))
        #expect(track.position(after: .seconds(10)) == Point2(x: 0, y: 0))
        #expect(track.position(after: .seconds(12)) == Point2(x: 1, y: 0))
        #expect(track.position(after: .seconds(15)) == Point2(x: 2, y: 0.5))
        #expect(track.position(after: .seconds(26)) == Point2(x: 2, y: 1))
    }

    @Test func everyGatewayReportsOnceASecondInTimeOrderWithTheTruthEachSecond() {
        let scenario = FleetScenario(FleetScenario.diagonal, seed: 1)
        let seconds = Int(FleetScenario.diagonal.duration.value / 1_000_000) + 1
        #expect(scenario.truth.count == seconds)
        #expect(scenario.messages.count == 4 * seconds)
        #expect(zip(scenario.messages, scenario.messages.dropFirst()).allSatisfy { $0.0.time < $0.1.time })
        for gateway in FleetScenario.site.gateways {
            let own = scenario.messages.filter { $0.gateway == gateway.name }
            #expect(own.map(\.sequence) == Array(1...seconds))
            #expect(own.allSatisfy { $0.readings.count == 1 && $0.readings[0].id == FleetScenario.beacon })
        }
        #expect(scenario.truth.first?.room == "west" && scenario.truth.last?.room == "east")
        #expect(scenario.truth.first?.x == 0.5 && scenario.truth.first?.y == 0.5)
    }

    @Test func theSameSeedGivesTheSameReadingsAndAnotherSeedOthers() {
        let one = FleetScenario(FleetScenario.boundary, seed: 7).messages
        #expect(one == FleetScenario(FleetScenario.boundary, seed: 7).messages)
        #expect(one != FleetScenario(FleetScenario.boundary, seed: 8).messages)
    }

    /// The error against the path loss has the mean of one reading in ten 6 dB low (−0.6 dB) and the spread of
    /// 2.5 dB noise and those readings together (√(2.5² + 0.09 × 6²) = 3.1 dB).
    @Test func readingsFollowThePathLossWithNoiseAndSomeLowReadings() {
        let scenario = FleetScenario(FleetScenario.diagonal, seed: 3)
        var errors: [Double] = []
        for message in scenario.messages {
            guard let gateway = FleetScenario.site.gateways.first(where: { $0.name == message.gateway }) else { continue }
            let elapsed = message.time - FleetScenario.start
            let here = FleetScenario.diagonal.position(after: elapsed)
            let flat = (here.x - gateway.x) * (here.x - gateway.x) + (here.y - gateway.y) * (here.y - gateway.y)
            let distance = (flat + 1).squareRoot()
            let expected = -59 - 20 * log10(distance)
            errors.append(message.readings[0].rssi - expected)
            let accuracy = message.readings[0].accuracy
            #expect(abs(accuracy - pow(10, (-59 - message.readings[0].rssi) / 20)) < 1e-9)
        }
        let mean = errors.reduce(0, +) / Double(errors.count)
        let spread = (errors.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(errors.count)).squareRoot()
        #expect(mean > -0.95 && mean < -0.25, "mean \(mean)")
        #expect(spread > 2.8 && spread < 3.4, "spread \(spread)")
    }
}
