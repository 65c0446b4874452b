import BeaconCore
import BeaconMQTT
import BeaconTransport

/// The lines, as MQTT messages, through a publisher that owns the broker connection.
final class MQTTSink: LineSink {
    private let publisher: MQTTPublisher
    private let monitorTopics: MonitorTopics

    /// Starts publishing to the broker of `options` (connecting happens in the background). A replay
    /// waits for the broker rather than dropping lines, until `signals` asks it to stop.
    init(_ options: MQTTOptions, replay: Bool, signals: SignalWatcher?, console: Console) throws {
        // Diagnostics are single write(2) calls to stderr (or a locked capture in tests): safe from the publishing thread.
        nonisolated(unsafe) let diagnose = console.diagnose
        publisher = try MQTTPublisher(address: options.address, caFile: options.caFile, waitsForRoom: replay,
                                      stopDescriptor: signals?.descriptor, warn: { diagnose($0) })
        monitorTopics = MonitorTopics(prefix: options.address.prefix, room: options.room)
    }

    func monitor(_ output: MonitorOutput, line: String) {
        publisher.publish(monitorTopics.messages(for: output, line: line))
    }

    func finish() {
        publisher.finish()
    }
}
