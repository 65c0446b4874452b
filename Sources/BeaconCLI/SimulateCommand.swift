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
                for scene in Scene.allNamed {
                    let code = console.print(scene.name + String(repeating: " ", count: max(1, 14 - scene.name.count)) + scene.summary)
                    guard code == .success else { return code }
                }
                return .success
            case .printScene(let source):
                let simulator = try prepare(source, options, console: console)
                return console.print(String(decoding: simulator.scene.json.dropLast(), as: UTF8.self))
            case .simulate(let source, let out, let truth):
                let simulator = try prepare(source, options, console: console)
                let capture: OutputFile, truthFile: OutputFile?
                do {
                    capture = try OutputFile(path: out)
                    truthFile = try truth.flatMap { path throws(TransportError) in path == "-" ? nil : try OutputFile(path: path) }
                } catch {
                    return Failure.report(error, console: console)
                }
                do {
                    return try write(simulator, capture: capture, truth: truthFile, truthOnStdout: truth == "-",
                                     console: console, signals: signals)
                } catch {
                    console.diagnose("Error: \(error)")
                    return .ioError
                }
            }
        } catch {
            return error.exit
        }
    }

    /// A scene that cannot be simulated, already reported on the console.
    struct SceneFailure: Error {
        let exit: ExitCode
    }

    /// The scene from its source with the options applied, ready to run; a failure is reported (one
    /// error line) before it is thrown.
    static func prepare(_ source: SimulateOptions.SceneSource, _ options: SimulateOptions,
                        console: Console) throws(SceneFailure) -> SceneSimulator {
        var scene: Scene
        switch source {
        case .named(let named), .flags(let named):
            scene = named
        case .file(let path):
            let bytes: [UInt8]
            do {
                // One byte past the limit tells a file that is too large.
                bytes = try InputFile.read(path, atMost: Scene.maximumFileSize + 1)
            } catch {
                console.diagnose("Error: cannot read the scene file: \(error)")
                throw SceneFailure(exit: .noInput)
            }
            guard bytes.count <= Scene.maximumFileSize else {
                console.diagnose("Error: \(path): the scene file is larger than \(Scene.maximumFileSizeText), the limit for a scene")
                throw SceneFailure(exit: .dataError)
            }
            do {
                scene = try Scene.decode(json: bytes)
            } catch {
                console.diagnose("Error: \(path): \(error)")
                throw SceneFailure(exit: .dataError)
            }
        }
        options.overrides.apply(to: &scene)
        do {
            return try SceneSimulator(scene: scene, seed: options.seed, start: options.start)
        } catch {
            console.diagnose("Error: the scene with the options given: \(error)")
            throw SceneFailure(exit: .dataError)
        }
    }

    /// Streams the capture (and the ground truth) to their files as the simulation produces them.
    /// A reader of `--truth -` gone away ends the run as range's does (exit 0); a failed write is exit 74.
    /// A stopping signal (`signals`) ends it with the unfinished files removed.
    static func write(_ simulator: SceneSimulator, capture: OutputFile, truth truthFile: OutputFile?, truthOnStdout: Bool,
                      console: Console, signals: SignalWatcher?) throws(SystemError) -> ExitCode {
        let writer = BtsnoopWriter(datalink: .h4)
        try capture.append { $0.append(contentsOf: writer.header) }
        let stdout = LineOutput(console: console)
        let regions = simulator.scene.regions
        let progress = ProgressMeter(console, label: "simulate")
        defer { progress?.finish() }
        let duration = simulator.scene.duration
        do throws(Stop) {
            try simulator.run(
                packet: { (simulated) throws(Stop) in
                    try Stop.writing { () throws(SystemError) in
                        try capture.append {
                            writer.appendRecord(simulated.packet, direction: simulated.direction, timestamp: simulated.time, to: &$0)
                        }
                    }
                },
                truth: { (row) throws(Stop) in
                    progress?.update(row.elapsed.seconds / max(duration.seconds, 1e-6), "(\(row.elapsed) of \(duration) simulated)")
                    // Checked once a row: often enough to stop at once, rarely enough to cost nothing.
                    if let signal = signals?.pendingSignal() { throw .signal(signal) }
                    guard truthFile != nil || truthOnStdout else { return }
                    // The truth's times pass 9999 when --start is near its end.
                    stdout.notePrintable(row.time)
                    let line = row.jsonLine(regions: regions)
                    if let truthFile {
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
                var removed: [String] = []
                for path in [capture.path] + (truthFile.map { [$0.path] } ?? []) {
                    do throws(SystemError) {
                        if try OutputFile.remove(path) { removed.append(path) }
                    } catch {
                        console.diagnose("Warning: the unfinished \(path) is left: \(error)")
                    }
                }
                console.diagnose("Stopped by a signal" + (removed.isEmpty ? "" : ": removed the unfinished \(removed.joined(separator: " and "))"))
                return stdout.finish(.success)
            }
        }
        try capture.close()
        try truthFile?.close()
        return stdout.finish(.success)
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
