@testable import BeaconCLI
import BeaconCore
import Foundation
import Testing

@Suite("beacon locate --survey: the file read before the broker")
struct LocateSurveyTests {
    func write(_ text: String, to path: String) throws {
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    }

    @Test("a survey file that is not a survey is exit 65 naming the line, column and member; one that cannot be read exit 66")
    func badSurveyFiles() throws {
        let directory = try TemporaryDirectory()
        let site = directory.path("site.json")
        try write(SimulateSiteTests.site, to: site)
        let bad = directory.path("bad.jsonl")
        try write(#"{"x":1,"y":1,"gateway":"near","rssi":-60,"samples":3}"# + "\n" + #"{"x":1,"y":1,"gateway":"near","rssi":-60,"samples":-3}"#, to: bad)
        let io = CapturedConsole()
        #expect(io.run(["locate", "--mqtt", "mqtt://127.0.0.1:1/site", "--site", site, "--survey", bad]) == 65)
        #expect(io.stderr == ["Error: \(bad):2:42: samples: expected a whole number from 0 to 1000000000, found -3.0"])
        let missing = CapturedConsole()
        #expect(missing.run(["locate", "--mqtt", "mqtt://127.0.0.1:1/site", "--site", site, "--survey", directory.path("none.jsonl")]) == 66)
        #expect(missing.stderr == ["Error: cannot read the --survey file: open(\(directory.path("none.jsonl"))): No such file or directory"])
    }

    @Test("what the map cannot use or finds odd is a warning each, said before the run")
    func surveyWarnings() throws {
        let site = try Site.decode(Array(SimulateSiteTests.site.utf8))
        let directory = try TemporaryDirectory()
        let survey = directory.path("survey.jsonl")
        try write([#"{"x":2,"y":2,"gateway":"near","rssi":-50,"samples":30,"spred":1}"#,
                   #"{"x":2.1,"y":2,"gateway":"near","rssi":-52,"samples":30}"#,
                   #"{"x":2,"y":2.1,"gateway":"near","rssi":-85,"samples":30}"#,
                   #"{"x":2,"y":2,"gateway":"attic","rssi":-70,"samples":30}"#].joined(separator: "\n"), to: survey)
        let io = CapturedConsole()
        let map = try SurveyFileInput.radioMap(survey, site: site, model: SignalModel(), console: io.console)
        #expect(map.heard == 3 && map.contradictions.count == 1)
        #expect(io.stderr == [
            "Warning: \(survey): ignored members it does not know: \"spred\" (1 line from line 1, did you mean 'spread'?)",
            "Warning: \(survey): 1 point of 1 gateway the site does not have ('attic'); ignored",
            "Warning: \(survey): the survey contradicts itself at 1 point: for example 'near' heard -85.0 dBm at (2.0, 2.1) where the points "
                + "in its 0.5 m square heard -52.0 dBm (median); the map takes the median of such neighbours",
        ])
    }
}
