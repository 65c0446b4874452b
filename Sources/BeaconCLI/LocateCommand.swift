import BeaconCore
import BeaconMQTT
import BeaconTransport

/// `beacon locate`: the gateways' readings from the broker, fused into rooms and positions until stopped.
struct LocateCommand {
    static func run(_ options: LocateOptions, console: Console, signals: SignalWatcher?) -> ExitCode {
        let site: Site
        var radio: RadioMap?
        do {
            site = try SiteFileInput.read(options.sitePath, console: console)
            radio = try options.surveyPath.map { path throws(ReportedFailure) in
                try SurveyFileInput.radioMap(path, site: site, model: options.settings.signal, console: console)
            }
        } catch {
            return error.exit
        }
        let inbox: LocateInbox
        let publisher: MQTTPublisher
        let address = options.broker.address
        let topics = LocateTopics(prefix: address.prefix, shard: options.shard)
        if let warning = options.broker.warning { console.diagnose(warning) }
        do {
            inbox = try LocateInbox()
            nonisolated(unsafe) let diagnose = console.diagnose
            publisher = try MQTTPublisher(address: address, caFile: options.broker.caFile, statusTopic: topics.status,
                                          clientID: GatewayTopics.stableClientID(prefix: address.prefix,
                                                                                 name: "locate " + (options.shard?.description ?? "")),
                                          subscriptions: topics.subscriptions + (options.settings.calibration == nil ? [] : [topics.calibration]),
                                          received: { [inbox] in inbox.push($0, $1, retained: $2) },
                                          waitsForRoom: options.settings.maximumLateness == nil,
                                          stopDescriptor: signals?.descriptor, warn: { diagnose($0) })
        } catch {
            return Failure.report(error, console: console)
        }
        var fusion = LocateFusion(site: site, settings: options.settings, radio: radio, shard: options.shard, topics: topics,
                                  publish: { publisher.publish($0) }, output: LineOutput(console: console))
        let start = Clock.monotonic()
        var code = ExitCode.success
        var everythingReceived = false
        while true {
            if let signals, signals.pendingSignal() != nil { break }
            if fusion.output.readerGone { break }
            if let duration = options.duration, Clock.monotonic().value - start.value >= duration.value { break }
            let wait = min(options.settings.interval, options.duration.map { Micros($0.value - (Clock.monotonic().value - start.value)) }
                           ?? options.settings.interval)
            _ = inbox.wakeup.wait(socket: signals?.descriptor, wantWrite: false, timeout: max(Micros(0), wait))
            let arrival = Clock.now()
            for (topic, payload, retained) in inbox.take() {
                fusion.receive(topic: topic, payload: payload, arrival: arrival, retained: retained)
            }
            // Fusing a replay, locate need not keep up with the air either: what this batch publishes waits for
            // the broker rather than drop.
            publisher.waitsForRoom = fusion.locator.lateness(at: arrival) == nil
            fusion.advance(arrival: arrival)
            if options.untilOffline, fusion.locator.isEveryGatewayDone(at: arrival), inbox.isEmpty {
                everythingReceived = true
                break
            }
        }
        fusion.finish(everythingReceived: everythingReceived, arrival: Clock.now())
        let dropped = inbox.dropped
        if dropped > 0 { console.diagnose("Warning: \(dropped.counted("message")) dropped while \(LocateInbox.defaultBoundsText) waited to be fused") }
        publisher.finish()
        code = fusion.output.finish(code)
        return code
    }
}
