@testable import BeaconCore
@testable import BeaconSimulation
import Testing

@Suite("beacon locate's fuser: readings in, each beacon's room and position per interval")
struct LocatorTests {
    typealias F = LocatorFixture

    @Test("a beacon standing in room A is located in A within 1 m, with one room line from null to A")
    func standingInA() throws {
        var locator = Locator(site: F.site)
        let outputs = F.run(&locator, seconds: 20) { _ in Point2(x: 1.5, y: 2) }
        let rooms = outputs.filter(\.isRoom).map(\.json)
        try #require(rooms.count == 1, "\(rooms)")
        #expect(rooms[0].contains(#""from":null,"to":"A""#))
        let last = try #require(outputs.compactMap(\.located).last)
        #expect(last.room == "A")
        let point = try #require(last.fix?.point)
        #expect(abs(point.x - 1.5) < 1 && abs(point.y - 2) < 1, "\(point)")
        #expect(last.gateways.count == 4)
    }

    @Test("a beacon walking from A to B gets its room line to B within 5 s of crossing")
    func walkingToB() throws {
        var locator = Locator(site: F.site)
        // 0.5 m/s along y = 2 from x = 0.5; it crosses x = 3 at 5 s.
        let outputs = F.run(&locator, seconds: 20) { second in Point2(x: min(5.5, 0.5 + 0.5 * Double(second)), y: 2) }
        let toB = try #require(outputs.first { $0.isRoom && $0.json.contains(#""to":"B""#) })
        #expect(toB.time - F.at(seconds: 5) <= .seconds(5), "\(toB.json)")
        #expect(outputs.filter(\.isRoom).count == 2)
    }

    @Test("a beacon standing 1 m from the wall between the rooms, with noisy distances, does not flap over 10 minutes")
    func noFlapNearTheWall() {
        var locator = Locator(site: F.site)
        // ESPresense's accuracy scenario's noise: 2.5 dB, and one reading in ten 6 dB low (a body in the way).
        let outputs = F.run(&locator, seconds: 600, seed: 42, noise: { rng in 2.5 * rng.normal() - (rng.chance(0.1) ? 6 : 0) }) { _ in
            Point2(x: 2, y: 2)
        }
        #expect(outputs.filter(\.isRoom).map(\.json).count == 1, "\(outputs.filter(\.isRoom).map(\.json))")
        #expect(outputs.compactMap(\.located).allSatisfy { $0.room == "A" })
    }

    /// The fixture's rooms and gateways downstairs, the same rooms upstairs 2.5 m up and one gateway there
    /// above (1.5, 2), its slab's attenuation as the site file gives it (nil: not given).
    static func upstairsSite(slab: Double?) -> Site {
        Site(rooms: F.site.rooms + [Room(name: "upA", polygon: F.rectangle(0, 0, 3, 4), floor: 1),
                                    Room(name: "upB", polygon: F.rectangle(3, 0, 6, 4), floor: 1)],
             gateways: F.site.gateways + [SiteGateway(name: "up", x: 1.5, y: 2, room: "upA", floor: 1)],
             floors: [Floor(level: 0, height: 2.5), Floor(level: 1, height: 2.5, attenuation: slab)])
    }

    /// Feeds `site`'s gateways a message a second for `seconds`, from a beacon at `beacon(second)` on floor
    /// 0 (2.5 m high): each reading the model's at its 3-D distance, `lost` dB less upstairs, plus
    /// `noise` dB of Gaussian noise; `window` sees each second's readings (in the site's order) and the lines
    /// it fused.
    static func feedFromDownstairs(_ locator: inout Locator, site: Site, beacon: (Int) -> Point2 = { _ in Point2(x: 1.5, y: 2) }, seconds: Int,
                                   lost: Double, noise: Double, seed: UInt64, window: (Int, [Double], [LocateOutput]) -> Void) {
        var rng = SplitMix64(seed: seed)
        for second in 1...seconds {
            let time = F.at(seconds: Double(second))
            let beacon = beacon(second)
            let rssis = site.gateways.map { gateway in
                let dx = gateway.x - beacon.x, dy = gateway.y - beacon.y, dz = gateway.floor == 1 ? 2.5 : 0
                return F.rssi(atDistance: (dx * dx + dy * dy + dz * dz).squareRoot()) - (gateway.floor == 1 ? lost : 0) + noise * rng.normal()
            }
            for (gateway, rssi) in zip(site.gateways, rssis) {
                _ = locator.receive(GatewayReadings(gateway: gateway.name, time: time, sequence: second, readings: [F.reading(rssi: rssi)]),
                                    arrival: time)
            }
            var outputs: [LocateOutput] = []
            locator.advance(arrival: time) { outputs.append($0) }
            window(second, rssis, outputs)
        }
    }

