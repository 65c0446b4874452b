import BeaconCore
import BeaconEvaluation
import BeaconTransport
import Glibc

// make eval: every model on the real measurements and every shipped scene, and beacon locate and the peers'
// room rules on the fleet scenes; prints the tables and writes the plot data. Usage:
// beacon-eval [--research-data DIR] [--flat-data DIR] [--office-data DIR] [--out DIR]
// beacon-eval [--flat-data DIR] [--office-data DIR] --fleet: the fleet tables alone (make eval-fleet)
// beacon-eval [--flat-data DIR] [--office-data DIR] --fleet-prepare DIR: writes what make eval-fleet's runs through
//   a real broker replay (each scene and seed, the flat's and each office track's captures; tools/eval_fleet.py runs them)
// beacon-eval [--flat-data DIR] [--office-data DIR] --fleet-check DIR: checks that those runs' readings and locate's lines are
//   exactly the process's (exit 1 naming the first difference)
// The research DIR defaults to $BEACON_RESEARCH_DATA, else ../shared/research-data/herald-edison-rssi-distance;
// the flat's to $BEACON_FLAT_DATA, else ../shared/research-data/kolakowski-flat-ble-rss; the office's tracks to
// $BEACON_OFFICE_DATA, else eval-data/danis-office-ble-tracks (in the tree).

let usage = "usage: beacon-eval [--research-data DIR] [--flat-data DIR] [--office-data DIR] [--out DIR] | beacon-eval [--flat-data DIR] [--office-data DIR] (--fleet | --fleet-prepare DIR | --fleet-check DIR)"
var researchDirectory = StandardStreams.environment()["BEACON_RESEARCH_DATA"]
    ?? "../shared/research-data/herald-edison-rssi-distance"
var flatDirectory = StandardStreams.environment()["BEACON_FLAT_DATA"] ?? "../shared/research-data/kolakowski-flat-ble-rss"
var officeDirectory = StandardStreams.environment()["BEACON_OFFICE_DATA"] ?? "eval-data/danis-office-ble-tracks"
var fleetOnly = false
var checkDirectory: String?
var prepareDirectory: String?
var outputDirectory = ".build/eval"
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
    switch argument {
    case "--research-data", "--flat-data", "--office-data", "--out", "--fleet-check", "--fleet-prepare":
        guard let value = arguments.popFirst() else { fail("\(argument) needs a value\n\(usage)", code: 64) }
        switch argument {
        case "--out": outputDirectory = value
        case "--flat-data": flatDirectory = value
        case "--office-data": officeDirectory = value
        case "--fleet-check": checkDirectory = value
        case "--fleet-prepare": prepareDirectory = value
        default: researchDirectory = value
        }
    case "--fleet":
        fleetOnly = true
    case "-h", "--help":
        print(usage)
        exit(0)
    default:
        fail("unknown argument '\(argument)'\n\(usage)", code: 64)
    }
}

func fail(_ message: String, code: Int32 = 1) -> Never {
    _ = StandardStreams.writeLine("beacon-eval: \(message)", to: STDERR_FILENO)
    exit(code)
}

/// The Kolakowski flat's robot drive, nil when its directory is absent.
func flatDrive(_ flatDirectory: String) -> RecordedDrive? {
    guard Directory.exists(flatDirectory) else { return nil }
    do {
        return try FlatDrive.parse(name: "test_robot_df", bytes: InputFile.read("\(flatDirectory)/test_robot_df.csv"))
    } catch {
        fail("\(error)", code: 65)
    }
}

/// The Kolakowski flat's calibration drive (`calibration_df.csv`: the same columns as the drive), nil when its
/// directory is absent.
func flatCalibrationDrive(_ flatDirectory: String) throws -> RecordedDrive? {
    guard Directory.exists(flatDirectory) else { return nil }
    return try FlatDrive.parse(name: "calibration_df", bytes: InputFile.read("\(flatDirectory)/calibration_df.csv"))
}

/// Surveys from the Kolakowski flat's calibration drive, nil when its directory is absent.
func flatSurvey(_ flatDirectory: String) -> FlatSurvey? {
    do {
        return try flatCalibrationDrive(flatDirectory).map(FlatSurvey.init(calibration:))
    } catch {
        fail("\(error)", code: 65)
    }
}

/// A real-data section whose directory is absent: a note saying how to give it.
func skippedSection(_ title: String, directory: String, what: String, option: String, variable: String) -> EvaluationSection {
    EvaluationSection(title: title, notes: ["\(directory) not found: \(what) skipped (give \(option) DIR or set \(variable))"])
}

