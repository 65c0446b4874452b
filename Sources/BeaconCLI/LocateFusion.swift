import BeaconCore
import BeaconMQTT

/// The fuser with its output: messages decoded and checked, outputs printed and published, every kind
/// of bad message counted and warned about a few times.
struct LocateFusion {
    var locator: Locator
    let shard: BeaconShard?
    let topics: LocateTopics
    /// Hands messages to the broker's publisher.
    let publish: ([MQTTMessage]) -> Void
    let output: LineOutput
    /// Beacons whose Home Assistant discovery has been published (at most `Locator.maximumBeacons`).
    private var announced: Set<String> = []
    private var statuses: [String: Bool] = [:]
    private var malformed = RepeatedWarning { "Warning: \($0) malformed messages from the gateways in all" }
    private var unknown = RepeatedWarning { "Warning: messages from \($0.counted("gateway")) the site does not have, in all" }
    private var unknownNames: Set<String> = []
    private var late = RepeatedWarning { "Warning: \($0.counted("readings message")) arrived after their time was fused, in all" }
    private var future = RepeatedWarning { "Warning: \($0.counted("readings message")) too far ahead of the other gateways, in all" }
    private var overflow = RepeatedWarning { "Warning: \($0.counted("readings message")) dropped to bound the readings waiting, in all" }
    private var clocks = RepeatedWarning { "Warning: \($0) gateway clock drifts in all" }
    private var misfits = RepeatedWarning { "Warning: \($0.counted("gateway")) no longer fit the survey, in all" }

    init(site: Site, settings: Locator.Settings, radio: RadioMap? = nil, shard: BeaconShard?, topics: LocateTopics,
         publish: @escaping ([MQTTMessage]) -> Void, output: LineOutput) {
        locator = Locator(site: site, settings: settings, radio: radio)
        self.shard = shard
        self.topics = topics
        self.publish = publish
        self.output = output
    }

    /// Every gateway of the site has said it is offline.
    var everyGatewayOffline: Bool {
        locator.site.gateways.allSatisfy { statuses[$0.name] == false }
    }

    mutating func receive(topic: String, payload: [UInt8], arrival: Timestamp) {
        switch topics.received(on: topic) {
        case .readings(let gateway):
            let readings: GatewayReadings
            do {
                readings = try GatewayReadings.decode(payload, gateway: gateway)
            } catch {
                Self.warn(&malformed, console: output.console, "Warning: a readings message on \(DiagnosticEscaping.escaped(topic)): \(error)")
                return
            }
            switch locator.receive(shard.map { $0.share(of: readings) } ?? readings, arrival: arrival) {
            case .accepted: break
            case .unknownGateway: unknownGateway(gateway)
            case .late: Self.warn(&late, console: output.console, "Warning: readings of \(gateway) at \(readings.time) arrived after that time was fused; dropped")
            case .fromTheFuture:
                Self.warn(&future, console: output.console, "Warning: readings of \(gateway) at \(readings.time) are more than \(Locator.maximumSkew) ahead of the other gateways; dropped")
            case .overflow: Self.warn(&overflow, console: output.console, "Warning: readings of \(gateway) dropped: \(Locator.maximumPending) readings wait for the slowest gateway")
            }
        case .status(let gateway):
            let text = String(decoding: payload, as: UTF8.self)
            guard text == "online" || text == "offline" else {
                Self.warn(&malformed, console: output.console, "Warning: the status of \(DiagnosticEscaping.escaped(gateway)) is neither online nor offline; ignored")
                return
            }
            if locator.status(gateway: gateway, online: text == "online") {
                statuses[gateway] = text == "online"
            } else {
                unknownGateway(gateway)
            }
        case nil:
            Self.warn(&malformed, console: output.console, "Warning: a message on \(DiagnosticEscaping.escaped(topic)), which is no gateway's readings or status; ignored")
        }
    }

    mutating func advance(arrival: Timestamp) {
        var outputs: [LocateOutput] = []
        locator.advance(arrival: arrival) { outputs.append($0) }
        emit(outputs)
        for (gateway, deviation, readings) in locator.surveyWarnings() {
            Self.warn(&misfits, console: output.console, "Warning: the readings of \(DiagnosticEscaping.escaped(gateway)) no longer fit the survey "
                      + "(their median deviation from the radio map is \((deviation * 10).rounded() / 10) sigma over its last \(readings)): "
                      + "has it moved, or the room around it changed, since the survey?")
        }
        // A replay's readings arrive at any pace: their clocks against arrival tell nothing.
        guard locator.settings.maximumLateness != nil else { return }
        for (gateway, drift) in locator.clockWarnings() {
            let tenths = (Double(drift.value) / 100_000).rounded() / 10
            Self.warn(&clocks, console: output.console, "Warning: the clock of \(gateway) moved \(tenths > 0 ? "+" : "")\(tenths) s "
                      + "against arrival; its readings are still fused on its own times")
        }
    }

    /// The end of the run. With `everythingReceived` (every gateway went offline), the windows left are
    /// fused; otherwise (a signal, --duration) they wait for a gateway that has not reported past them, and
    /// fused without its readings they could put a beacon in the wrong room and publish that room, retained.
    mutating func finish(everythingReceived: Bool) {
        var outputs: [LocateOutput] = []
        if everythingReceived { locator.finish { outputs.append($0) } }
        emit(outputs)
        for warning in [malformed, unknown, late, future, overflow, clocks, misfits] {
            if let summary = warning.summary { output.console.diagnose(summary) }
        }
    }

    private mutating func emit(_ outputs: [LocateOutput]) {
        for item in outputs {
            let line = item.json
            output.write(line, time: item.time)
            var first = false
            if let beacon = item.beacon, announced.count < Locator.maximumBeacons, !announced.contains(beacon.id) {
                announced.insert(beacon.id)
                first = true
            }
            if case .calibration(let report) = item { warnOfChanges(report) }
            publish(topics.messages(for: item, line: line, firstSighting: first))
        }
    }

    /// A gateway that hears differently from the fit it was held to: moved, or something new in the way.
    private func warnOfChanges(_ report: CalibrationReport) {
        for change in report.changes {
            let (old, fresh, index) = (change.reference, change.fresh, change.fresh.gateway)
            func dB(_ value: Double) -> String { (value >= 0 ? "+" : "") + String((value * 10).rounded() / 10) }
            func plain(_ value: Double) -> String { String((value * 100).rounded() / 100) }
            output.console.diagnose("Warning: \(DiagnosticEscaping.escaped(report.gatewayNames[index])) hears differently from its earlier "
                                    + "calibration (offset \(dB(old.offset)) -> \(dB(fresh.offset)) dB, exponent \(plain(old.exponent)) -> "
                                    + "\(plain(fresh.exponent))): moved, or something new in the way; the fresh fit is used")
        }
    }

    private mutating func unknownGateway(_ gateway: String) {
        guard unknownNames.count < 1_000, unknownNames.insert(gateway).inserted else { return }
        Self.warn(&unknown, console: output.console, "Warning: messages from '\(DiagnosticEscaping.escaped(gateway))', which is not a gateway of the site; ignored")
    }

    /// Static: `warning` is one of this fuser's own members, which an instance method could not take inout.
    private static func warn(_ warning: inout RepeatedWarning, console: Console, _ message: @autoclosure () -> String) {
        if let line = warning.occurred(message()) { console.diagnose(line) }
    }
}
