import BeaconCore
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A live building for `beacon locate`: bumble's iBeacon on emulated controller 0; the gateways of
/// `TestSite.officeAndHall`, each a live `beacon range --gateway` on an emulated controller of its own;
/// a mosquitto broker; and a `beacon locate` of the site. bumble reports every reception at -50 dBm, so
/// the gateways hear differently through --rssi-offset: gw1 (office) as it is, gw2 and gw3 (hall) 25 dB
/// weaker, which puts the beacon clearly in the office.
final class LiveBuilding: Sendable {
    /// How one gateway is run unlike the others.
    enum Fault: Sendable {
        /// Its messages reach the broker this many seconds late: tools/tcp_delay_proxy.py in between.
        case delayed(seconds: Int)
        /// Its clocks run this many seconds ahead (`FakeTime`).
        case clockAhead(seconds: Int)
    }

    /// One gateway's `beacon range`.
    struct Gateway: Sendable {
        /// The process the test started: beacon, or faketime running beacon.
        let process: ChildProcess
        /// Where beacon wrote its own process id when `process` is faketime's.
        let pidFile: String?

        /// Sends `signal` to beacon itself.
        func send(_ signal: Int32) {
            guard let pidFile else { return process.send(signal) }
            do {
                let text = try String(contentsOfFile: pidFile, encoding: .utf8)
                if process.isRunning, let pid = Int32(text.trimmingCharacters(in: .whitespacesAndNewlines)) { kill(pid, signal) }
            } catch {
                process.send(signal)  // beacon has not started: faketime's process is all there is
            }
        }
    }

    static let gatewayOffsets: [(name: String, rssiOffset: Int)] = [("gw1", 0), ("gw2", -25), ("gw3", -25)]
    static var gatewayNames: Set<String> { Set(gatewayOffsets.map(\.name)) }
    static let prefix = "site"
    /// The id the gateways give the advertised beacon.
    static let beaconID = "e2c56db5-dffb-48d2-b060-d0f5a71096e0-\(TestBeacon.major)-\(TestBeacon.minor)"
    /// Where the beacon is: gw1 hears it clearly nearest.
    static let room = "office"

    let broker: MosquittoBroker
    let gateways: [String: Gateway]
    let locate: ChildProcess

    private init(broker: MosquittoBroker, gateways: [String: Gateway], locate: ChildProcess) {
        self.broker = broker
        self.gateways = gateways
        self.locate = locate
    }