    @Test("a beacon standing downstairs, a gateway upstairs as near as the nearest downstairs, stays on its floor: not a window upstairs once settled",
          arguments: [UInt64(7), 8, 9, 10, 11, 12, 13, 14, 15, 16])
    func staysOnItsFloor(seed: UInt64) {
        // The gateway upstairs is 2.5 m above the beacon: as far as the two gateways downstairs nearest it.
        let site = Self.upstairsSite(slab: nil)
        var locator = Locator(site: site)
        var outputs: [LocateOutput] = []
        var upLoudest = 0
        Self.feedFromDownstairs(&locator, site: site, seconds: 300, lost: 0, noise: 3, seed: seed) { _, rssis, lines in
            if rssis.last == rssis.max() { upLoudest += 1 }
            outputs += lines
        }
        locator.finish { outputs.append($0) }
        #expect(upLoudest >= 60, "the gateway upstairs is the loudest in \(upLoudest) of 300 windows")
        let located = outputs.compactMap(\.located)
        #expect(located.count == 300)
        // The first windows, the beacon's power not learned yet and a slab that loses nothing, may not tell
        // the floors apart; from the sixth on it is in A, and its room changes at most once.
        let settled = located.dropFirst(5)
        #expect(settled.allSatisfy { $0.room == "A" }, "\(settled.filter { $0.room != "A" }.map(\.time))")
        #expect(outputs.filter(\.isRoom).count <= 2)
    }

    @Test("a beacon walked between the rooms and standing under a gateway upstairs in each is not taken upstairs by a few windows that fit there as well",
          arguments: [UInt64(7), 8, 9, 10, 11, 12, 13, 14, 15, 16])
    func windowsFavouringAnotherFloor(seed: UInt64) {
        var site = Self.upstairsSite(slab: nil)
        site = Site(rooms: site.rooms, gateways: site.gateways + [SiteGateway(name: "up2", x: 4.5, y: 2, room: "upB", floor: 1)], floors: site.floors)
        var locator = Locator(site: site)
        var outputs: [LocateOutput] = []
        // 20 s under the gateway upstairs over A, 3 s walking (1 m/s) to the one over B, 20 s there, 3 s back.
        func place(_ second: Int) -> Point2 {
            let phase = Double(second % 46)
            let x = phase < 20 ? 1.5 : phase < 23 ? 1.5 + (phase - 20) : phase < 43 ? 4.5 : 4.5 - (phase - 43)
            return Point2(x: x, y: 2)
        }
        Self.feedFromDownstairs(&locator, site: site, beacon: place, seconds: 920, lost: 0, noise: 3, seed: seed) { _, _, lines in
            outputs += lines
        }
        locator.finish { outputs.append($0) }
        let upstairs = outputs.compactMap(\.located).dropFirst(5).filter { $0.room?.hasPrefix("up") == true || $0.fix?.floor != 0 }
        #expect(upstairs.isEmpty, "\(upstairs.map(\.time))")
    }

    @Test("a beacon carried upstairs, heard on both floors through a 10 dB slab the site file does not give, is named upstairs within two windows",
          arguments: [UInt64(7), 8, 9, 10, 11])
    func carriedUpstairs(seed: UInt64) {
        let site = Self.upstairsSite(slab: nil)
        var locator = Locator(site: site)
        var rng = SplitMix64(seed: seed)
        var rooms: [String?] = []
        let beacon = Point2(x: 1, y: 1.2)
        for second in 1...60 {
            let time = F.at(seconds: Double(second))
            let floor = second <= 30 ? 0 : 1
            for gateway in site.gateways {
                let dx = gateway.x - beacon.x, dy = gateway.y - beacon.y, across = gateway.floor != floor
                let rssi = F.rssi(atDistance: (dx * dx + dy * dy + (across ? 6.25 : 0)).squareRoot()) - (across ? 10 : 0) + 3 * rng.normal()
                _ = locator.receive(GatewayReadings(gateway: gateway.name, time: time, sequence: second, readings: [F.reading(rssi: rssi)]),
                                    arrival: time)
            }
            locator.advance(arrival: time) { if let located = $0.located { rooms.append(located.room) } }
        }
        #expect(rooms.count == 60)
        #expect(rooms[5..<30].allSatisfy { $0 == "A" }, "\(rooms)")
        #expect(rooms[32...].allSatisfy { $0 == "upA" }, "\(rooms)")
    }

