import BeaconCore
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `beacon locate` over a live building (`LiveBuilding`: three live gateways on emulated controllers, a real
/// mosquitto) while something goes wrong: a gateway dies, the broker restarts, a gateway's messages come
/// late or its clock is off, a hostile client floods the broker. Each scenario lets locate settle (a
/// location line in the office from every gateway) and judges what the fault did from there on.
/// Serialized: each scenario runs four beacons, a broker, and bumble's controllers and advertiser of its own.
@Suite(
    "beacon locate over live gateways under faults",
    .enabled(if: IntegrationGate.isEnabled && MosquittoBroker.isInstalled, IntegrationGate.reason),
    .serialized,
    .timeLimit(.minutes(10)))
struct LiveBuildingIntegrationTests {
    @Test("a far gateway killed: its last will marks it offline, retained; the beacon stays in the office, a location line every window, no away line")
    func killedGateway() async throws {
        try await LiveBuilding.with { building in
            let settled = try await building.settled()
            let killed = try #require(building.gateways["gw3"])
            killed.send(SIGKILL)
            #expect(try await killed.process.waitForExit(within: HangGuard.step) == .signalled(SIGKILL))
            // locate hears of it through the will the broker publishes when the connection drops.
            let offline = try await building.waitForLocation(from: settled, "a location line with gw3 offline") {
                $0.gateways?.contains { $0.name == "gw3" && !$0.online } == true
            }
            try await building.waitForLocations(after: offline, count: 3)
            // Published before this subscriber existed: the broker kept it.
            let status = try await MQTTSubscriber.start(port: building.broker.port, topics: ["site/gateways/gw3/status"])
            try await status.waitUntil("gw3's status") { !MQTTSubscriber.messages(status).isEmpty }
            #expect(MQTTSubscriber.messages(status).map { "\($0.retained) \($0.payload)" } == ["true offline"])
            await status.stop()
            let terminations = try await building.interrupt()
            #expect(terminations == ["locate": .exited(0), "gw1": .exited(0), "gw2": .exited(0), "gw3": .signalled(SIGKILL)],
                    "\(building.locate.stderrLines)")

            try await Self.expectRetainedRoom(building)
            try Self.expectSteadyInOffice(building, from: settled, listing: ["gw1", "gw2"])
            // An offline gateway's last reading goes on counting (60 s), marked offline.
            let afterOffline = try building.lines(from: offline)
            #expect(afterOffline.allSatisfy { $0.gateways?.contains { $0.name == "gw3" && !$0.online } == true })
            #expect(!building.locate.stderrLines.contains { $0.hasPrefix("Warning") }, "\(building.locate.stderrLines)")
            try await expectValidOutput(building.locate.stdoutLines)
        }
    }

    @Test("a gateway stopped while the broker takes nothing cannot deliver its last readings: it leaves without a clean disconnect, and the broker sets it offline by its will")
    func stoppedWhileBrokerStalls() async throws {
        try await LiveBuilding.with { building in
            _ = try await building.settled()
            let gateway = try #require(building.gateways["gw2"])
            building.broker.pause()
            // More than libmosquitto keeps in flight waits for the broker: readings and range lines, a few a second.
            let printed = gateway.process.stdoutLines.count
            try await gateway.process.waitUntil("12 s of lines while the broker stalls") { gateway.process.stdoutLines.count >= printed + 12 }
            gateway.send(SIGTERM)
            #expect(try await gateway.process.waitForExit(within: HangGuard.step) == .exited(0))
            #expect(gateway.process.stderrLines.contains { $0.contains("not delivered") }, "\(gateway.process.stderrLines)")
            building.broker.resume()
            let status = try await MQTTSubscriber.start(port: building.broker.port, topics: ["site/gateways/gw2/status"])
            try await status.waitUntil("gw2 offline, by its will") { MQTTSubscriber.messages(status).contains { $0.payload == "offline" } }
            #expect(MQTTSubscriber.messages(status).last?.payload == "offline")
            await status.stop()
            _ = try await building.interrupt()
        }
    }

    /// While the broker is down, every gateway keeps ranging and queues its readings, and locate fuses
    /// nothing: no gateway has reported past the last window. mosquitto saves the sessions when stopped,
    /// so the restarted broker still holds locate's subscription. The gateways and locate try again after
    /// 1 s, then 2 s (ReconnectBackoff), so all are back about 3 s after the stop, and each gateway sends
    /// what it queued, in order. When that takes less than --max-lateness (5 s), the waiting windows are
    /// fused from every gateway's readings as though nothing happened. When it takes longer (a busy
    /// machine, a slow restart), the watermark stops waiting for the silent gateways: the first gateway back
    /// moves it over the outage alone (the others' readings from before the stop count for 3 s more),
    /// and the readings the others queued for windows fused meanwhile are dropped as late, warned about
    /// five times and counted at exit.
    @Test("the broker restarts mid-run: gateways and locate reconnect by themselves, their statuses are online again, location lines resume from every gateway, the beacon stays in the office")
    func brokerRestart() async throws {
        try await LiveBuilding.with { building in
            let settled = try await building.settled()
            try await building.broker.stopAndWait()
            try await Task.sleep(for: .seconds(2))
            try await building.broker.restart()
            let restarted = Self.wallClock()
            for process in [building.locate] + building.gateways.values.map(\.process) {
                try await process.waitUntil("reconnection") {
                    process.stderrLines.contains { $0.hasPrefix("Warning: MQTT: connected to") && $0.contains(" again;") }
                }
            }
            let resumed = try await building.waitForLocation(from: settled, "a location line after the restart from every gateway") {
                $0.gatewayNames == LiveBuilding.gatewayNames && (try? $0.timestamp()).map { $0 > restarted + .seconds(1) } == true
            }
            try await building.waitForLocations(after: resumed, count: 2)
            // Each process set its status online again on connecting to the restarted broker.
            let statuses = try await MQTTSubscriber.start(port: building.broker.port, topics: ["site/gateways/+/status", "site/locate/status"])
            try await statuses.waitUntil("four statuses") { MQTTSubscriber.messages(statuses).count >= 4 }
            #expect(Set(MQTTSubscriber.messages(statuses).map { "\($0.retained) \($0.topic) \($0.payload)" })
                    == ["true site/gateways/gw1/status online", "true site/gateways/gw2/status online",
                        "true site/gateways/gw3/status online", "true site/locate/status online"])
            await statuses.stop()
            let terminations = try await building.interrupt()
            #expect(terminations.values.allSatisfy { $0 == .exited(0) }, "\(terminations)")

            try await Self.expectRetainedRoom(building)
            try Self.expectSteadyInOffice(building, from: settled)
            let late = building.locate.stderrLines.filter { $0.contains("arrived after that time was fused") }
            #expect(late.count <= RepeatedWarning.defaultLimit, "\(late)")
            try await expectValidOutput(building.locate.stdoutLines)
        }
    }

    @Test("gw1's messages 5 s late through a delaying proxy, locate --max-lateness 10s: its readings fused where they belong, every location line lists it, the beacon stays in the office")
    func delayedGateway() async throws {
        try await LiveBuilding.with(faults: ["gw1": .delayed(seconds: 5)], locateOptions: ["--max-lateness", "10s"]) { building in
            let readings = try await building.readingsSubscriber()
            let settled = try await building.settled()
            try await building.waitForLocations(after: settled, count: 8)
            // The delay is real: each of gw1's readings reaches the broker after gw2's of seconds later.
            let leads = LiveBuilding.leads(of: "gw1", over: "gw2", in: try LiveBuilding.readings(readings))
            #expect(leads.count >= 5 && Self.median(leads) <= -3, "\(leads)")
            // Live gateways: their messages do not say replay, so the lateness bound holds for them.
            #expect(!MQTTSubscriber.messages(readings).contains { $0.payload.contains(#""replay""#) })
            await readings.stop()
            let terminations = try await building.interrupt()
            #expect(terminations["locate"] == .exited(0) && terminations["gw2"] == .exited(0) && terminations["gw3"] == .exited(0),
                    "\(terminations)")
            // Stopped with readings still in the proxy: told, not fatal.
            #expect(terminations["gw1"] == .exited(0), "\(building.gateways["gw1"]?.process.stderrLines ?? [])")

            // gw1 is the gateway that puts the beacon in the office: fused without its readings (those
            // still in the proxy when locate stops included), the windows would put it in the hall.
            try await Self.expectRetainedRoom(building)
            try Self.expectSteadyInOffice(building, from: settled, listing: LiveBuilding.gatewayNames)
            let settledTime = try building.lines(from: settled)[0].timestamp()
            let lateAfterSettling = building.locate.stderrLines.compactMap(Self.lateReading).filter { $0.time > settledTime }
            #expect(lateAfterSettling.isEmpty, "\(building.locate.stderrLines)")
            try await expectValidOutput(building.locate.stdoutLines)
        }
    }

    /// libfaketime moves the clocks gw1's `beacon range` reads, CLOCK_REALTIME and CLOCK_MONOTONIC alike:
    /// its readings are stamped 3 s ahead and its schedules run as usual (no clock step for it to see).
    @Test("gw1's clock 3 s ahead (libfaketime): rooms stay right, every location line lists it, and locate says nothing of a clock that is off by a constant",
          .enabled(if: FakeTime.isInstalled, "needs faketime (make deps installs it)"))
    func skewedGatewayClock() async throws {
        try await LiveBuilding.with(faults: ["gw1": .clockAhead(seconds: 3)]) { building in
            let readings = try await building.readingsSubscriber()
            let settled = try await building.settled()
            try await building.waitForLocations(after: settled, count: 8)
            // The skew is real: each of gw1's readings is stamped about 3 s after gw2's latest (within a tick).
            let leads = LiveBuilding.leads(of: "gw1", over: "gw2", in: try LiveBuilding.readings(readings))
            #expect(leads.count >= 5 && Self.median(leads) >= 2, "\(leads)")
            await readings.stop()
            let terminations = try await building.interrupt()
            #expect(terminations.values.allSatisfy { $0 == .exited(0) }, "\(terminations)")

            try await Self.expectRetainedRoom(building)
            try Self.expectSteadyInOffice(building, from: settled, listing: LiveBuilding.gatewayNames)
            // Locator.clockWarnings: a gateway's clock is judged by how its offset against arrival moves
            // (by more than Locator.clockDriftBound), its first offset being the reference; an offset that
            // stays where it started is no drift, however large.
            #expect(!building.locate.stderrLines.contains { $0.contains("the clock of") }, "\(building.locate.stderrLines)")
            #expect(!(building.gateways["gw1"]?.process.stderrLines.contains { $0.contains("clock stepped") } ?? true))
            try await expectValidOutput(building.locate.stdoutLines)
        }
    }

    /// The flood carries more payload than the bound (checked below), so a locate that kept it would
    /// exceed it. What locate may hold at once: its inbox, 64 MiB of payloads (LocateInbox), twice (the
    /// batch being fused and the inbox filling meanwhile); the one message libmosquitto is reading (the
    /// flood's largest is 1 MiB + 1); and the rest of a debug build's locate, about 20 MB. 200 MB is that
    /// with room for the allocator's slack.
    private static let peakBoundKilobytes = 200 * 1024

    @Test("a hostile flood (5000 unknown gateways, 400 large malformed messages) while the gateways run: locate keeps locating, warns a few lines per kind and counts the rest, and its peak memory stays under 200 MB")
    func hostileFlood() async throws {
        try await LiveBuilding.with { building in
            let settled = try await building.settled()
            let flood = try ChildProcess(
                name: "mqtt_flood", executable: ProjectPaths.python,
                arguments: [ProjectPaths.tool("mqtt_flood.py"), "--port", String(building.broker.port), "--prefix", LiveBuilding.prefix,
                            "--gateway", "gw2", "--unknown", "5000", "--large", "400"],
                limit: HangGuard.processLimit)
            #expect(try await flood.waitForExit(within: HangGuard.startUp) == .exited(0), "\(flood.failure("exit status"))")
            struct Sent: Decodable {
                let published: Int
                let bytes: Int
            }
            let sent = try JSONDecoder().decode(Sent.self, from: Data((flood.stdoutLines.last ?? "").utf8))
            #expect(sent.published == 5_400 && sent.bytes > Self.peakBoundKilobytes * 1024, "\(sent)")
            // Still locating once the flood has passed: lines from every gateway's fresh readings.
            let passed = try await building.waitForLocation(from: building.locate.stdoutLines.count, "a location line from every gateway after the flood") {
                $0.gatewayNames == LiveBuilding.gatewayNames && $0.room == LiveBuilding.room
            }
            try await building.waitForLocations(after: passed, count: 2)
            let peak = try #require(ProcessStatus.kilobytes("VmHWM", of: building.locate.pid))
            let terminations = try await building.interrupt()
            #expect(terminations.values.allSatisfy { $0 == .exited(0) }, "\(terminations)")

            #expect(peak < Self.peakBoundKilobytes, "peak resident \(peak) kB")
            try await Self.expectRetainedRoom(building)
            let lines = try building.lines(from: settled)
            #expect(lines.allSatisfy { $0.event == "location" && $0.beacon == LiveBuilding.beaconID }, "\(lines.map(\.event))")
            let warnings = building.locate.stderrLines
            // A few lines per kind of bad message, then a count: not one per message of the 5400.
            #expect(warnings.count { $0.contains("'flood-") } == RepeatedWarning.defaultLimit, "\(warnings)")
            #expect(warnings.count { $0.hasPrefix("Warning: a readings message on site/gateways/gw2/readings") } == RepeatedWarning.defaultLimit,
                    "\(warnings)")
            let unknown = try #require(Self.count(in: warnings, after: "Warning: messages from ", before: " gateways the site does not have, in all"))
            // Each unknown name is counted once, and at most a thousand of them are remembered.
            #expect(unknown > RepeatedWarning.defaultLimit && unknown <= 1_000, "\(warnings)")
            let malformed = try #require(Self.count(in: warnings, after: "Warning: ", before: " malformed messages from the gateways in all"))
            #expect(malformed > RepeatedWarning.defaultLimit && malformed <= 400, "\(warnings)")
            #expect(warnings.count <= 30, "\(warnings)")
            try await expectValidOutput(building.locate.stdoutLines)
        }
    }

    // MARK: - Checks

    /// From line `index` on: location lines of the beacon in the office, each listing `listing`, one per
    /// window with none missing; no room line, no away line.
    private static func expectSteadyInOffice(_ building: LiveBuilding, from index: Int, listing: Set<String> = [],
                                             sourceLocation: SourceLocation = #_sourceLocation) throws {
        let lines = try building.lines(from: index)
        let stderr = building.locate.stderrLines.suffix(20).joined(separator: "\n  ")
        #expect(lines.count > 1, sourceLocation: sourceLocation)
        #expect(lines.allSatisfy { $0.event == "location" && $0.beacon == LiveBuilding.beaconID }, "\(lines.map(\.event))",
                sourceLocation: sourceLocation)
        let elsewhere = lines.filter { $0.room != LiveBuilding.room }
        #expect(elsewhere.isEmpty, "\(elsewhere.map { "\($0.time) \($0.room ?? "null")" }); locate's stderr:\n  \(stderr)",
                sourceLocation: sourceLocation)
        let without = lines.filter { !listing.isSubset(of: $0.gatewayNames) }
        #expect(without.isEmpty, "\(without.map { "\($0.time) \($0.gatewayNames.sorted())" }); locate's stderr:\n  \(stderr)",
                sourceLocation: sourceLocation)
        let times = try lines.map { try $0.timestamp() }
        let gaps = zip(times, times.dropFirst()).map { ($1 - $0).value }.filter { $0 != 1_000_000 }
        #expect(gaps.isEmpty, "windows apart by \(gaps) µs rather than one second", sourceLocation: sourceLocation)
    }

    /// After locate's exit: the beacon's room as the broker keeps it for Home Assistant is the office.
    private static func expectRetainedRoom(_ building: LiveBuilding, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let topic = "\(LiveBuilding.prefix)/beacons/\(LiveBuilding.beaconID)/room"
        let room = try await MQTTSubscriber.start(port: building.broker.port, topics: [topic])
        try await room.waitUntil("the retained room") { !MQTTSubscriber.messages(room).isEmpty }
        #expect(MQTTSubscriber.messages(room).map { "\($0.retained) \($0.payload)" } == ["true \(LiveBuilding.room)"],
                sourceLocation: sourceLocation)
        await room.stop()
    }

    /// The gateway and reading time of a "readings of GW at TIME arrived after that time was fused" warning.
    private static func lateReading(_ warning: String) -> (gateway: String, time: Timestamp)? {
        let prefix = "Warning: readings of "
        guard warning.hasPrefix(prefix), warning.contains(" arrived after that time was fused") else { return nil }
        let fields = warning.dropFirst(prefix.count).split(separator: " ")
        guard fields.count > 2, fields[1] == "at", let time = TimestampText.parse(String(fields[2])) else { return nil }
        return (String(fields[0]), time)
    }

    /// N of the "<prefix>N<suffix>" summary line, nil when there is none.
    private static func count(in warnings: [String], after prefix: String, before suffix: String) -> Int? {
        warnings.lazy.compactMap { line -> Int? in
            guard line.hasPrefix(prefix), line.hasSuffix(suffix) else { return nil }
            return Int(line.dropFirst(prefix.count).dropLast(suffix.count))
        }.first
    }

    private static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        return sorted.isEmpty ? .nan : sorted[sorted.count / 2]
    }

    private static func wallClock() -> Timestamp {
        Timestamp(microseconds: Int64((Date().timeIntervalSince1970 * 1e6).rounded()))
    }
}
