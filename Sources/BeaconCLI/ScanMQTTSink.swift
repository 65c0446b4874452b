import BeaconCore
import BeaconMQTT
import BeaconTransport

/// `beacon scan`'s lines, as MQTT messages on each device's topic, through a publisher that owns the
/// broker connection.
final class ScanMQTTSink: LineSink {
    private let publisher: MQTTPublisher
    private let topics: ScanTopics

    /// Starts publishing to the broker of `options` (connecting happens in the background). A replay
    /// waits for the broker rather than dropping lines, until `signals` asks it to stop.
    init(_ options: MQTTOptions, replay: Bool, signals: SignalWatcher?, console: Console) throws {
        topics = ScanTopics(prefix: options.topicBase)
        publisher = try options.publisher(replay: replay, signals: signals, console: console)
    }

    func scan(_ output: ScanOutput, line: String) {
        publisher.publish([topics.message(for: output, line: line)])
    }

    func stepEnded(lastTick: Timestamp?) {}

    func finish() {
        publisher.finish()
    }
}
