import BeaconCore
import BeaconMQTT

/// The gateways' messages on the broker, as `beacon locate` and `beacon survey` take them: readings
/// decoded, a status checked to be online or offline, anything else counted and warned about a few times;
/// so are gateways the site does not have.
struct GatewayMessages {
    enum Message {
        case readings(GatewayReadings)
        case status(gateway: String, online: Bool)
    }

    let topics: LocateTopics
    let console: Console
    private var malformed = RepeatedWarning { "Warning: \($0) malformed messages from the gateways in all" }
    private var unknown = RepeatedWarning { "Warning: messages from \($0.counted("gateway")) the site does not have, in all" }
    private var unknownNames: Set<String> = []
    private var future = RepeatedWarning { "Warning: \($0.counted("readings message")) too far ahead of the other gateways or this machine's clock, in all" }

    init(topics: LocateTopics, console: Console) {
        self.topics = topics
        self.console = console
    }

    /// The message on `topic`; nil, warned about, when it is malformed or on no gateway's topic.
    mutating func decode(topic: String, payload: [UInt8]) -> Message? {
        switch topics.received(on: topic) {
        case .readings(let gateway):
            do {
                return .readings(try GatewayReadings.decode(payload, gateway: gateway))
            } catch {
                warn(&malformed, "Warning: a readings message on \(DiagnosticEscaping.escaped(topic)): \(error)")
                return nil
            }
        case .status(let gateway):
            let text = String(decoding: payload, as: UTF8.self)
            guard text == "online" || text == "offline" else {
                warn(&malformed, "Warning: the status of \(DiagnosticEscaping.escaped(gateway)) is neither online nor offline; ignored")
                return nil
            }
            return .status(gateway: gateway, online: text == "online")
        case nil:
            warn(&malformed, "Warning: a message on \(DiagnosticEscaping.escaped(topic)), which is no gateway's readings or status; ignored")
            return nil
        }
    }

    /// A message from `gateway`, which the site does not have: warned about once per name (of the first 1,000).
    mutating func unknownGateway(_ gateway: String) {
        guard unknownNames.count < 1_000, unknownNames.insert(gateway).inserted else { return }
        warn(&unknown, "Warning: messages from '\(DiagnosticEscaping.escaped(gateway))', which is not a gateway of the site; ignored")
    }

    /// Readings dropped as from the future (`Locator.Receipt.fromTheFuture`, `SurveyRecorder.Receipt.fromTheFuture`).
    mutating func fromTheFuture(_ readings: GatewayReadings) {
        let ahead = readings.replay ? "this machine's clock (a replay of captures dated ahead of it needs --max-lateness none)"
            : "the other gateways"
        warn(&future, "Warning: readings of \(readings.gateway) at \(readings.time) are more than \(Locator.maximumSkew) ahead of \(ahead); dropped")
    }

    /// Prints `message` if `warning` has not been warned about too often yet; counts it either way.
    func warn(_ warning: inout RepeatedWarning, _ message: @autoclosure () -> String) {
        if let line = warning.occurred(message()) { console.diagnose(line) }
    }

    /// The counts of the warnings beyond their first lines, at the end of a run.
    var summaries: [String] { [malformed, unknown, future].compactMap(\.summary) }
}
