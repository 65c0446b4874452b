import BeaconCore
import BeaconSimulation
import BeaconTransport

/// `beacon simulate`: write a simulated scene as a btsnoop capture, and its ground truth.
enum SimulateCommand {
    /// Refuses outputs that would overwrite the scene file or each other, whatever paths lead to them.
    static func checkOutputs(_ options: SimulateOptions) throws(UsageError) {
        guard case .simulate(let source, let out, let truth) = options.action else { return }
        let outputs = [("--out", out)] + (truth.map { $0 == "-" ? [] : [("--truth", $0)] } ?? [])
        if case .file(let scenePath) = source, let scene = FileIdentity(path: scenePath) {
            for (option, path) in outputs where FileIdentity(path: path) == scene {
                throw UsageError("'\(option)' would overwrite the scene file '\(scenePath)'")
            }
        }
        if outputs.count == 2, let identity = FileIdentity(path: out), FileIdentity(path: outputs[1].1) == identity {
            throw UsageError("'--out' and '--truth' name the same file")
        }
    }

    static func run(_ options: SimulateOptions, console: Console, signals: SignalWatcher?) -> ExitCode {
        do {
            switch options.action {
            case .list:
                for line in SceneListing.lines(Scene.allNamed) {
                    let code = console.print(line)
                    guard code == .success else { return code }
                }
                return .success
            case .printScene(let source):
                let simulator = try prepare(source, options, console: console)
                return console.print(String(decoding: simulator.scene.json.dropLast(), as: UTF8.self))
            case .simulate(let source, let out, let truth):
                let simulator = try prepare(source, options, console: console)
                let paths = try outputPaths(simulator.scene, out: out, truth: truth, options, console: console)
                let outputs: SimulationOutputs
                do {
                    outputs = try SimulationOutputs(paths, warn: console.diagnose)
                } catch {
                    return Failure.report(error, console: console)
                }
                do {
                    return try write(simulator, to: outputs, truthOnStdout: truth == "-", console: console, signals: signals)
                } catch {
                    console.diagnose("Error: \(error)")
                    return .ioError
                }
            }
        } catch {
            return error.exit
        }
    }

    /// The scene from its source with the options applied, ready to run; a failure is reported (one
    /// error line) before it is thrown.
    static func prepare(_ source: SimulateOptions.SceneSource, _ options: SimulateOptions,
                        console: Console) throws(ReportedFailure) -> SceneSimulator {
        var scene: Scene
        switch source {
        case .named(let named), .flags(let named):
            scene = named
        case .file(let path):
            let bytes = try OptionFile.bytes(path, option: "--scene", atMost: Scene.maximumFileSize, console: console)
            guard bytes.count <= Scene.maximumFileSize else {
                console.diagnose("Error: \(path): the scene file is larger than \(Scene.maximumFileSizeText), the limit for a scene")
                throw ReportedFailure(exit: .dataError)
            }
            do {
                scene = try Scene.decode(json: bytes)
            } catch {
                console.diagnose("Error: \(error.position?.inFile(path) ?? path): \(error)")
                throw ReportedFailure(exit: .dataError)
            }
        }
        if let sitePath = options.sitePath { scene.site = try SiteFileInput.read(sitePath, console: console) }
        options.overrides.apply(to: &scene)
        do {
            return try SceneSimulator(scene: scene, seed: options.seed, start: options.start)
        } catch {
            console.diagnose("Error: the scene with the options given: \(error)")
            throw ReportedFailure(exit: .dataError)
        }
    }

