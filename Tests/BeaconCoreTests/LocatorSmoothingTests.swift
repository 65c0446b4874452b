@testable import BeaconCore
import Testing

@Suite("beacon locate's smoothing: each window's lines published later, its estimate weighed by the readings since")
struct LocatorSmoothingTests {
    typealias F = LocatorFixture

    static func settings(smoothing seconds: Int64) -> Locator.Settings {
        var settings = Locator.Settings()
        settings.maximumLateness = nil
        settings.smoothing = .seconds(seconds)
        return settings
    }

    /// Feeds one message per gateway a second, the beacon at `position`, to `through` seconds; the lines
    /// so far (no finish).
    static func feed(_ locator: inout Locator, through seconds: Int, position: (Int) -> Point2?) -> [LocateOutput] {
        var rng = SplitMix64(seed: 1)
        var outputs: [LocateOutput] = []
        for second in 1...seconds {
            let time = F.at(seconds: Double(second))
            for message in F.messages(at: time, beaconAt: position(second), sequence: second, rng: &rng) {
                _ = locator.receive(message, arrival: time)
            }
            locator.advance(arrival: time) { outputs.append($0) }
        }
        return outputs
    }

    @Test("a beacon's first windows are published only once the smoothing has passed, each line at the time it describes")
    func firstWindows() {
        var locator = Locator(site: F.site, settings: Self.settings(smoothing: 3))
        let outputs = Self.feed(&locator, through: 5) { _ in Point2(x: 1.5, y: 2) }
        // Windows end at 1…5 s; at 5 s those ending up to 2 s are out.
        #expect(outputs.compactMap(\.located).map(\.time) == [F.at(seconds: 1), F.at(seconds: 2)])
        #expect(outputs.filter(\.isRoom).count == 1)
        #expect(outputs.first?.isRoom == true && outputs.first?.time == F.at(seconds: 1))
    }

    @Test("a smoothing longer than the track holds every line back until the end, then publishes them all in order")
    func longerThanTheTrack() {
        var locator = Locator(site: F.site, settings: Self.settings(smoothing: 60))
        #expect(Self.feed(&locator, through: 10) { _ in Point2(x: 1.5, y: 2) }.isEmpty)
        var finished: [LocateOutput] = []
        locator.finish { finished.append($0) }
        #expect(finished.compactMap(\.located).map(\.time) == (1...10).map { F.at(seconds: Double($0)) })
        #expect(finished.compactMap(\.located).allSatisfy { $0.room == "A" && $0.fix != nil && $0.gateways.count == 4 })
        var again: [LocateOutput] = []
        locator.finish { again.append($0) }
        #expect(again.isEmpty)
    }

    @Test("a beacon no longer heard has its held-back lines published before its away line")
    func heldLinesBeforeAway() throws {
        var settings = Self.settings(smoothing: 5)
        settings.awayAfter = .seconds(10)
        var locator = Locator(site: F.site, settings: settings)
        let outputs = Self.feed(&locator, through: 40) { $0 <= 10 ? Point2(x: 1.5, y: 2) : nil }
        let index = outputs.firstIndex { $0.isAway }
        let away = try #require(index)
        let times = outputs[..<away].compactMap(\.located).map(\.time)
        // Heard to 10 s, the latest readings counting for the 3 s freshness after.
        #expect(times == (1...13).map { F.at(seconds: Double($0)) })
        #expect(outputs[(away + 1)...].isEmpty)
    }

    @Test("with no smoothing, every window's lines come out in the window itself")
    func noSmoothing() {
        var locator = Locator(site: F.site, settings: Self.settings(smoothing: 0))
        let outputs = Self.feed(&locator, through: 5) { _ in Point2(x: 1.5, y: 2) }
        #expect(outputs.compactMap(\.located).map(\.time) == (1...5).map { F.at(seconds: Double($0)) })
    }