/// The Kolakowski flat's robot drive through the room rules, or a note when its directory is absent.
func flatSection(_ flatDirectory: String) -> EvaluationSection {
    let title = "Fleet on real data: the Kolakowski flat's robot drive"
    guard let drive = flatDrive(flatDirectory) else {
        return skippedSection(title, directory: flatDirectory, what: "the flat's drive is", option: "--flat-data", variable: "BEACON_FLAT_DATA")
    }
    return EvaluationSection(title: title, datasets: [FleetEvaluation.evaluate(drive: drive, survey: flatSurvey(flatDirectory))], files: FleetEvaluation.plotFiles(drive: drive, name: FleetBrokerCheck.flatRun))
}

/// The Daniş office's tracks by name, and the readings their files hold that were left out; nil when their
/// directory is absent.
func officeTracks(_ officeDirectory: String) -> (drives: [(name: String, drive: RecordedDrive)], skipped: Int)? {
    guard Directory.exists(officeDirectory) else { return nil }
    do {
        let parsed = try OfficeTracks.names.map { name in
            (name: name, parsed: try OfficeTracks.parse(name: name, bytes: InputFile.read("\(officeDirectory)/\(OfficeTracks.fileName(name))")))
        }
        return (parsed.map { ($0.name, $0.parsed.drive) }, parsed.reduce(0) { $0 + $1.parsed.skipped })
    } catch {
        fail("\(error)", code: 65)
    }
}

/// The Daniş office's fingerprint sets as surveys, read as `beacon locate --survey` reads a file.
func officeSurveys(_ officeDirectory: String) -> [(name: String, points: [SurveyPoint])] {
    OfficeTracks.surveys.map { survey in
        let path = "\(officeDirectory)/\(survey.file)"
        do {
            return (survey.name, try SurveyFile.decode(InputFile.read(path)).points)
        } catch let error as SurveyError {
            fail(error.inFile(path), code: 65)
        } catch {
            fail("\(error)", code: 66)
        }
    }
}

/// The Daniş office's tracks through the room rules, or a note when their directory is absent.
func officeSection(_ officeDirectory: String) -> EvaluationSection {
    let title = "Fleet on real data: the Daniş office's tracks"
    guard let tracks = officeTracks(officeDirectory) else {
        return skippedSection(title, directory: officeDirectory, what: "the office's tracks are", option: "--office-data", variable: "BEACON_OFFICE_DATA")
    }
    let plotted = tracks.drives.first { $0.name == OfficeTracks.plotted }
    return EvaluationSection(title: title, datasets: [FleetEvaluation.evaluate(tracks: tracks.drives, skipped: tracks.skipped,
                                                                               surveys: officeSurveys(officeDirectory))],
                             files: plotted.map { FleetEvaluation.plotFiles(drive: $0.drive, name: FleetBrokerCheck.officeRun($0.name)) } ?? [])
}

/// Every fleet run of the broker path: the scenes', the flat's drive and the office's tracks (those whose data is there).
func brokerRuns(flatDirectory: String, officeDirectory: String) -> [FleetBrokerCheck.Run] {
    var runs = FleetBrokerCheck.sceneRuns
    if let drive = flatDrive(flatDirectory) { runs.append(FleetBrokerCheck.Run(name: FleetBrokerCheck.flatRun, source: .drive(drive))) }
    for track in officeTracks(officeDirectory)?.drives ?? [] {
        runs.append(FleetBrokerCheck.Run(name: FleetBrokerCheck.officeRun(track.name), source: .drive(track.drive)))
    }
    return runs
}

/// Writes each fleet run's scene (scene.json, seed), or a recorded drive's captures (captures/GATEWAY.btsnoop,
/// site.json), and in each run the --smoothing of locate's second run (smoothing).
func prepareFleetRuns(in directory: String, runs: [FleetBrokerCheck.Run]) throws {
    let smoothing = "\(FleetEvaluation.smoothing.value)us\n"
    for run in runs {
        let path = "\(directory)/\(run.name)"
        try Directory.makeWithParents(path)
        try EvalFiles.write(smoothing, to: "\(path)/smoothing")
        if run.calibrate { try EvalFiles.write("", to: "\(path)/calibrate") }
        switch run.source {
        case .scene(let scene, let seed):
            try EvalFiles.write(String(decoding: scene.json, as: UTF8.self), to: "\(path)/scene.json")
            try EvalFiles.write("\(seed)\n", to: "\(path)/seed")
        case .drive(let drive):
            let captures = "\(path)/captures"
            try Directory.makeWithParents(captures)
            try EvalFiles.write(String(decoding: drive.site.json, as: UTF8.self), to: "\(captures)/site.json")
            let writer = BtsnoopWriter(datalink: .h4)
            for gateway in drive.site.gateways.indices {
                var bytes = writer.header
                for packet in drive.packets(gateway: gateway) {
                    writer.appendRecord(packet.packet, direction: packet.direction, timestamp: packet.time, to: &bytes)
                }
                let file = try OutputFile(path: "\(captures)/\(drive.site.gateways[gateway].name).btsnoop")
                try file.append { $0 += bytes }
                try file.close()
            }
        }
    }
}

