import BeaconCore
import BeaconMQTT
import BeaconTransport

/// `beacon survey`: the gateways' readings of one beacon at a known point (or along a walk), from the
/// broker, written as survey lines.
enum SurveyCommand {
    static func run(_ options: SurveyOptions, console: Console, signals: SignalWatcher?) -> ExitCode {
        let recorder: SurveyRecorder
        do {
            let site = try SiteFileInput.read(options.sitePath, console: console)
            recorder = try plan(options, site: site, console: console)
        } catch {
            return error.exit
        }
        var out: OutputFile?
        do {
            out = try options.outPath.map { path throws(TransportError) in try OutputFile(path: path, option: "--out", appending: true) }
        } catch {
            return Failure.report(error, console: console)
        }
        if let warning = options.broker.warning { console.diagnose(warning) }
        let topics = LocateTopics(prefix: options.broker.address.prefix)
        let inbox: LocateInbox
        let publisher: MQTTPublisher
        do {
            inbox = try LocateInbox()
            nonisolated(unsafe) let diagnose = console.diagnose
            // A clean session: readings queued for an earlier survey must not start this one.
            publisher = try MQTTPublisher(address: options.broker.address, caFile: options.broker.caFile,
                                          statusTopic: "\(topics.prefix)/survey/status", subscriptions: topics.subscriptions,
                                          received: { [inbox] topic, payload, _ in inbox.push(topic, payload) }, stopDescriptor: signals?.descriptor,
                                          warn: { diagnose($0) })
        } catch {
            return Failure.report(error, console: console)
        }
        console.diagnose(announcement(recorder))
        var survey = Survey(recorder: recorder, topics: topics, console: console)
        let progress = ProgressMeter(console, label: "Surveying")
        var stopped = false
        while true {
            if let signals, signals.pendingSignal() != nil {
                stopped = true
                break
            }
            _ = inbox.wakeup.wait(socket: signals?.descriptor, wantWrite: false, timeout: ProgressMeter.period)
            let arrival = Clock.now()
            for (topic, payload, _) in inbox.take() {
                survey.receive(topic: topic, payload: payload, arrival: arrival)
            }
            if survey.recorder.isComplete(at: arrival) { break }
            let duration = survey.recorder.plan.duration
            progress?.update(survey.recorder.surveyed.seconds / duration.seconds,
                             survey.recorder.start == nil ? "waiting for the gateways' readings"
                                 : "\(Int(survey.recorder.surveyed.seconds)) of \(Int(duration.seconds)) s")
        }
        progress?.finish()
        publisher.finish()
        survey.summarizeWarnings()
        if inbox.dropped > 0 { console.diagnose("Warning: \(inbox.dropped.counted("message")) dropped while \(LocateInbox.defaultBoundsText) waited") }
        guard !stopped else {
            console.diagnose("Stopped before the survey was complete: nothing written")
            return close(out, console: console, code: .success)
        }
        return write(survey.recorder, out: out, beacon: options.beacon, console: console)
    }

    /// The recorder for the options' place on `site`: a room's centre, or the walk of the path file.
    static func plan(_ options: SurveyOptions, site: Site, console: Console) throws(ReportedFailure) -> SurveyRecorder {
        let beacon = site.beacons.first { $0.id == options.beacon }?.id ?? site.beacons.first { $0.name == options.beacon }?.id ?? options.beacon
        let floor: Int
        let plan: SurveyRecorder.Plan
        switch options.place {
        case .point(let point):
            floor = options.floor ?? 0
            plan = .still(at: point, duration: options.duration)
        case .room(let name):
            guard let room = site.rooms.first(where: { $0.name == name }) else {
                throw usage(NearestMatch.message("Unknown room '\(DiagnosticEscaping.escaped(name))' for '--at <x,y|room>' "
                                                 + "(expected X,Y in metres or a room of the site)", typed: name, among: site.rooms.map(\.name)),
                            console: console)
            }
            floor = room.floor
            plan = .still(at: room.centre, duration: options.duration)
        case .path(let path):
            floor = options.floor ?? 0
            plan = .walk(try readPath(path, console: console))
        }
        let levels = Set(site.rooms.map(\.floor) + site.gateways.map(\.floor) + site.floors.map(\.level))
        guard levels.contains(floor) else {
            throw usage("Invalid value '\(floor)' for '--floor <n>': the site has floors \(levels.sorted().map(String.init).joined(separator: ", "))",
                        console: console)
        }
        return SurveyRecorder(site: site, beacon: beacon, plan: plan, floor: floor, maximumLateness: options.maximumLateness)
    }

    /// The walk in the path file: exit 66 when it cannot be read, 65 when it is not a valid path.
    static func readPath(_ path: String, console: Console) throws(ReportedFailure) -> SurveyPath {
        let bytes = try OptionFile.bytes(path, option: "--path", atMost: SurveyPath.maximumFileBytes, console: console)
        do {
            return try SurveyPath.decode(bytes)
        } catch {
            console.diagnose("Error: \(error.position?.inFile(path) ?? path): \(error)")
            throw ReportedFailure(exit: .dataError)
        }
    }