    @Test("what a slab the site file does not give loses is learned from the beacons' readings, and the beacon placed about as well as with it given",
          arguments: [0.0, 12])
    func learnsSlabLoss(lost: Double) {
        // Walked around both rooms downstairs at 0.5 m/s for ten minutes; the mean error of the last 200 s.
        let corners = [Point2(x: 1, y: 1), Point2(x: 5, y: 1), Point2(x: 5, y: 3), Point2(x: 1, y: 3)]
        func place(_ second: Int) -> Point2 {
            let along = Double(second).truncatingRemainder(dividingBy: 24) / 6, leg = Int(along), share = along - Double(leg)
            let from = corners[leg], to = corners[(leg + 1) % 4]
            return Point2(x: from.x + (to.x - from.x) * share, y: from.y + (to.y - from.y) * share)
        }
        func run(slab: Double?) -> (locator: Locator, error: Double) {
            let upstairs = Self.upstairsSite(slab: slab)
            let site = Site(rooms: upstairs.rooms, gateways: upstairs.gateways + [SiteGateway(name: "up2", x: 4.5, y: 2, room: "upB", floor: 1)],
                            floors: upstairs.floors)
            var locator = Locator(site: site)
            var errors: [Double] = []
            Self.feedFromDownstairs(&locator, site: site, beacon: place, seconds: 600, lost: lost, noise: 3, seed: 5) { second, _, lines in
                for fix in lines.compactMap({ $0.located?.fix }) where second > 400 { errors.append(fix.point.distance(to: place(second))) }
            }
            #expect(errors.count == 200)
            return (locator, errors.reduce(0, +) / Double(max(1, errors.count)))
        }
        let (locator, learnedError) = run(slab: nil), (_, givenError) = run(slab: lost)
        let learned = locator.slabLosses.loss(SlabLosses.Floors(0, 1), doubt: SignalModel().slabDoubt)
        #expect(learned.map { abs($0.mean - lost) <= 2 && $0.spread <= SlabLosses.usableSpread } == true, "\(String(describing: learned))")
        #expect(locator.signal.learnedSlabs[SlabLosses.Floors(1, 0)].map { abs($0.loss - lost) <= 2 } == true)
        #expect(learnedError <= givenError + 0.1, "\(learnedError) m learned, \(givenError) m given")
    }

    @Test("a beacon on a floor of two gateways, under a floor of four through a slab that loses nothing, is placed on its own floor",
          arguments: [UInt64(7), 8, 9, 10, 11, 12, 13, 14, 15, 16])
    func sparseFloorUnderBusyOne(seed: UInt64) {
        // The fixture's four corner gateways moved upstairs; downstairs one gateway in the middle of each room.
        let upstairs = F.site.gateways.map { SiteGateway(name: "up-" + $0.name, x: $0.x, y: $0.y, room: "up" + ($0.room ?? ""), floor: 1) }
        let site = Site(rooms: F.site.rooms + [Room(name: "upA", polygon: F.rectangle(0, 0, 3, 4), floor: 1),
                                               Room(name: "upB", polygon: F.rectangle(3, 0, 6, 4), floor: 1)],
                        gateways: [SiteGateway(name: "a", x: 1.5, y: 2, room: "A"), SiteGateway(name: "b", x: 4.5, y: 2, room: "B")] + upstairs,
                        floors: [Floor(level: 0, height: 2.5), Floor(level: 1, height: 2.5)])
        var locator = Locator(site: site)
        var outputs: [LocateOutput] = []
        Self.feedFromDownstairs(&locator, site: site, beacon: { _ in Point2(x: 1, y: 1.2) }, seconds: 300, lost: 0, noise: 3, seed: seed) { _, _, lines in
            outputs += lines
        }
        locator.finish { outputs.append($0) }
        let located = outputs.compactMap(\.located)
        #expect(located.count == 300)
        let settled = located.dropFirst(5)
        #expect(settled.allSatisfy { $0.room == "A" && $0.fix?.floor == 0 }, "\(settled.filter { $0.room != "A" }.map(\.time))")
        #expect(outputs.filter(\.isRoom).count <= 2)
    }

    @Test("a gateway upstairs heard through a 15 dB slab: placed where it stands with the slab in the site file, nearer with it unknown than held to 0 dB")
    func slabsKnownAndUnknown() {
        /// The mean distance of the fixes after the first 10 s from where the beacon stands.
        func meanError(slab: Double?) -> Double {
            let site = Self.upstairsSite(slab: slab)
            var locator = Locator(site: site)
            var errors: [Double] = []
            Self.feedFromDownstairs(&locator, site: site, seconds: 120, lost: 15, noise: 2, seed: 3) { second, _, lines in
                for fix in lines.compactMap({ $0.located?.fix }) where second > 10 { errors.append(fix.point.distance(to: Point2(x: 1.5, y: 2))) }
            }
            return errors.reduce(0, +) / Double(max(1, errors.count))
        }
        let known = meanError(slab: 15), unknown = meanError(slab: nil), wrong = meanError(slab: 0)
        #expect(known < 0.5, "\(known) m with the slab in the site file")
        #expect(known < unknown && unknown < wrong, "\(known) m with the slab, \(unknown) m unknown, \(wrong) m held to 0 dB")
    }

