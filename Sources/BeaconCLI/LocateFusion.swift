import BeaconCore
import BeaconMQTT

/// The fuser with its output: messages decoded and checked, outputs printed and published, every kind
/// of bad message counted and warned about a few times.
struct LocateFusion {
    var locator: Locator
    let shard: BeaconShard?
    let topics: LocateTopics
    private var messages: GatewayMessages
    /// Hands messages to the broker's publisher.
    let publish: ([MQTTMessage]) -> Void
    let output: LineOutput
    /// Beacons whose Home Assistant discovery has been published (at most `Locator.maximumBeacons`).
    private var announced: Set<String> = []
    private var late = RepeatedWarning { "Warning: \($0.counted("readings message")) arrived after their time was fused, in all" }
    private var overflow = RepeatedWarning { "Warning: \($0.counted("readings message")) dropped to bound the readings waiting, in all" }
    private var repeats = RepeatedWarning { "Warning: \($0.counted("readings message")) delivered again, in all" }
    private var gaps = RepeatedWarning { "Warning: \($0.counted("gap")) in the gateways' readings messages, in all" }
    private var clocks = RepeatedWarning { "Warning: \($0) gateway clock drifts in all" }
    private var misfits = RepeatedWarning { "Warning: \($0.counted("gateway")) no longer fit the survey, in all" }
    private var badCalibrations = RepeatedWarning { "Warning: \($0.counted("retained calibration")) ignored, in all" }

    init(site: Site, settings: Locator.Settings, radio: RadioMap? = nil, shard: BeaconShard?, topics: LocateTopics,
         publish: @escaping ([MQTTMessage]) -> Void, output: LineOutput) {
        locator = Locator(site: site, settings: settings, radio: radio)
        self.shard = shard
        self.topics = topics
        messages = GatewayMessages(topics: topics, console: output.console)
        self.publish = publish
        self.output = output
    }

    /// `retained`: the broker held the message retained when locate subscribed (an earlier run's calibration).
    mutating func receive(topic: String, payload: [UInt8], arrival: Timestamp, retained: Bool = false) {
        if topic == topics.calibration {
            // What is passed on live is this run's own fit (or another shard's), already in use or about to be.
            if retained { resumeCalibration(payload) }
            return
        }
        switch messages.decode(topic: topic, payload: payload) {
        case .readings(let readings):
            let gateway = readings.gateway
            switch locator.receive(shard.map { $0.share(of: readings, site: locator.site) } ?? readings, arrival: arrival) {
            case .accepted: break
            case .unknownGateway: messages.unknownGateway(gateway)
            case .late: messages.warn(&late, "Warning: readings of \(gateway) at \(readings.time) arrived after that time was fused; dropped")
            case .fromTheFuture: messages.fromTheFuture(readings)
            case .overflow: messages.warn(&overflow, "Warning: readings of \(gateway) dropped: \(Locator.maximumPending) readings wait for the slowest gateway")
            case .repeated:
                messages.warn(&repeats, "Warning: readings of \(gateway) at \(readings.time) (message \(readings.sequence)) delivered again; "
                              + "fused once")
            }
        case .status(let gateway, let online):
            if !locator.status(gateway: gateway, online: online, retained: retained) { messages.unknownGateway(gateway) }
        case nil:
            break
        }
    }

    /// An earlier run's calibration: used, and fresh fits held to it, until this run's first fit; one that
    /// is malformed or of another site is warned about and ignored (the gateways are fitted afresh).
    private mutating func resumeCalibration(_ payload: [UInt8]) {
        let earlier: CalibrationReport
        do {
            earlier = try CalibrationReport.decode(payload, site: locator.site)
        } catch {
            let what = if case .foreign = error { "is not of this site" } else { "is malformed" }
            messages.warn(&badCalibrations, "Warning: the calibration retained on \(DiagnosticEscaping.escaped(topics.calibration)) "
                          + "\(what) (\(DiagnosticEscaping.escaped(error.description))); ignored, the gateways are fitted afresh")
            return
        }
        guard locator.resumeCalibration(from: earlier.calibration) else { return }
        output.console.diagnose("Continuing from the calibration of \(earlier.time.iso8601) (\(earlier.calibration.gateways.count.counted("gateway"))) "
                                + "retained on \(DiagnosticEscaping.escaped(topics.calibration)) until this run's first fit")
    }

    mutating func advance(arrival: Timestamp) {
        var outputs: [LocateOutput] = []
        locator.advance(arrival: arrival) { outputs.append($0) }
        emit(outputs)
        for (gateway, missing, before) in locator.lossWarnings() {
            messages.warn(&gaps, "Warning: \(missing.counted("readings message")) of \(gateway) before its message \(before) never arrived: "
                          + "the broker dropped them (a limit on the messages it queues for locate, such as mosquitto's "
                          + "max_queued_messages) or the gateway did; the windows are fused without them")
        }
        for (gateway, deviation, readings) in locator.surveyWarnings() {
            messages.warn(&misfits, "Warning: the readings of \(DiagnosticEscaping.escaped(gateway)) no longer fit the survey "
                      + "(their median deviation from the radio map is \((deviation * 10).rounded() / 10) sigma over its last \(readings)): "
                      + "has it moved, or the room around it changed, since the survey?")
        }
        // A replay's readings arrive at any pace: their clocks against arrival tell nothing.
        guard locator.lateness(at: arrival) != nil else { return }
        for (gateway, drift) in locator.clockWarnings() {
            let tenths = (Double(drift.value) / 100_000).rounded() / 10
            messages.warn(&clocks, "Warning: the clock of \(gateway) moved \(tenths > 0 ? "+" : "")\(tenths) s "
                      + "against arrival; its readings are still fused on its own times")
        }
    }

    /// The end of the run at `arrival`. With `everythingReceived` (every gateway done), the windows left are
    /// fused; otherwise (a signal, --duration) those every gateway that sent readings has reported past
    /// (`Locator.stop`): the others wait for a gateway behind, and fused without its readings they could put
    /// a beacon in the wrong room and publish that room, retained.
    mutating func finish(everythingReceived: Bool, arrival: Timestamp) {
        var outputs: [LocateOutput] = []
        if everythingReceived {
            locator.finish { outputs.append($0) }
        } else {
            locator.stop(arrival: arrival) { outputs.append($0) }
        }
        emit(outputs)
        for summary in messages.summaries + [late, overflow, repeats, clocks, misfits, badCalibrations].compactMap(\.summary) {
            output.console.diagnose(summary)
        }
        if let summary = gaps.summary { output.console.diagnose("\(summary): \(locator.lostMessages.counted("message")) never arrived") }
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
}