    /// Runs `body` in a building whose gateways run with `faults` and whose `beacon locate` has
    /// `locateOptions`; stops every process afterwards, whatever `body` did to them. locate starts once every
    /// gateway ranges the beacon, and `body` once locate is subscribed.
    static func with(faults: [String: Fault] = [:], locateOptions: [String] = [],
                     _ body: (LiveBuilding) async throws -> Void) async throws {
        try await MosquittoBroker.with { broker, scratch in
            try await BumbleRig.with([.tcp, .tcp, .tcp, .tcp]) { rig in
                var started: [ChildProcess] = []
                var gateways: [String: Gateway] = [:]
                func stopStarted() async {
                    for gateway in gateways.values { gateway.send(SIGINT) }
                    for process in started.reversed() { await process.stop(with: SIGINT) }
                }
                do {
                    _ = try await rig.advertise(on: 0, uuid: TestBeacon.uuid, major: TestBeacon.major, minor: TestBeacon.minor)
                    for (index, gateway) in gatewayOffsets.enumerated() {
                        var port = broker.port
                        if case .delayed(let seconds)? = faults[gateway.name] {
                            let proxy = try await startDelayProxy(to: broker.port, seconds: seconds)
                            started.append(proxy.process)
                            port = proxy.port
                        }
                        let arguments = ["range", "--hci", rig.specs[index + 1], "--uuid", TestBeacon.uuid,
                                         "--rssi-offset", String(gateway.rssiOffset),
                                         "--mqtt", "mqtt://127.0.0.1:\(port)/\(prefix)", "--gateway", gateway.name]
                        let range: Gateway
                        if case .clockAhead(let seconds)? = faults[gateway.name] {
                            let pidFile = scratch.appendingPathComponent("\(gateway.name).pid").path
                            range = Gateway(process: try FakeTime.startBeacon(arguments, ahead: seconds, pidFile: pidFile), pidFile: pidFile)
                        } else {
                            range = Gateway(process: try BeaconProcess.start(arguments), pidFile: nil)
                        }
                        started.append(range.process)
                        gateways[gateway.name] = range
                    }
                    for range in gateways.values {
                        try await range.process.waitForLine(within: HangGuard.startUp, "a range line with the beacon") {
                            BeaconOutputLine.event(of: $0) == "range" && $0.contains(#""beacons":[{"#)
                        }
                    }
                    let site = scratch.appendingPathComponent("site.json").path
                    try TestSite.officeAndHall.write(toFile: site, atomically: true, encoding: .utf8)
                    let locate = try BeaconProcess.start(["locate", "--mqtt", broker.url(prefix: prefix), "--site", site] + locateOptions)
                    started.append(locate)
                    try await MQTTSubscriber.waitFor(port: broker.port, topic: "\(prefix)/locate/status", payload: "online")
                    try await body(LiveBuilding(broker: broker, gateways: gateways, locate: locate))
                } catch {
                    await stopStarted()
                    throw error
                }
                await stopStarted()
            }
        }
    }

    /// tools/tcp_delay_proxy.py in front of the broker, holding what a client sends for `seconds`.
    private static func startDelayProxy(to port: Int, seconds: Int) async throws -> (process: ChildProcess, port: Int) {
        let proxy = try ChildProcess(
            name: "tcp_delay_proxy", executable: ProjectPaths.python,
            arguments: [ProjectPaths.tool("tcp_delay_proxy.py"), "--target", "127.0.0.1:\(port)", "--delay", String(seconds)],
            input: .heldOpen, limit: HangGuard.processLimit)
        let listening = try await proxy.waitForLine(within: HangGuard.startUp, "LISTENING") { $0.hasPrefix("LISTENING ") }
        guard let proxyPort = Int(listening.line.dropFirst("LISTENING ".count)) else {
            await proxy.stop()
            throw proxy.failure("unexpected line \(listening.line)")
        }
        return (proxy, proxyPort)
    }

    /// locate's lines from `index` on.
    func lines(from index: Int = 0) throws -> [LocateOutputLine] {
        try LocateOutputLine.decode(Array(locate.stdoutLines.dropFirst(index)))
    }

    /// Waits for a `location` line, at index `from` or later, that satisfies `condition`; returns its index.
    @discardableResult
    func waitForLocation(from index: Int = 0, _ what: String,
                         where condition: (LocateOutputLine) -> Bool) async throws -> Int {
        try await locate.waitForLine(from: index, within: HangGuard.step, what) { line in
            let decoded = try LocateOutputLine.decode([line])[0]
            return decoded.event == "location" && condition(decoded)
        }.index
    }

    /// Waits until locate has settled: a location line in the right room that every gateway's readings
    /// went into. Its index: what a fault does is judged from there on.
    func settled() async throws -> Int {
        try await waitForLocation("a location line in the \(Self.room) from every gateway") {
            $0.room == Self.room && $0.gatewayNames == Self.gatewayNames && $0.gateways?.allSatisfy(\.online) == true
        }
    }

    /// Waits for `count` more location lines after the one at `index`; the index of the last.
    @discardableResult
    func waitForLocations(after index: Int, count: Int) async throws -> Int {
        var last = index
        for _ in 0..<count {
            last = try await waitForLocation(from: last + 1, "location line \(count) after line \(index + 1)") { _ in true }
        }
        return last
    }

    /// Stops locate and the gateways still running with SIGINT; each exit status.
    func interrupt() async throws -> [String: Termination] {
        var terminations: [String: Termination] = [:]
        locate.send(SIGINT)
        terminations["locate"] = try await locate.waitForExit(within: HangGuard.step)
        for (name, range) in gateways {
            range.send(SIGINT)
            terminations[name] = try await range.process.waitForExit(within: HangGuard.step)
        }
        return terminations
    }

    /// The readings messages on the broker, in the order a subscriber started by `readingsSubscriber()` got
    /// them: gateway and reading time.
    static func readings(_ subscriber: ChildProcess) throws -> [(gateway: String, time: Timestamp)] {
        struct Header: Decodable {
            let gateway: String
            let time: String
        }
        return try MQTTSubscriber.messages(subscriber).filter { $0.topic.hasSuffix("/readings") }.map { message in
            let header = try JSONDecoder().decode(Header.self, from: Data(message.payload.utf8))
            guard let time = TimestampText.parse(header.time) else { throw subscriber.failure("not a time: \(header.time)") }
            return (header.gateway, time)
        }
    }

    func readingsSubscriber() async throws -> ChildProcess {
        try await MQTTSubscriber.start(port: broker.port, topics: ["\(Self.prefix)/gateways/+/readings"])
    }

    /// How far each readings message of `gateway` was ahead of the latest one of `reference` to arrive
    /// before it, in seconds (negative: behind).
    static func leads(of gateway: String, over reference: String,
                      in readings: [(gateway: String, time: Timestamp)]) -> [Double] {
        var latest: Timestamp?
        var leads: [Double] = []
        for reading in readings {
            if reading.gateway == reference { latest = reading.time }
            if reading.gateway == gateway, let latest {
                leads.append(Double((reading.time - latest).value) / 1e6)
            }
        }
        return leads
    }
}