    /// Where the run writes: for a site scene, a gateway name that cannot be a file name is exit 65, and
    /// outputs that would overwrite an input or each other exit 64 (a plain scene's were checked with the
    /// arguments, by `checkOutputs`).
    static func outputPaths(_ scene: Scene, out: String, truth: String?, _ options: SimulateOptions,
                            console: Console) throws(ReportedFailure) -> SimulationOutputs.Paths {
        let paths: SimulationOutputs.Paths
        do {
            paths = try SimulationOutputs.paths(for: scene, out: out, truth: truth)
        } catch {
            // The site's own file when --site gave it, else the scene's (a built-in scene's names all serve).
            let origin: String
            switch (options.sitePath, options.action) {
            case (let site?, _): origin = "\(site): "
            case (nil, .simulate(.file(let scene), _, _)): origin = "\(scene): site."
            case (nil, _): origin = "site."
            }
            console.diagnose("Error: " + error.message(prefix: origin))
            throw ReportedFailure(exit: .dataError)
        }
        guard paths.directory != nil else { return paths }
        var inputs: [(String, String)] = options.sitePath.map { [("site", $0)] } ?? []
        if case .simulate(.file(let scenePath), _, _) = options.action { inputs.append(("scene", scenePath)) }
        let written = paths.captures + (paths.siteFile.map { [$0] } ?? [])
        for path in written {
            let identity = FileIdentity(path: path)
            if let truth = paths.truth, truth == path || (identity != nil && FileIdentity(path: truth) == identity) {
                console.diagnose("Error: '--truth' names \(path), a file '--out' writes")
                console.diagnose(SimulateOptions.help.usageLine)
                throw ReportedFailure(exit: .usage)
            }
            for (kind, input) in inputs where identity != nil && FileIdentity(path: input) == identity {
                console.diagnose("Error: '--out' would overwrite the \(kind) file '\(input)' with \(path)")
                console.diagnose(SimulateOptions.help.usageLine)
                throw ReportedFailure(exit: .usage)
            }
        }
        return paths
    }

    /// Streams the captures (and the ground truth) to their files as the simulation produces them.
    /// A reader of `--truth -` gone away ends the run as range's does (exit 0); a failed write is exit 74.
    /// A stopping signal (`signals`) ends it with the unfinished files removed.
    static func write(_ simulator: SceneSimulator, to outputs: SimulationOutputs, truthOnStdout: Bool,
                      console: Console, signals: SignalWatcher?) throws(SystemError) -> ExitCode {
        let writer = BtsnoopWriter(datalink: .h4)
        for capture in outputs.captures { try capture.append { $0.append(contentsOf: writer.header) } }
        if let site = simulator.scene.site, let siteFile = outputs.siteFile {
            try siteFile.append { $0.append(contentsOf: site.json) }
        }
        let stdout = LineOutput(console: console)
        let progress = ProgressMeter(console, label: "simulate")
        defer { progress?.finish() }
        let scene = simulator.scene
        let duration = scene.duration
        let gatewayNames = scene.site?.gateways.map(\.name) ?? []
        let captures = outputs.captures
        do throws(Stop) {
            try simulator.run(
                packet: { (simulated) throws(Stop) in
                    try Stop.writing { () throws(SystemError) in
                        try captures[simulated.receiver].append {
                            writer.appendRecord(simulated.packet, direction: simulated.direction, timestamp: simulated.time, to: &$0)
                        }
                    }
                },
                truth: { (row) throws(Stop) in
                    progress?.update(row.elapsed.seconds / max(duration.seconds, 1e-6), "(\(row.elapsed) of \(duration) simulated)")
                    // Checked once a row: often enough to stop at once, rarely enough to cost nothing.
                    if let signal = signals?.pendingSignal() { throw .signal(signal) }
                    guard outputs.truth != nil || truthOnStdout else { return }
                    // The truth's times pass 9999 when --start is near its end.
                    stdout.notePrintable(row.time)
                    let line = row.jsonLine(regions: scene.regions, gatewayNames: gatewayNames)
                    if let truthFile = outputs.truth {
                        try Stop.writing { () throws(SystemError) in
                            try truthFile.append {
                                $0.append(contentsOf: line.utf8)
                                $0.append(UInt8(ascii: "\n"))
                            }
                        }
                    } else {
                        stdout.write(line)
                        if stdout.readerGone { throw .outputEnded }
                    }
                })
        } catch {
            switch error {
            case .system(let error): throw error
            case .outputEnded: break
            case .signal:
                // A capture cut short would replay as a scene that ends early: none is left in its place.
                let removed = outputs.removeUnfinished(warn: console.diagnose)
                console.diagnose("Stopped by a signal" + (removed.isEmpty ? "" : ": removed the unfinished \(listing(removed))"))
                return stdout.finish(.success)
            }
        }
        try outputs.close()
        return stdout.finish(.success)
    }

    /// "a", "a and b", "a, b and c".
    static func listing(_ items: [String]) -> String {
        guard let last = items.last, items.count > 1 else { return items.first ?? "" }
        return items.dropLast().joined(separator: ", ") + " and " + last
    }

    /// Why a simulation stopped before its end.
    enum Stop: Error {
        case system(SystemError)
        case outputEnded
        case signal(Int32)

        static func writing(_ body: () throws(SystemError) -> Void) throws(Stop) {
            do { try body() } catch { throw .system(error) }
        }
    }
}