/// Checks every run in `directory` (tools/eval_fleet.py's; a run whose directory is absent is not one of
/// them): nil when all agree with the process, else why not.
func checkBrokerRuns(in directory: String, runs: [FleetBrokerCheck.Run]) throws -> (runs: Int, problem: String?) {
    let runs = runs.filter { Directory.exists("\(directory)/\($0.name)") }
    guard !runs.isEmpty else { return (0, "\(directory) holds no fleet run") }
    for run in runs {
        let path = "\(directory)/\(run.name)"
        func lines(_ name: String) throws -> [String] {
            String(decoding: try InputFile.read("\(path)/\(name)"), as: UTF8.self).split(separator: "\n").map(String.init)
        }
        if let problem = try FleetBrokerCheck.difference(run, readings: lines("readings.txt"), lines: lines("locate.jsonl"),
                                                         smoothedLines: lines("locate-smoothing.jsonl")) {
            return (runs.count, "\(run.name): \(problem)")
        }
    }
    return (runs.count, nil)
}

if let prepareDirectory {
    do {
        try prepareFleetRuns(in: prepareDirectory, runs: brokerRuns(flatDirectory: flatDirectory, officeDirectory: officeDirectory))
    } catch {
        fail("\(error)")
    }
    exit(0)
}

if let checkDirectory {
    do {
        let (runs, problem) = try checkBrokerRuns(in: checkDirectory, runs: brokerRuns(flatDirectory: flatDirectory, officeDirectory: officeDirectory))
        if let problem { fail("the broker path differs from the process: \(problem)") }
        print("The broker path (\(checkDirectory)): in all \(runs) runs, every readings message that crossed the broker "
              + "and every line beacon locate printed are the process's: the fleet tables are the broker path's.")
    } catch {
        fail("\(error)")
    }
    exit(0)
}

if fleetOnly {
    let real = [flatSection(flatDirectory), officeSection(officeDirectory)]
    do {
        print(([try FleetEvaluation.report()] + real.flatMap { ["#### \($0.title)"] + $0.notes + $0.datasets.map(ReportTable.render) })
            .joined(separator: "\n\n"))
    } catch {
        fail("a fleet scene cannot be simulated: \(error)")
    }
    exit(0)
}

func seconds(_ from: Micros, _ to: Micros) -> String {
    let tenths = (to.value - from.value + 50_000) / 100_000
    return "\(tenths / 10).\(tenths % 10) s"
}

let started = Clock.monotonic()
var sections: [EvaluationSection] = []
do {
    if Directory.exists(researchDirectory) {
        var files: [ResearchFile] = []
        for name in try Directory.names(in: researchDirectory, suffix: ".csv") {
            files.append(try ResearchFile.parse(name: String(name.dropLast(4)), bytes: InputFile.read("\(researchDirectory)/\(name)")))
        }
        sections.append(Evaluation.research(files))
        sections.append(Evaluation.siteFit(files, flatSurvey: try flatCalibrationDrive(flatDirectory)))
    } else {
        sections.append(EvaluationSection(title: "Real data", notes: [
            "\(researchDirectory) not found: the real data is skipped (give --research-data DIR or set BEACON_RESEARCH_DATA)"]))
    }
} catch {
    fail("\(error)")
}
let researchDone = Clock.monotonic()
do {
    sections.append(try Evaluation.scenes())
} catch {
    fail("a shipped scene cannot be simulated: \(error)")
}
do {
    sections.append(try Evaluation.fleet())
} catch {
    fail("a fleet scene cannot be simulated: \(error)")
}
sections.append(flatSection(flatDirectory))
sections.append(officeSection(officeDirectory))

print(Evaluation.report(sections))
do {
    try Directory.makeWithParents(outputDirectory)
    for (name, contents) in sections.flatMap(\.files) + [("results.csv", Evaluation.resultsCSV(sections))] {
        try EvalFiles.write(contents, to: "\(outputDirectory)/\(name)")
    }
} catch {
    fail("\(error)")
}
let finished = Clock.monotonic()
print("\nEval time: \(seconds(started, finished)) (real data \(seconds(started, researchDone)), "
      + "scenes \(seconds(researchDone, finished))); plot data in \(outputDirectory)/")
