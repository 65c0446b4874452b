import BeaconCore
import Foundation
import Testing

@Suite("beacon range --site-fit")
struct SiteFitOptionTests {
    /// Ranges 5 s of one beacon at -75 dBm (advertising -59 at 1 m) with `arguments`, a site-fit file holding `fit` beside the capture.
    func range(fit: String?, _ arguments: [String] = []) throws -> (exitCode: Int32, stdout: [String], stderr: [String]) {
        let directory = try TemporaryDirectory()
        let capture = directory.path("beacon.btsnoop")
        try Data(CalibrateCommandTests.capture(seconds: 5, rssi: -75)).write(to: URL(fileURLWithPath: capture))
        var siteFit: [String] = []
        if let fit {
            try Data(fit.utf8).write(to: URL(fileURLWithPath: directory.path("fit.jsonl")))
            siteFit = ["--site-fit", directory.path("fit.jsonl")]
        }
        let io = CapturedConsole()
        let code = io.run(["range", "--hci", "btsnoop:\(capture)", "--uuid", CalibrateCommandTests.uuid.description] + siteFit + arguments)
        return (code, io.stdout, io.stderr)
    }

    static func fitLine(exponent: Double, deviation: Double, weight: String = "1.0000") -> String {
        #"{"event":"fit","time":"2026-11-29T12:05:00.000Z","samples":3,"pathLossExponent":\#(exponent),"exponentDeviation":\#(deviation),"measuredPower":-62,"measuredPowerDeviation":2.94,"residual":0.40,"priorWeight":\#(weight),"flags":"--path-loss-exponent 2.66 --measured-power -62"}"#
    }

    /// The accuracy of each range line.
    func accuracies(_ lines: [String]) -> [String] {
        lines.compactMap { $0.firstMatch(of: /"accuracy":([0-9.]+)/).map { String($0.output.1) } }
    }

    @Test("a vague fit ranges as the room model; a tight one at a low exponent ranges farther; the measured power is the beacon's")
    func narrowsTheRoomModel() throws {
        let plain = try range(fit: nil)
        #expect(plain.exitCode == 0, "\(plain.stderr)")
        let vague = try range(fit: Self.fitLine(exponent: 1.2, deviation: 100))
        #expect(vague.exitCode == 0, "\(vague.stderr)")
        #expect(vague.stdout == plain.stdout)
        let tight = try range(fit: Self.fitLine(exponent: 1.2, deviation: 0.01))
        #expect(tight.exitCode == 0, "\(tight.stderr)")
        let (before, after) = (accuracies(plain.stdout).compactMap(Double.init), accuracies(tight.stdout).compactMap(Double.init))
        #expect(!before.isEmpty && before.count == after.count)
        #expect(zip(before, after).allSatisfy { $1 > $0 }, "\(before) → \(after)")
        // The user's own 1 m power is kept: 5 dB less attenuation than the advertised -59 gives, nearer.
        let measured = try range(fit: Self.fitLine(exponent: 1.2, deviation: 0.01), ["--measured-power", "-70"])
        let kept = accuracies(measured.stdout).compactMap(Double.init)
        #expect(kept.count == after.count && zip(after, kept).allSatisfy { $1 < $0 }, "\(after) → \(kept)")
    }

    @Test("a fit of prior weight 0 ranges as the room model, however tight")
    func weightZeroChangesNothing() throws {
        let plain = try range(fit: nil)
        let unweighed = try range(fit: Self.fitLine(exponent: 1.2, deviation: 0.01, weight: "0.0000"))
        #expect(plain.exitCode == 0 && unweighed.exitCode == 0, "\(unweighed.stderr)")
        #expect(!plain.stdout.isEmpty && unweighed.stdout == plain.stdout)
    }

    @Test("a file that cannot be read: one error line, exit 66")
    func missingFile() {
        let io = CapturedConsole()
        #expect(io.run(["range", "--hci", "btsnoop:/nonexistent.btsnoop", "--uuid", CalibrateCommandTests.uuid.description,
                        "--site-fit", "/nonexistent/fit.jsonl"]) == 66)
        #expect(io.stderr.count == 1 && io.stderr[0].hasPrefix("Error: cannot read the --site-fit file"), "\(io.stderr)")
    }

    @Test("a file without a usable fit: one error line naming the line and field, exit 65", arguments: [
        (#"{"event":"fit","pathLossExponent":2.5}"#, "line 1: exponentDeviation: missing"),
        (#"{"event":"fit","pathLossExponent":0.1,"exponentDeviation":0.3}"#, "line 1: pathLossExponent: 0.1 is outside 0.5...6.0"),
        ("not json", "line 1: not a JSON object"),
    ])
    func badFile(text: String, message: String) throws {
        let io = try range(fit: text)
        #expect(io.exitCode == 65 && io.stdout.isEmpty)
        #expect(io.stderr.count == 1 && io.stderr[0].hasPrefix("Error: --site-fit ") && io.stderr[0].contains(message), "\(io.stderr)")
    }

    @Test("--site-fit narrows the room model: with another distance model it is a usage error", arguments: [
        ["--path-loss-exponent", "2"], ["--distance-model", "altbeacon"],
    ])
    func conflicts(arguments: [String]) {
        let io = CapturedConsole()
        #expect(io.run(["range", "--uuid", CalibrateCommandTests.uuid.description, "--site-fit", "fit.jsonl"] + arguments) == 64)
        #expect(io.stderr.first?.contains("'--site-fit' narrows the room model; it cannot be combined with") == true, "\(io.stderr)")
    }
}