    @Test("messages delivered again (QoS 1 redelivers after a reconnection) are fused once: the same lines as without them")
    func repeatsFusedOnce() {
        let messages = F.walkMessages(seconds: 40, speed: 0.125, seed: 7)
        func lines(repeating: Bool) -> [String] {
            var locator = Locator(site: F.site)
            var lines: [String] = []
            var delivered: [GatewayReadings] = []
            for message in messages {
                #expect(locator.receive(message, arrival: message.time) == .accepted)
                delivered.append(message)
                // Every seventh message, the gateway's last few again: some in windows still open, some fused.
                if repeating, delivered.count % 7 == 0 {
                    for again in delivered.suffix(12) where again.gateway == message.gateway {
                        #expect(locator.receive(again, arrival: message.time) == .repeated)
                    }
                }
                locator.advance(arrival: message.time) { lines.append($0.json) }
            }
            locator.finish { lines.append($0.json) }
            #expect(locator.lossWarnings().isEmpty)
            return lines
        }
        let once = lines(repeating: false)
        #expect(once.count > 40)
        #expect(lines(repeating: true) == once)
    }

    @Test("replays fed to a live fuser (a lateness bound), all at once or one gateway after another with pauses: the lines of a fuser without a bound")
    func replaysFusedAsWithoutBound() {
        let messages = F.walkMessages(seconds: 60, speed: 0.08, seed: 11)
        var unbounded = Locator.Settings()
        unbounded.maximumLateness = nil
        /// Each message arrives at `arrival(gateway index, message)`; each gateway offline after its last.
        func lines(_ order: [GatewayReadings], settings: Locator.Settings = Locator.Settings(), replay: Bool = true,
                   arrival: (GatewayReadings) -> Timestamp) -> (lines: [String], late: Int) {
            var locator = Locator(site: F.site, settings: settings)
            var lines: [String] = []
            var late = 0
            for var message in order {
                message.replay = replay
                if locator.receive(message, arrival: arrival(message)) == .late { late += 1 }
                if message.sequence == 60 { _ = locator.status(gateway: message.gateway, online: false) }
                locator.advance(arrival: arrival(message)) { lines.append($0.json) }
            }
            locator.finish { lines.append($0.json) }
            return (lines, late)
        }
        let reference = lines(messages, settings: unbounded) { $0.time }.lines
        #expect(reference.count > 60)
        let byGateway = F.site.gateways.flatMap { g in messages.filter { $0.gateway == g.name } }
        let index = { (message: GatewayReadings) in Double(F.site.gateways.firstIndex { $0.name == message.gateway } ?? 0) }
        // Each gateway's replay reading for 12 s, the next one starting 8 s after it ends.
        let oneAfterAnother = { (message: GatewayReadings) in F.at(seconds: 20 * index(message) + Double(message.sequence) / 5) }
        let sequential = lines(byGateway, arrival: oneAfterAnother)
        #expect(sequential.lines == reference && sequential.late == 0)
        // All at once, gw4's replay 40 s of readings behind the others'.
        let behind = { (message: GatewayReadings) in message.sequence + (message.gateway == "gw4" ? 40 : 0) }
        let together = messages.sorted { behind($0) < behind($1) }
        let atOnce = lines(together, arrival: { F.at(seconds: Double(behind($0)) / 50) })
        #expect(atOnce.lines == reference && atOnce.late == 0)
        // Taken for live gateways, the same arrivals lose readings.
        let live = (lines(byGateway, replay: false, arrival: oneAfterAnother).late,
                    lines(together, replay: false, arrival: { F.at(seconds: Double(behind($0)) / 50) }).late)
        #expect(live.0 > 100 && live.1 > 30, "\(live) late")
    }

    @Test("replays of three of the site's four gateways: nothing fused while the fourth may still come; a stop fuses every window, and --until-offline ends once it is no longer waited for")
    func gatewayNeverHeard() {
        var locator = Locator(site: F.site)
        var lines: [LocateOutput] = []
        let heard = F.walkMessages(seconds: 20, speed: 0.1, seed: 3).filter { $0.gateway != "gw4" }
        for var message in heard {
            message.replay = true
            #expect(locator.receive(message, arrival: F.at(seconds: 0)) == .accepted)
            locator.advance(arrival: F.at(seconds: 0)) { lines.append($0) }
        }
        for gateway in ["gw1", "gw2", "gw3"] { _ = locator.status(gateway: gateway, online: false) }
        locator.advance(arrival: F.at(seconds: 1)) { lines.append($0) }
        #expect(lines.isEmpty, "gw4's replay may start next")
        #expect(!locator.isEveryGatewayDone(at: F.at(seconds: 60)))
        #expect(locator.isEveryGatewayDone(at: F.at(seconds: 65.1)), "60 s after the replay, then the 5 s bound")
        var stopped = locator
        stopped.stop(arrival: F.at(seconds: 1)) { lines.append($0) }
        #expect(lines.compactMap(\.located).count == 20)
        #expect(lines.last?.time == F.at(seconds: 20))
    }