    private static func usage(_ message: String, console: Console) -> ReportedFailure {
        console.diagnose("Error: \(message)")
        console.diagnose(SurveyOptions.help.usageLine)
        return ReportedFailure(exit: .usage)
    }

    /// What the person holding the beacon is to do, on stderr.
    static func announcement(_ recorder: SurveyRecorder) -> String {
        let floor = recorder.floor == 0 ? "" : " on floor \(recorder.floor)"
        switch recorder.plan {
        case let .still(point, duration):
            return "Hold \(recorder.beacon) still at (\(metres(point.x)), \(metres(point.y)))\(floor) for \(duration), "
                + "from the gateways' first readings"
        case .walk(let path):
            return "Carry \(recorder.beacon) along the \(metres(path.length)) m path\(floor) in \(path.duration), "
                + "from the gateways' first readings"
        }
    }

    private static func metres(_ value: Double) -> String { String((value * 100).rounded() / 100) }

    /// The survey's lines on stdout and appended to `out`, or why it is refused (exit 65).
    static func write(_ recorder: SurveyRecorder, out: OutputFile?, beacon: String, console: Console) -> ExitCode {
        let recording: SurveyRecording
        switch recorder.result() {
        case .success(let result): recording = result
        case .failure(let refusal):
            console.diagnose("Error: cannot survey: \(refusal); nothing written")
            return close(out, console: console, code: .dataError)
        }
        let silent = recorder.silentGateways
        if !silent.isEmpty {
            console.diagnose("Warning: no readings came from \(silent.map(DiagnosticEscaping.escaped).joined(separator: ", ")) "
                             + "while the survey ran: no lines for \(silent.count == 1 ? "it" : "them")")
        }
        if recording.leftOut > 0 {
            console.diagnose("Warning: \(recording.leftOut.counted("stretch", plural: "stretches")) of the walk left out: "
                             + "no gateway heard the beacon \(SurveyRecorder.minimumStretchSamples) times there")
        }
        let output = LineOutput(console: console)
        var fileLines: [UInt8] = []
        for point in recording.points {
            let time = point.time ?? recorder.start ?? Timestamp(microseconds: 0)
            output.write(SurveyLine.event(point, beacon: beacon, time: time), time: time)
            fileLines += Array(SurveyLine.encode(point).utf8) + [UInt8(ascii: "\n")]
        }
        let heard = Set(recording.points.filter { $0.rssi != nil }.map(\.gateway)).count
        let gateways = Set(recording.points.map(\.gateway)).count
        console.diagnose("Surveyed: \(recording.points.count.counted("line")), \(heard) of \(gateways.counted("gateway")) heard the beacon")
        if let out {
            do {
                try out.append { $0 += fileLines }
            } catch {
                console.diagnose("Error: --out \(out.path): \(error)")
                _ = close(out, console: console, code: .ioError)
                return output.finish(.ioError)
            }
        }
        return output.finish(close(out, console: console, code: .success))
    }

    /// Closes `out`: a failed write of what it held makes a run that ended with `code` exit 74.
    private static func close(_ out: OutputFile?, console: Console, code: ExitCode) -> ExitCode {
        guard let out else { return code }
        do {
            try out.close()
        } catch {
            console.diagnose("Error: --out \(out.path): \(error)")
            return code == .success ? .ioError : code
        }
        return code
    }
}

/// The survey with its inbox's messages decoded and checked, every kind of bad message counted and
/// warned about a few times.
struct Survey {
    var recorder: SurveyRecorder
    private var messages: GatewayMessages
    private var repeated = RepeatedWarning { "Warning: \($0.counted("readings message")) repeated or out of order, in all" }
    private var overflow = RepeatedWarning { "Warning: \($0.counted("readings message")) beyond the ticks a survey keeps, in all" }

    init(recorder: SurveyRecorder, topics: LocateTopics, console: Console) {
        self.recorder = recorder
        messages = GatewayMessages(topics: topics, console: console)
    }

    mutating func receive(topic: String, payload: [UInt8], arrival: Timestamp) {
        switch messages.decode(topic: topic, payload: payload) {
        case .readings(let readings):
            let gateway = readings.gateway
            switch recorder.receive(readings, arrival: arrival) {
            case .accepted: break
            case .unknownGateway: messages.unknownGateway(gateway)
            case .repeated:
                messages.warn(&repeated, "Warning: readings of \(gateway) at \(readings.time) are not later than its previous ones; dropped")
            case .overflow:
                messages.warn(&overflow, "Warning: readings of \(gateway) dropped: the survey keeps at most \(SurveyRecorder.maximumTicks) ticks")
            case .fromTheFuture: messages.fromTheFuture(readings)
            }
        case .status(let gateway, let online):
            if !recorder.status(gateway: gateway, online: online) { messages.unknownGateway(gateway) }
        case nil:
            break
        }
    }

    func summarizeWarnings() {
        for summary in messages.summaries + [repeated, overflow].compactMap(\.summary) { messages.console.diagnose(summary) }
    }
}