    @Test("a beacon walked slowly across the wall is placed nearer its track with hindsight, and its room line comes sooner in the time it describes")
    func hindsightPlacesAWalker() throws {
        // 0.2 m/s along y = 2 from x = 0.5: it crosses the wall (x = 3) at 12.5 s.
        func track(_ second: Int) -> Point2 { Point2(x: min(5.5, 0.5 + 0.2 * Double(second)), y: 2) }
        func run(smoothing: Int64) -> (error: Double, toB: Timestamp?) {
            var locator = Locator(site: F.site, settings: Self.settings(smoothing: smoothing))
            let outputs = F.run(&locator, seconds: 30, seed: 5, noise: { rng in 2.5 * rng.normal() }, position: track)
            let located = outputs.compactMap(\.located)
            let errors = located.compactMap { line -> Double? in
                guard let point = line.fix?.point else { return nil }
                let second = Int((line.time - F.at(seconds: 0)).value / 1_000_000)
                let truth = track(second)
                return ((point.x - truth.x) * (point.x - truth.x) + (point.y - truth.y) * (point.y - truth.y)).squareRoot()
            }
            return (errors.reduce(0, +) / Double(errors.count), outputs.first { $0.isRoom && $0.json.contains(#""to":"B""#) }?.time)
        }
        let live = run(smoothing: 0), smoothed = run(smoothing: 3)
        #expect(smoothed.error < live.error, "\(smoothed.error) \(live.error)")
        let liveToB = try #require(live.toB), smoothedToB = try #require(smoothed.toB)
        #expect(smoothedToB <= liveToB)
    }

    @Test("windows held back when the beacon is heard on another floor keep the floor they had; the new floor named within two windows")
    func floorChange() throws {
        let square = F.rectangle(0, 0, 4, 4)
        let site = Site(rooms: [Room(name: "down", polygon: square), Room(name: "up", polygon: square, floor: 1)],
                        gateways: [SiteGateway(name: "d1", x: 0, y: 0), SiteGateway(name: "d2", x: 4, y: 4),
                                   SiteGateway(name: "u1", x: 0, y: 0, floor: 1), SiteGateway(name: "u2", x: 4, y: 4, floor: 1)],
                        floors: [Floor(level: 0), Floor(level: 1)])
        var locator = Locator(site: site, settings: Self.settings(smoothing: 3))
        var outputs: [LocateOutput] = []
        for second in 1...12 {
            let time = F.at(seconds: Double(second))
            let floor = second <= 6 ? 0 : 1
            for gateway in site.gateways {
                let near = gateway.x == 0
                let readings = gateway.floor == floor ? [F.reading(atDistance: near ? 1.4 : 4.2)] : []
                _ = locator.receive(GatewayReadings(gateway: gateway.name, time: time, sequence: second, readings: readings), arrival: time)
            }
            locator.advance(arrival: time) { outputs.append($0) }
        }
        locator.finish { outputs.append($0) }
        let located = outputs.compactMap(\.located)
        #expect(located.map(\.time) == (1...12).map { F.at(seconds: Double($0)) })
        #expect(located.allSatisfy { $0.fix != nil })
        // Heard only upstairs from 7 s: hindsight does not take the windows before upstairs.
        #expect(located.prefix(6).allSatisfy { $0.room == "down" && $0.fix?.floor == 0 })
        #expect(located.suffix(4).allSatisfy { $0.room == "up" && $0.fix?.floor == 1 })
        #expect(outputs.last { $0.located != nil }?.json.contains(#""floor":1,"#) == true)
        #expect(outputs.filter(\.isRoom).count == 2)
    }

    @Test("the same readings in any interleaving give the same smoothed lines")
    func interleavingsAgree() {
        var rng = SplitMix64(seed: 11)
        var messages: [GatewayReadings] = []
        for second in 1...30 {
            messages += F.messages(at: F.at(seconds: Double(second)), beaconAt: Point2(x: 0.5 + 0.15 * Double(second), y: 2),
                                   sequence: second, noise: { rng in 2 * rng.normal() }, rng: &rng)
        }
        func lines(_ order: [GatewayReadings]) -> [String] {
            var locator = Locator(site: F.site, settings: Self.settings(smoothing: 4))
            var lines: [String] = []
            for message in order {
                _ = locator.receive(message, arrival: message.time)
                locator.advance(arrival: message.time) { lines.append($0.json) }
            }
            locator.finish { lines.append($0.json) }
            return lines
        }
        let byTime = lines(messages)
        #expect(byTime.count > 30)
        #expect(lines(F.site.gateways.reversed().flatMap { g in messages.filter { $0.gateway == g.name } }) == byTime)
    }
}

@Suite("the position filter's past steps, carried through resampling")
struct PositionFilterPastTests {
    typealias F = LocatorFixture

    static func observations(at point: Point2, noise: Double, rng: inout SplitMix64) -> [SignalObservation] {
        F.site.gateways.indices.map { index in
            let gateway = F.site.gateways[index]
            let distance = ((gateway.x - point.x) * (gateway.x - point.x) + (gateway.y - point.y) * (gateway.y - point.y)).squareRoot()
            return SignalObservation(gateway: index, rssi: F.rssi(atDistance: distance) + noise * rng.normal(), sigma: 1,
                                     measuredPower: Double(F.measuredPower))
        }
    }

    @Test("resampling carries each particle's past with it: the latest step's places are the particles', each earlier step's a draw of that step's places (or of fresh draws since), each within a walk of its particle now")
    func pastsFollowTheirParticles() throws {
        var map = SiteMap(site: F.site)
        var filter = PositionFilter(seed: 9)
        var rng = SplitMix64(seed: 2)
        var places: [Timestamp: Set<[Float]>] = [:]
        var standingChecked = 0
        var own = 0.0, others = 0.0
        // Readings with a 1 dB sigma and 3 dB of noise: the weights concentrate, so the filter resamples.
        for second in 1...20 {
            let time = F.at(seconds: Double(second))
            let point = Point2(x: 0.5 + 0.25 * Double(second), y: 2)
            #expect(filter.step(to: time, Self.observations(at: point, noise: 3, rng: &rng), map: &map, model: SignalModel()))
            let latest = try #require(filter.past.last)
            #expect(latest.time == time && latest.x == filter.x && latest.y == filter.y)
            places[time] = Set(zip(latest.x, latest.y).map { [$0, $1] })
            // A particle standing now only drifted since the step before, after resampling's kernel (which keeps
            // the cloud's spread, pulling each place towards the mean by 1 - √(1 - h²) and jittering it by h of
            // the spread: about a fifth of the spread's square): its place then must be its own ancestor's,
            // wherever resampling moved it, so it is much nearer its own than another particle's.
            if filter.past.count >= 2 {
                let before = filter.past[filter.past.count - 2]
                let count = filter.x.count
                for i in filter.x.indices where !filter.walking[i] {
                    let other = (i + count / 2) % count
                    own += Double((filter.x[i] - before.x[i]) * (filter.x[i] - before.x[i]) + (filter.y[i] - before.y[i]) * (filter.y[i] - before.y[i]))
                    others += Double((filter.x[i] - before.x[other]) * (filter.x[i] - before.x[other])
                        + (filter.y[i] - before.y[other]) * (filter.y[i] - before.y[other]))
                    standingChecked += 1
                }
            }
        }
        #expect(own < others / 4)
        #expect(filter.past.count == 20)
        #expect(standingChecked > 100)
        for step in filter.past {
            // A particle drawn afresh since (`PositionFilter.freshShare`) stood, as far as the past knows, where it was drawn.
            let since = places.filter { $0.key >= step.time }.values.reduce(into: Set<[Float]>()) { $0.formUnion($1) }
            #expect(Set(zip(step.x, step.y).map { [$0, $1] }).isSubset(of: since))
            // At most 2 m/s, plus the standing drift (0.05 m/√s, here to 5 sigma).
            let seconds = Double((F.at(seconds: 20) - step.time).value) / 1e6
            let reach = Float(2 * seconds + 5 * 0.05 * seconds.squareRoot() * 2.squareRoot()) + 1e-4
            #expect(filter.x.indices.allSatisfy { i in
                let dx = filter.x[i] - step.x[i], dy = filter.y[i] - step.y[i]
                return (dx * dx + dy * dy).squareRoot() <= reach
            })
        }
    }

    @Test("a step's estimate is there until it is forgotten; one never stepped to has none")
    func forgetting() {
        var map = SiteMap(site: F.site)
        var filter = PositionFilter(seed: 9)
        var rng = SplitMix64(seed: 2)
        #expect(filter.estimate(at: F.at(seconds: 1), map: map) == nil)
        for second in 1...5 {
            filter.step(to: F.at(seconds: Double(second)), Self.observations(at: Point2(x: 1, y: 2), noise: 1, rng: &rng),
                        map: &map, model: SignalModel())
        }
        #expect((1...5).allSatisfy { filter.estimate(at: F.at(seconds: Double($0)), map: map) != nil })
        filter.forget(through: F.at(seconds: 4))
        #expect(filter.estimate(at: F.at(seconds: 1), map: map) == nil)
        #expect(filter.estimate(at: F.at(seconds: 4), map: map) == nil)
        #expect(filter.estimate(at: F.at(seconds: 5), map: map) != nil)
        #expect(filter.estimate(at: F.at(seconds: 5.5), map: map) == nil)
    }

    @Test("the same seed and readings give the same past estimates")
    func deterministic() throws {
        func pastPoints() -> [Point2] {
            var map = SiteMap(site: F.site)
            var filter = PositionFilter(seed: 4)
            var rng = SplitMix64(seed: 8)
            for second in 1...10 {
                _ = filter.step(to: F.at(seconds: Double(second)), Self.observations(at: Point2(x: Double(second) / 2, y: 1), noise: 2, rng: &rng),
                                map: &map, model: SignalModel())
            }
            return (1...10).compactMap { filter.estimate(at: F.at(seconds: Double($0)), map: map)?.point }
        }
        let first = pastPoints()
        #expect(first.count == 10)
        #expect(pastPoints() == first)
    }
}
