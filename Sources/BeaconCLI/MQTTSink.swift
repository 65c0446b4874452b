import BeaconCore
import BeaconMQTT
import BeaconTransport
import Glibc

/// The lines, as MQTT messages, and each ranging tick's readings for `beacon locate`, through a
/// publisher that owns the broker connection.
final class MQTTSink: LineSink {
    private let publisher: MQTTPublisher
    private let monitorTopics: MonitorTopics
    private let gatewayTopics: GatewayTopics
    private var readings: GatewayReadingsCollector

    /// Starts publishing to the broker of `options` (connecting happens in the background). A replay
    /// waits for the broker rather than dropping lines, until `signals` asks it to stop.
    /// `rssiOffset` is the gateway's calibration, applied to its readings messages.
    init(_ options: MQTTOptions, rssiOffset: Double, replay: Bool, signals: SignalWatcher?, console: Console) throws {
        gatewayTopics = options.gatewayTopics
        readings = GatewayReadingsCollector(gateway: gatewayTopics.name, rssiOffset: rssiOffset, replay: replay)
        publisher = try options.publisher(replay: replay, signals: signals, console: console)
        monitorTopics = MonitorTopics(prefix: options.topicBase, room: options.room)
    }

    func monitor(_ output: MonitorOutput, line: String) {
        publisher.publish(monitorTopics.messages(for: output, line: line))
        readings.add(output)
    }

    func stepEnded(lastTick: Timestamp?) {
        if let lastTick { readings.ticked(at: lastTick) }
        let ticks = readings.completed()
        guard !ticks.isEmpty else { return }
        publisher.publish(ticks.map(gatewayTopics.message))
    }

    func finish() {
        stepEnded(lastTick: nil)
        publisher.finish()
    }
}

extension MQTTOptions {
    /// This receiver's gateway topics: `--gateway NAME`, else the host's name.
    var gatewayTopics: GatewayTopics { GatewayTopics(prefix: broker.address.prefix, name: gateway ?? Self.hostName) }

    /// Where the lines' topics start: PREFIX, or PREFIX/gateways/NAME with `--gateway`, so gateways sharing a
    /// prefix keep what they retain apart.
    var topicBase: String { gateway == nil ? broker.address.prefix : gatewayTopics.base }

    /// A publisher to the broker, its status (and last will) and client id as `--gateway` says: PREFIX/status
    /// and a fresh session without it; PREFIX/gateways/NAME/status and a client id derived from the prefix
    /// and name with it. A replay waits for the broker rather than dropping lines, until `signals` asks it to stop.
    func publisher(replay: Bool, signals: SignalWatcher?, console: Console) throws -> MQTTPublisher {
        // Diagnostics are single write(2) calls to stderr (or a locked capture in tests): safe from the publishing thread.
        nonisolated(unsafe) let diagnose = console.diagnose
        if let warning = broker.warning { console.diagnose(warning) }
        let named = gateway != nil
        return try MQTTPublisher(address: broker.address, caFile: broker.caFile,
                                 statusTopic: named ? gatewayTopics.status : nil,
                                 clientID: named ? gatewayTopics.clientID : nil,
                                 waitsForRoom: replay, stopDescriptor: signals?.descriptor, warn: { diagnose($0) })
    }

    /// The host's name as a gateway name (`gateway` when it has none that is one).
    static var hostName: String {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count - 1) == 0 else { return "gateway" }
        let name = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return BeaconRegion.isValidName(name) ? name : "gateway"
    }
}
