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
        // Diagnostics are single write(2) calls to stderr (or a locked capture in tests): safe from the publishing thread.
        nonisolated(unsafe) let diagnose = console.diagnose
        let prefix = options.address.prefix
        gatewayTopics = GatewayTopics(prefix: prefix, name: options.gateway ?? Self.hostName)
        readings = GatewayReadingsCollector(gateway: gatewayTopics.name, rssiOffset: rssiOffset)
        let named = options.gateway != nil
        publisher = try MQTTPublisher(address: options.address, caFile: options.caFile,
                                      statusTopic: named ? gatewayTopics.status : nil,
                                      clientID: named ? gatewayTopics.clientID : nil,
                                      waitsForRoom: replay, stopDescriptor: signals?.descriptor, warn: { diagnose($0) })
        monitorTopics = MonitorTopics(prefix: named ? gatewayTopics.base : prefix, room: options.room)
    }

    /// The host's name as a gateway name (`gateway` when it has none that is one).
    static var hostName: String {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count - 1) == 0 else { return "gateway" }
        let name = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return BeaconRegion.isValidName(name) ? name : "gateway"
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