    @Test("offline statuses retained from an earlier run: a gateway not heard yet is still waited for, --until-offline does not end before the replays, the lines are the same; one passed on live ends the wait")
    func earlierRunsOfflineStatuses() {
        let messages = F.walkMessages(seconds: 30, speed: 0.15, seed: 5)
        let byGateway = F.site.gateways.flatMap { g in messages.filter { $0.gateway == g.name } }
        func run(retained: Bool) -> (lines: [String], doneEarly: Bool) {
            var locator = Locator(site: F.site)
            if retained { for gateway in F.site.gateways { _ = locator.status(gateway: gateway.name, online: false, retained: true) } }
            let doneEarly = locator.isEveryGatewayDone(at: F.at(seconds: 100))
            var lines: [String] = []
            // One replay after another, each gateway online first and offline after its last message.
            for (index, gateway) in F.site.gateways.enumerated() {
                _ = locator.status(gateway: gateway.name, online: true)
                for var message in byGateway where message.gateway == gateway.name {
                    message.replay = true
                    let arrival = F.at(seconds: 10 * Double(index) + Double(message.sequence) / 10)
                    #expect(locator.receive(message, arrival: arrival) == .accepted)
                    locator.advance(arrival: arrival) { lines.append($0.json) }
                }
                _ = locator.status(gateway: gateway.name, online: false)
            }
            #expect(locator.isEveryGatewayDone(at: F.at(seconds: 40)))
            locator.finish { lines.append($0.json) }
            return (lines, doneEarly)
        }
        let fresh = run(retained: false), again = run(retained: true)
        #expect(fresh.lines.count > 30)
        #expect(again.lines == fresh.lines)
        #expect(!again.doneEarly && !fresh.doneEarly)
        // Passed on live, an offline status before any readings is this run's: the gateway came and went.
        var live = Locator(site: F.site)
        for gateway in F.site.gateways { _ = live.status(gateway: gateway.name, online: false) }
        #expect(live.isEveryGatewayDone(at: F.at(seconds: 0)))
    }

    @Test("sequence numbers skipped are reported once as messages lost, with the gateway; a gateway started again loses none")
    func lostMessagesReported() {
        var rng = SplitMix64(seed: 7)
        var locator = Locator(site: F.site)
        let lost = F.site.gateways[1].name
        var reports: [[String]] = []
        for second in 1...30 {
            // gw 1's messages 10 to 12 never arrive; from 20 s gateway 2 runs again, its numbers from 1.
            for var message in F.messages(at: F.at(seconds: Double(second)), beaconAt: Point2(x: 1.5, y: 2), sequence: second, rng: &rng) {
                if message.gateway == lost, (10...12).contains(second) { continue }
                if message.gateway == F.site.gateways[2].name, second >= 20 { message.sequence = second - 19 }
                #expect(locator.receive(message, arrival: message.time) == .accepted)
            }
            locator.advance(arrival: F.at(seconds: Double(second))) { _ in }
            reports.append(locator.lossWarnings().map { "\($0.gateway) \($0.missing) before \($0.before)" })
        }
        #expect(reports.flatMap { $0 } == ["\(lost) 3 before 13"])
        #expect(reports[12] == ["\(lost) 3 before 13"])
    }

    @Test("the same readings in any interleaving give the same lines (no lateness bound)")
    func interleavingsAgree() {
        var settings = Locator.Settings()
        settings.maximumLateness = nil
        let messages = F.walkMessages(seconds: 40, speed: 0.125, seed: 7)
        func lines(_ order: [GatewayReadings]) -> [String] {
            var locator = Locator(site: F.site, settings: settings)
            var lines: [String] = []
            for message in order {
                #expect(locator.receive(message, arrival: message.time) == .accepted)
                locator.advance(arrival: message.time) { lines.append($0.json) }
            }
            locator.finish { lines.append($0.json) }
            return lines
        }
        let byTime = lines(messages)
        #expect(byTime.count > 40)
        let byGateway = lines(F.site.gateways.flatMap { g in messages.filter { $0.gateway == g.name } })
        var shuffler = SplitMix64(seed: 3)
        // Each gateway's messages keep their order (as the broker delivers them); the gateways interleave at random.
        var queues = F.site.gateways.map { g in messages.filter { $0.gateway == g.name }[...] }
        var merged: [GatewayReadings] = []
        while let index = queues.indices.filter({ !queues[$0].isEmpty }).randomElement(using: &shuffler) {
            merged.append(queues[index].removeFirst())
        }
        let shuffled = lines(merged)
        let gatewayByGatewayReversed = lines(F.site.gateways.reversed().flatMap { g in messages.filter { $0.gateway == g.name } })
        #expect(byGateway == byTime)
        #expect(shuffled == byTime)
        #expect(gatewayByGatewayReversed == byTime)
    }

