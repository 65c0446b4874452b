import BeaconCore
import BeaconEvaluation
import BeaconTransport
import Glibc

// make eval: every model on the real measurements and every shipped scene, and the peers' room rules on
// the fleet scenario; prints the tables and writes the plot data. Usage:
// beacon-eval [--research-data DIR] [--flat-data DIR] [--out DIR] | beacon-eval [--flat-data DIR] --fleet (the fleet
// tables alone: make eval-fleet). The research DIR defaults to $BEACON_RESEARCH_DATA, else
// ../shared/research-data/herald-edison-rssi-distance; the flat's to $BEACON_FLAT_DATA, else
// ../shared/research-data/kolakowski-flat-ble-rss.

let usage = "usage: beacon-eval [--research-data DIR] [--flat-data DIR] [--out DIR] | beacon-eval [--flat-data DIR] --fleet"
var researchDirectory = StandardStreams.environment()["BEACON_RESEARCH_DATA"]
    ?? "../shared/research-data/herald-edison-rssi-distance"
var flatDirectory = StandardStreams.environment()["BEACON_FLAT_DATA"] ?? "../shared/research-data/kolakowski-flat-ble-rss"
var fleetOnly = false
var outputDirectory = ".build/eval"
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
    switch argument {
    case "--research-data", "--flat-data", "--out":
        guard let value = arguments.popFirst() else { fail("\(argument) needs a value\n\(usage)", code: 64) }
        switch argument {
        case "--out": outputDirectory = value
        case "--flat-data": flatDirectory = value
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

/// The Kolakowski flat's robot drive through the room rules, or a note when its directory is absent.
func flatSection(_ flatDirectory: String) -> EvaluationSection {
    let title = "Fleet on real data: the Kolakowski flat's robot drive"
    guard EvalFiles.isDirectory(flatDirectory) else {
        return EvaluationSection(title: title, notes: [
            "\(flatDirectory) not found: the flat's drive is skipped (give --flat-data DIR or set BEACON_FLAT_DATA)"])
    }
    do {
        let drive = try FlatDrive.parse(name: "test_robot_df", bytes: InputFile.read("\(flatDirectory)/test_robot_df.csv"))
        return EvaluationSection(title: title, datasets: [FleetEvaluation.evaluate(drive: drive)])
    } catch {
        fail("\(error)", code: 65)
    }
}

if fleetOnly {
    let flat = flatSection(flatDirectory)
    do {
        print(([try FleetEvaluation.report(), "#### \(flat.title)"] + flat.notes + flat.datasets.map(ReportTable.render)).joined(separator: "\n\n"))
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
    if EvalFiles.isDirectory(researchDirectory) {
        var files: [ResearchFile] = []
        for name in try EvalFiles.list(researchDirectory, suffix: ".csv") {
            files.append(try ResearchFile.parse(name: String(name.dropLast(4)), bytes: InputFile.read("\(researchDirectory)/\(name)")))
        }
        sections.append(Evaluation.research(files))
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

print(Evaluation.report(sections))
do {
    try EvalFiles.makeDirectories(outputDirectory)
    for (name, contents) in sections.flatMap(\.files) + [("results.csv", Evaluation.resultsCSV(sections))] {
        try EvalFiles.write(contents, to: "\(outputDirectory)/\(name)")
    }
} catch {
    fail("\(error)")
}
let finished = Clock.monotonic()
print("\nEval time: \(seconds(started, finished)) (real data \(seconds(started, researchDone)), "
      + "scenes \(seconds(researchDone, finished))); plot data in \(outputDirectory)/")
