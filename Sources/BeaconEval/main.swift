import BeaconCore
import BeaconEvaluation
import BeaconTransport
import Glibc

// make eval: every model on the real measurements and every shipped scene, and the peers' room rules on
// the fleet scenario; prints the tables and writes the plot data. Usage:
// beacon-eval [--research-data DIR] [--out DIR] | beacon-eval --fleet (the fleet table alone: make eval-fleet).
// DIR defaults to $BEACON_RESEARCH_DATA, else ../shared/research-data/herald-edison-rssi-distance.

let usage = "usage: beacon-eval [--research-data DIR] [--out DIR] | beacon-eval --fleet"
var researchDirectory = StandardStreams.environment()["BEACON_RESEARCH_DATA"]
    ?? "../shared/research-data/herald-edison-rssi-distance"
var outputDirectory = ".build/eval"
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
    switch argument {
    case "--research-data", "--out":
        guard let value = arguments.popFirst() else { fail("\(argument) needs a value\n\(usage)", code: 64) }
        if argument == "--out" { outputDirectory = value } else { researchDirectory = value }
    case "--fleet":
        print(FleetEvaluation.report())
        exit(0)
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
sections.append(Evaluation.fleet())

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