    @Test("a message for a fused window is late, one from a gateway not in the site unknown, one 20 minutes ahead of the others or, a replay's, of the fuser's clock from the future")
    func refusals() {
        var locator = Locator(site: F.site)
        _ = F.run(&locator, seconds: 10) { _ in Point2(x: 1.5, y: 2) }
        var rng = SplitMix64(seed: 1)
        let old = F.messages(at: F.at(seconds: 3), beaconAt: Point2(x: 1, y: 1), rng: &rng)[0]
        #expect(locator.receive(old, arrival: F.at(seconds: 11)) == .late)
        let stranger = GatewayReadings(gateway: "gw9", time: F.at(seconds: 11), sequence: 1, readings: [])
        #expect(locator.receive(stranger, arrival: F.at(seconds: 11)) == .unknownGateway)
        let ahead = GatewayReadings(gateway: "gw2", time: F.at(seconds: 11 + 1_200), sequence: 11, readings: [])
        #expect(locator.receive(ahead, arrival: F.at(seconds: 11)) == .fromTheFuture)
        // Saying it is a replay's does not let it past the fuser's own clock.
        let replayed = GatewayReadings(gateway: "gw3", time: F.at(seconds: 11 + 1_200), sequence: 11, replay: true, readings: [])
        #expect(locator.receive(replayed, arrival: F.at(seconds: 11)) == .fromTheFuture)
        #expect(locator.lateness(at: F.at(seconds: 11)) == locator.settings.maximumLateness, "a refused message does not lift the lateness bound")
        let near = GatewayReadings(gateway: "gw3", time: F.at(seconds: 11 + 500), sequence: 12, replay: true, readings: [])
        #expect(locator.receive(near, arrival: F.at(seconds: 11)) == .accepted)
    }

    @Test("a replay (no lateness bound) takes a gateway that runs far ahead of the others: replays go at any pace")
    func replayRunsAhead() {
        var settings = Locator.Settings()
        settings.maximumLateness = nil
        var locator = Locator(site: F.site, settings: settings)
        for gateway in F.site.gateways {
            _ = locator.receive(GatewayReadings(gateway: gateway.name, time: F.at(seconds: 1), sequence: 1, readings: []), arrival: F.at(seconds: 1))
        }
        let ahead = GatewayReadings(gateway: "gw2", time: F.at(seconds: 1 + 3_600), sequence: 3_601, readings: [])
        #expect(locator.receive(ahead, arrival: F.at(seconds: 2)) == .accepted)
    }

    @Test("a gateway going offline keeps the beacon's room and gives no away line; its reading is listed as offline")
    func gatewayOffline() throws {
        var locator = Locator(site: F.site)
        var outputs = F.run(&locator, seconds: 5) { _ in Point2(x: 1, y: 1) }
        let known = locator.status(gateway: "gw1", online: false)
        #expect(known)
        var rng = SplitMix64(seed: 1)
        for second in 6...40 {
            let time = F.at(seconds: Double(second))
            for message in F.messages(at: time, beaconAt: Point2(x: 1, y: 1), sequence: second, rng: &rng) where message.gateway != "gw1" {
                #expect(locator.receive(message, arrival: time) == .accepted)
            }
            locator.advance(arrival: time) { outputs.append($0) }
        }
        #expect(outputs.filter(\.isAway).isEmpty)
        #expect(outputs.filter(\.isRoom).count == 1)
        let last = try #require(outputs.compactMap(\.located).last)
        #expect(last.room == "A")
        #expect(last.gateways.contains { $0.name == "gw1" && !$0.online })
    }

    @Test("an online gateway that stops hearing the beacon drops out of its gateways after the freshness")
    func stopsHearing() throws {
        var locator = Locator(site: F.site)
        var rng = SplitMix64(seed: 1)
        var outputs: [LocateOutput] = []
        for second in 1...20 {
            let time = F.at(seconds: Double(second))
            for var message in F.messages(at: time, beaconAt: Point2(x: 1, y: 1), sequence: second, rng: &rng) {
                if message.gateway == "gw4", second > 5 { message.readings = [] }
                _ = locator.receive(message, arrival: time)
            }
            locator.advance(arrival: time) { outputs.append($0) }
        }
        let located = outputs.compactMap(\.located)
        let withGW4 = located.filter { $0.gateways.contains { $0.name == "gw4" } }.map(\.time)
        let lastHeard = F.at(seconds: 5)
        #expect(withGW4.allSatisfy { $0 - lastHeard <= Locator.Settings().freshness })
        #expect(located.contains { $0.time - lastHeard > Locator.Settings().freshness })
        #expect(located.last?.gateways.count == 3)
    }

