@testable import BeaconCLI
import BeaconCore
import BeaconMQTT
import Foundation
import Testing

@Suite("beacon locate's fusion at the end of a run")
struct LocateFusionTests {
    /// Two rooms side by side: gw1 in the office, gw2 and gw3 in the hall.
    private static let site = """
        {"rooms":[{"name":"office","polygon":[[0,0],[4,0],[4,4],[0,4]]},{"name":"hall","polygon":[[4,0],[8,0],[8,4],[4,4]]}],
         "gateways":[{"name":"gw1","position":[0.5,0.5,1],"room":"office"},{"name":"gw2","position":[7.5,3.5,1],"room":"hall"},
                     {"name":"gw3","position":[7.5,0.5,1],"room":"hall"}]}
        """
    private static let start = Timestamp(microseconds: 1_767_225_600_000_000)  // 2026-01-01T00:00:00Z

    private static func at(_ seconds: Double) -> Timestamp { start + Micros(Int64(seconds * 1_000_000)) }

    /// The beacon's readings by `gateway` at `distance` metres, as the signal model expects them there.
    private static func readings(_ gateway: String, at seconds: Double, distance: Double, sequence: Int) -> [UInt8] {
        let rssi = (-59 - 10 * SignalModel().exponent * log10(distance)).rounded()
        return Array(#"""
            {"gateway":"\#(gateway)","time":"\#(at(seconds).iso8601)","seq":\#(sequence),"beacons":[{"id":"b1","rssi":\#(rssi),\#
            "filteredRssi":\#(rssi),"spread":1,"samples":10,"measuredPower":-59,"accuracy":\#(distance)}]}
            """#.utf8)
    }

    /// A fusion of the site, the beacon next to gw1, after 10 s of readings from gw2 and gw3 and gw1's first
    /// six: its first on time, the others 4 s late (so it keeps up within --max-lateness, and its next five
    /// are still on their way). The messages published, and the console.
    private func lateGatewayFusion() throws -> (LocateFusion, Published, CapturedConsole) {
        let published = Published()
        let console = CapturedConsole()
        var fusion = LocateFusion(site: try Site.decode(Array(Self.site.utf8)), settings: Locator.Settings(), shard: nil,
                                  topics: LocateTopics(prefix: "site"), publish: { published.messages += $0 },
                                  output: LineOutput(console: console.console))
        var messages: [(arrival: Double, topic: String, payload: [UInt8])] = [
            (0.6, "site/gateways/gw1/readings", Self.readings("gw1", at: 0.5, distance: 0.5, sequence: 1)),
        ]
        for second in 1...10 {
            let time = Double(second) + 0.5
            for gateway in ["gw2", "gw3"] {
                messages.append((time + 0.1, "site/gateways/\(gateway)/readings", Self.readings(gateway, at: time, distance: 6, sequence: second)))
            }
            if second <= 5 {
                messages.append((time + 4, "site/gateways/gw1/readings", Self.readings("gw1", at: time, distance: 0.5, sequence: second + 1)))
            }
        }
        for message in messages.sorted(by: { $0.arrival < $1.arrival }) {
            fusion.receive(topic: message.topic, payload: message.payload, arrival: Self.at(message.arrival))
            fusion.advance(arrival: Self.at(message.arrival))
        }
        return (fusion, published, console)
    }

    @Test("messages of gw2 delivered again and messages of gw3 lost: each repeat and each gap warned about (five of a kind), then counted, with the messages lost")
    func repeatsAndGapsWarned() throws {
        let console = CapturedConsole()
        var fusion = LocateFusion(site: try Site.decode(Array(Self.site.utf8)), settings: Locator.Settings(), shard: nil,
                                  topics: LocateTopics(prefix: "site"), publish: { _ in }, output: LineOutput(console: console.console))
        for second in 1...40 {
            let time = Double(second) + 0.5
            for gateway in ["gw1", "gw2", "gw3"] {
                // gw3 sends only every third message that it numbers.
                if gateway == "gw3", second % 3 != 0 { continue }
                let payload = Self.readings(gateway, at: time, distance: 3, sequence: second)
                fusion.receive(topic: "site/gateways/\(gateway)/readings", payload: payload, arrival: Self.at(time + 0.1))
                if gateway == "gw2", second % 4 == 0 {
                    fusion.receive(topic: "site/gateways/gw2/readings", payload: payload, arrival: Self.at(time + 0.2))
                }
            }
            fusion.advance(arrival: Self.at(time + 0.3))
        }
        fusion.finish(everythingReceived: true, arrival: Self.at(41))
        let repeats = console.stderr.filter { $0.contains("delivered again") }
        #expect(repeats.first == "Warning: readings of gw2 at \(Self.at(4.5)) (message 4) delivered again; fused once", "\(console.stderr)")
        #expect(repeats.count == 6 && repeats.last == "Warning: 10 readings messages delivered again, in all", "\(console.stderr)")
        let gaps = console.stderr.filter { $0.contains("never arrived") }
        #expect(gaps.first?.hasPrefix("Warning: 2 readings messages of gw3 before its message 6 never arrived: the broker dropped them") == true,
                "\(console.stderr)")
        #expect(gaps.count == 6 && gaps.last == "Warning: 12 gaps in the gateways' readings messages, in all: 24 messages never arrived",
                "\(console.stderr)")
    }

    @Test("a message that says it is a replay's, 20 minutes ahead of this machine's clock: dropped, warned about, and the live bound kept")
    func replayFromTheFuture() throws {
        let console = CapturedConsole()
        var fusion = LocateFusion(site: try Site.decode(Array(Self.site.utf8)), settings: Locator.Settings(), shard: nil,
                                  topics: LocateTopics(prefix: "site"), publish: { _ in }, output: LineOutput(console: console.console))
        let payload = String(decoding: Self.readings("gw1", at: 1_200, distance: 1, sequence: 1), as: UTF8.self)
            .replacingOccurrences(of: #""seq":1,"#, with: #""seq":1,"replay":true,"#)
        fusion.receive(topic: "site/gateways/gw1/readings", payload: Array(payload.utf8), arrival: Self.at(0))
        #expect(console.stderr == ["Warning: readings of gw1 at \(Self.at(1_200)) are more than \(Locator.maximumSkew) ahead of this machine's clock "
                                   + "(a replay of captures dated ahead of it needs --max-lateness none); dropped"])
        #expect(fusion.locator.lateness(at: Self.at(0)) == Locator.Settings().maximumLateness)
    }

    /// What the fusion handed to the publisher.
    private final class Published {
        var messages: [MQTTMessage] = []
    }

    private func locations(_ console: CapturedConsole) throws -> [[String: Any]] {
        try console.stdout.map { try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
            .filter { $0["event"] as? String == "location" }
    }

    @Test("stopped while a gateway lags: the windows that wait for it are neither printed nor published, so the far gateways alone cannot move the beacon to their room")
    func stopLeavesWaitingWindows() throws {
        var (fusion, published, console) = try lateGatewayFusion()
        fusion.finish(everythingReceived: false, arrival: Self.at(10.7))
        fusion.output.flush()
        let lines = try locations(console)
        #expect(!lines.isEmpty)
        #expect(lines.allSatisfy { $0["room"] as? String == "office" }, "\(console.stdout)")
        #expect(lines.allSatisfy { ($0["gateways"] as? [[String: Any]])?.contains { $0["name"] as? String == "gw1" } == true })
        // gw1 has reported up to 5.5 s: no window after the one ending at 5 s.
        #expect(lines.last?["time"] as? String == Self.at(5).iso8601, "\(console.stdout)")
        let rooms = published.messages.filter { $0.topic == "site/beacons/b1/room" }
        #expect(!rooms.isEmpty && rooms.allSatisfy { $0.payload == "office" && $0.retain })
    }

    @Test("every gateway offline: everything was received, and the windows left are fused")
    func everythingReceivedFusesTheRest() throws {
        var (fusion, _, console) = try lateGatewayFusion()
        fusion.finish(everythingReceived: true, arrival: Self.at(10.7))
        fusion.output.flush()
        #expect(try locations(console).last?["time"] as? String == Self.at(10).iso8601, "\(console.stdout)")
    }

    /// Four gateways in one room, each advertising its own beacon.
    private static let calibrationSite = """
        {"rooms":[{"name":"office","polygon":[[0,0],[8,0],[8,4],[0,4]]}],
         "gateways":[{"name":"gw1","position":[0.5,0.5,1],"beacon":"g1"},{"name":"gw2","position":[7.5,3.5,1],"beacon":"g2"},
                     {"name":"gw3","position":[7.5,0.5,1],"beacon":"g3"},{"name":"gw4","position":[3,3.5,1],"beacon":"g4"}]}
        """

    /// A fusion with --calibrate of `calibrationSite` (and `shard`), the messages it published, and its console.
    private func calibratingFusion(shard: BeaconShard? = nil) throws -> (LocateFusion, Published, CapturedConsole) {
        var settings = Locator.Settings()
        settings.calibration = SelfCalibration()
        let published = Published()
        let console = CapturedConsole()
        let fusion = LocateFusion(site: try Site.decode(Array(Self.calibrationSite.utf8)), settings: settings, shard: shard,
                                  topics: LocateTopics(prefix: "site", shard: shard), publish: { published.messages += $0 },
                                  output: LineOutput(console: console.console))
        return (fusion, published, console)
    }

    /// Every gateway hears the others' beacons once a second over `seconds`, gw3 reading `louder(second)` dB more.
    private func hearEachOther(_ fusion: inout LocateFusion, _ seconds: ClosedRange<Int>, louder: (Int) -> Double = { _ in 0 }) {
        let site = fusion.locator.site
        for second in seconds {
            let time = Double(second)
            for (index, receiver) in site.gateways.enumerated() {
                let beacons = site.gateways.enumerated().filter { $0.offset != index }.map { _, transmitter in
                    let distance = receiver.point.distance(to: transmitter.point)
                    let rssi = -59 - 20 * log10(distance) + (index == 2 ? louder(second) : 0)
                    return #"{"id":"\#(transmitter.beacon!)","rssi":\#(rssi),"filteredRssi":\#(rssi),"spread":1,"samples":10,"measuredPower":-59,"accuracy":1}"#
                }
                let payload = #"{"gateway":"\#(receiver.name)","time":"\#(Self.at(time).iso8601)","seq":\#(second),"beacons":[\#(beacons.joined(separator: ","))]}"#
                fusion.receive(topic: "site/gateways/\(receiver.name)/readings", payload: Array(payload.utf8), arrival: Self.at(time + 0.1))
            }
            fusion.advance(arrival: Self.at(time + 0.1))
        }
    }

    @Test("--calibrate --shard K/N: every shard hears every gateway's own beacon, and publishes the calibration one fuser does")
    func shardsPublishOneCalibration() throws {
        func calibrations(_ shard: BeaconShard?) throws -> [String] {
            var (fusion, published, _) = try calibratingFusion(shard: shard)
            hearEachOther(&fusion, 1...120)
            return published.messages.filter { $0.topic == "site/calibration" }.map(\.payload)
        }
        let whole = try calibrations(nil)
        #expect(whole.count == 2)
        for index in 1...2 { #expect(try calibrations(BeaconShard("\(index)/2")) == whole, "shard \(index)/2") }
    }

    @Test("--calibrate: the fit printed, published retained to PREFIX/calibration, and a gateway that starts reading 8 dB louder warned about once")
    func calibration() throws {
        var (fusion, published, console) = try calibratingFusion()
        hearEachOther(&fusion, 1...800, louder: { $0 >= 100 ? 8 : 0 })
        fusion.finish(everythingReceived: false, arrival: Self.at(801))
        fusion.output.flush()
        let fits = console.stdout.filter { $0.hasPrefix(#"{"event":"gatewayCalibration""#) }
        #expect(fits.count >= 12, "\(fits.count)")
        #expect(!console.stdout.contains { $0.contains(#""event":"location""#) }, "gateways' own beacons are not located")
        let retained = published.messages.filter { $0.topic == "site/calibration" }
        #expect(retained.count == fits.count && retained.allSatisfy(\.retain))
        #expect(retained.last?.payload == fits.last)
        let warnings = console.stderr.filter { $0.contains("hears differently") }
        #expect(warnings.count == 1, "\(console.stderr)")
        #expect(warnings.first?.hasPrefix("Warning: gw3 hears differently from its earlier calibration (offset ") == true, "\(warnings)")
    }

    @Test("--calibrate restarted: the retained calibration continued from (a moved gateway reported by the first fit); a live one, a malformed or a foreign one not")
    func restartedCalibration() throws {
        var (earlier, published, _) = try calibratingFusion()
        hearEachOther(&earlier, 1...100)
        let line = try #require(published.messages.last { $0.topic == "site/calibration" }?.payload)

        var (fusion, _, console) = try calibratingFusion()
        let foreign = line.replacingOccurrences(of: #""name":"gw1""#, with: #""name":"attic""#)
        for (payload, retained) in [("{}", true), (foreign, true), (line, false), (line, true), (line, true)] {
            fusion.receive(topic: "site/calibration", payload: Array(payload.utf8), arrival: Self.at(0.5), retained: retained)
        }
        hearEachOther(&fusion, 1...60, louder: { _ in 8 })
        fusion.finish(everythingReceived: false, arrival: Self.at(61))
        fusion.output.flush()
        let notes = console.stderr.filter { $0.hasPrefix("Continuing from the calibration of ") }
        #expect(notes.count == 1 && notes[0].contains("(4 gateways) retained on site/calibration"), "\(console.stderr)")
        #expect(console.stderr.contains { $0.hasPrefix("Warning: the calibration retained on site/calibration is malformed (event: ") }, "\(console.stderr)")
        #expect(console.stderr.contains { $0.contains(#"is not of this site (gateways[0].name: "attic" is not a gateway of the site)"#) },
                "\(console.stderr)")
        // gw3 reads 8 dB louder than when the retained fit was made: its first fit here says so.
        let warnings = console.stderr.filter { $0.contains("hears differently") }
        #expect(warnings.count == 1 && warnings[0].hasPrefix("Warning: gw3 "), "\(console.stderr)")
        let fits = console.stdout.filter { $0.hasPrefix(#"{"event":"gatewayCalibration""#) }
        #expect(fits.count == 1 && fits[0].contains(#""name":"gw3","offset":"#), "\(fits)")
    }
}