    @Test("no gateway hearing the beacon for the away time gives one away line")
    func away() {
        var locator = Locator(site: F.site)
        let outputs = F.run(&locator, seconds: 80) { second in second <= 5 ? Point2(x: 1, y: 1) : nil }
        let away = outputs.filter(\.isAway)
        #expect(away.count == 1)
        #expect(away.first.map { $0.json.contains(#""room":"A""#) } == true)
        #expect(locator.beaconCount == 0)
    }

    @Test("a message 500 s after the last, with one beacon tracked, fuses no more windows with lines than until it is away")
    func longGapIsSkipped() {
        var settings = Locator.Settings()
        settings.maximumLateness = nil
        var locator = Locator(site: F.site, settings: settings)
        var rng = SplitMix64(seed: 1)
        var outputs: [LocateOutput] = []
        for message in F.messages(at: F.at(seconds: 1), beaconAt: Point2(x: 1, y: 1), rng: &rng) {
            _ = locator.receive(message, arrival: F.at(seconds: 1))
        }
        locator.advance(arrival: F.at(seconds: 1)) { outputs.append($0) }
        for message in F.messages(at: F.at(seconds: 501), beaconAt: nil, rng: &rng) {
            _ = locator.receive(message, arrival: F.at(seconds: 501))
        }
        locator.advance(arrival: F.at(seconds: 501)) { outputs.append($0) }
        let windows = Set(outputs.map(\.time)).count
        #expect(windows <= Int(Locator.Settings().awayAfter.value / Locator.Settings().interval.value) + 2, "\(windows)")
        #expect(outputs.filter(\.isAway).count == 1)
    }

    @Test("a long away time across a long gap fuses in a bounded number of windows", .timeLimit(.minutes(1)))
    func longAwayAcrossGap() {
        var settings = Locator.Settings()
        settings.maximumLateness = nil
        settings.awayAfter = .seconds(400 * 86_400)
        settings.interval = .milliseconds(1)
        var locator = Locator(site: Site(rooms: F.site.rooms, gateways: [F.site.gateways[0]]), settings: settings)
        var outputs: [LocateOutput] = []
        _ = locator.receive(GatewayReadings(gateway: "gw1", time: F.at(seconds: 1), sequence: 1, readings: [F.reading(atDistance: 1)]), arrival: F.at(seconds: 1))
        locator.advance(arrival: F.at(seconds: 1)) { outputs.append($0) }
        // Within the skew bound of the fused time, 10 minutes of 1 ms windows in which nothing is heard.
        for step in 1...4 {
            let time = F.at(seconds: 1 + 590 * Double(step))
            #expect(locator.receive(GatewayReadings(gateway: "gw1", time: time, sequence: 1 + step, readings: []), arrival: time) == .accepted)
            locator.advance(arrival: time) { outputs.append($0) }
        }
        #expect(locator.beaconCount == 1)
        #expect(outputs.count < 10_000, "\(outputs.count)")
    }

    @Test("times at the ends of Int64 are fused without trapping or spinning", .timeLimit(.minutes(1)),
          arguments: [Int64.min, Int64.min + 1, -(1 << 62), 1 << 62, Int64.max - 1, Int64.max])
    func extremeTimes(microseconds: Int64) {
        var locator = Locator(site: F.site)
        var outputs: [LocateOutput] = []
        let time = Timestamp(microseconds: microseconds)
        for gateway in F.site.gateways {
            _ = locator.receive(GatewayReadings(gateway: gateway.name, time: time, sequence: 1, readings: [F.reading(atDistance: 2)]), arrival: time)
        }
        locator.advance(arrival: time) { outputs.append($0) }
        locator.finish { outputs.append($0) }
        let later = Timestamp(microseconds: microseconds / 2)
        for gateway in F.site.gateways {
            _ = locator.receive(GatewayReadings(gateway: gateway.name, time: later, sequence: 2, readings: [F.reading(atDistance: 2)]), arrival: later)
        }
        locator.advance(arrival: later) { outputs.append($0) }
        locator.finish { outputs.append($0) }
        #expect(outputs.count < 1_000)
        #expect(outputs.allSatisfy { !$0.json.contains("nan") && !$0.json.contains("inf") })
    }

    @Test("awkward sites and distances locate without NaN or a trap", arguments: awkwardSites.indices)
    func awkwardSite(index: Int) {
        let site = awkwardSites[index]
        var locator = Locator(site: site)
        var outputs: [LocateOutput] = []
        for second in 1...10 {
            let time = F.at(seconds: Double(second))
            for gateway in site.gateways {
                // At the gateway, 100 m away, 2 m, RSSI at the ends of what a controller reports, and not a number.
                let rssi = [F.rssi(atDistance: 0), F.rssi(atDistance: 100), F.rssi(atDistance: 2), 20, -127, .nan, .infinity][second % 7]
                _ = locator.receive(GatewayReadings(gateway: gateway.name, time: time, sequence: second, readings: [F.reading(rssi: rssi)]), arrival: time)
            }
            locator.advance(arrival: time) { outputs.append($0) }
        }
        locator.finish { outputs.append($0) }
        #expect(outputs.compactMap(\.located).count >= 8)
        for line in outputs.map(\.json) {
            #expect(!line.lowercased().contains("nan") && !line.lowercased().contains("inf"), "\(line)")
            #expect((try? JSONValue.parse(Array(line.utf8), maximumDepth: 8, maximumBytes: 1 << 20)) != nil, "\(line)")
        }
    }
}

/// Sites where ranging is degenerate.
let awkwardSites: [Site] = {
    typealias F = LocatorFixture
    return [
        // One gateway.
        Site(rooms: F.site.rooms, gateways: [F.site.gateways[0]]),
        // Three gateways on one line.
        Site(rooms: F.site.rooms, gateways: [SiteGateway(name: "a", x: 0, y: 2), SiteGateway(name: "b", x: 3, y: 2), SiteGateway(name: "c", x: 6, y: 2)]),
        // Every gateway at one point.
        Site(rooms: F.site.rooms, gateways: (1...4).map { SiteGateway(name: "g\($0)", x: 1, y: 1, room: "A") }),
        // A room that is a line.
        Site(rooms: [Room(name: "line", polygon: [Point2(x: 0, y: 0), Point2(x: 6, y: 0)]), F.site.rooms[1]], gateways: F.site.gateways),
    ]
}()

@Suite("the fuser's watermark with a lateness bound: who is waited for")
struct LocatorWatermarkTests {
    typealias F = LocatorFixture

    /// The times of the location lines after feeding `deliveries` (gateway, reading time, arrival) in order.
    func lines(_ deliveries: [(gateway: String, time: Double, arrival: Double)]) -> [Timestamp] {
        var locator = Locator(site: F.site)
        var times: [Timestamp] = []
        for delivery in deliveries {
            let reading = F.reading(atDistance: 2)
            _ = locator.receive(GatewayReadings(gateway: delivery.gateway, time: F.at(seconds: delivery.time), sequence: 1, readings: [reading]),
                                arrival: F.at(seconds: delivery.arrival))
            locator.advance(arrival: F.at(seconds: delivery.arrival)) { if $0.located != nil { times.append($0.time) } }
        }
        return times
    }

    @Test("a gateway not heard yet is waited for as long as the lateness bound from the first message, then not")
    func unheardGatewayAtStart() {
        let others = ["gw1", "gw2", "gw3"]
        let early = lines(others.map { ($0, 1, 1) } + others.map { ($0, 2, 2) })
        #expect(early.isEmpty, "\(early)")
        // 5 s after the first message gw4 is still silent: the others' windows are fused without it.
        let later = lines((1...7).flatMap { second in others.map { ($0, Double(second), Double(second)) } })
        #expect(later.contains(F.at(seconds: 1)), "\(later)")
    }

    @Test("after a silence every gateway shared (the broker down), the first gateway back does not fuse the outage alone")
    func sharedOutage() {
        let all = ["gw1", "gw2", "gw3", "gw4"]
        var deliveries: [(String, Double, Double)] = all.map { ($0, 1, 1) }
        // Nothing for 20 s; then gw1's queued readings of the outage arrive first.
        deliveries += (2...20).map { ("gw1", Double($0), 21) }
        let during = lines(deliveries)
        #expect(!during.contains { $0 > F.at(seconds: 1) }, "\(during)")
        // The others come back within the bound: every window is fused with them.
        deliveries += all.dropFirst().flatMap { gateway in (2...20).map { (gateway, Double($0), 23) } }
        let after = lines(deliveries)
        #expect(Set(after) == Set((1...20).map { F.at(seconds: Double($0)) }), "\(after)")
    }

    @Test("a first message held up while the gateway connects gives no clock warning")
    func heldUpFirstMessage() {
        var locator = Locator(site: F.site)
        var warnings: [(gateway: String, drift: Micros)] = []
        for second in 1...30 {
            // gw1's first message arrives 3 s late, the rest on time.
            let delay = second == 1 ? 3.0 : 0.1
            for gateway in F.site.gateways {
                let arrival = F.at(seconds: Double(second) + (gateway.name == "gw1" ? delay : 0.1))
                _ = locator.receive(GatewayReadings(gateway: gateway.name, time: F.at(seconds: Double(second)), sequence: second,
                                                    readings: [F.reading(atDistance: 2)]), arrival: arrival)
            }
            warnings += locator.clockWarnings()
        }
        #expect(warnings.isEmpty, "\(warnings)")
    }
}
