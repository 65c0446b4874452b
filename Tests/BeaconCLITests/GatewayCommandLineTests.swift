@testable import BeaconCLI
import BeaconCore
import Testing

@Suite("version, suggestions, exit codes per command, BEACON_HCI, MQTT options")
struct GatewayCommandLineTests {
    @Test("-V, --version and version print the version alone", arguments: [["-V"], ["--version"], ["version"]])
    func version(arguments: [String]) {
        let io = CapturedConsole()
        #expect(io.run(arguments) == 0)
        #expect(io.stdout == [BeaconVersion.number])
        #expect(io.stderr.isEmpty)
    }

    @Test("version takes no options")
    func versionUsage() {
        let io = CapturedConsole()
        #expect(io.run(["version", "--short"]) == 64)
        #expect(io.stderr.first == "Error: Unknown option '--short'")
    }

    @Test("a mistyped subcommand or option suggests the nearest valid one", arguments: [
        (["rnage"], "Error: Unknown subcommand 'rnage'. Did you mean 'range'?"),
        (["advertize"], "Error: Unknown subcommand 'advertize'. Did you mean 'advertise'?"),
        (["help", "simulat"], "Error: Unknown subcommand 'simulat'. Did you mean 'simulate'?"),
        (["range", "--uiud", "x"], "Error: Unknown option '--uiud'. Did you mean '--uuid'?"),
        (["range", "--dur", "3"], "Error: Unknown option '--dur'. Did you mean '--duration'?"),
        (["advertise", "--exit-after", "3"], "Error: Unknown option '--exit-after'"),
        (["sacn"], "Error: Unknown subcommand 'sacn'. Did you mean 'scan'?"),
        (["monitor"], "Error: Unknown subcommand 'monitor'"),
    ])
    func suggestions(arguments: [String], error: String) {
        let io = CapturedConsole()
        #expect(io.run(arguments) == 64)
        #expect(io.stderr.first == error)
    }

    @Test("a mistyped value of an option with a fixed set of values suggests the nearest one", arguments: [
        (["simulate", "--scene", "dsk", "--out", "x"],
         "Error: Unknown scene 'dsk': the built-in scenes are \(SimulateOptions.sceneNames) (a scene file needs a path with a '/' or a name ending in .json). Did you mean 'desk'?"),
        (["range", "--uuid", "E2C56DB5-DFFB-48D2-B060-D0F5A71096E0", "--rssi-filter", "kalmann"],
         "Error: Invalid value 'kalmann' for '--rssi-filter <filter>': expected one of \(RSSIFilterKind.forms). Did you mean 'kalman'?"),
        (["range", "--uuid", "E2C56DB5-DFFB-48D2-B060-D0F5A71096E0", "--rssi-filter", "medain:5s"],
         "Error: Invalid value 'medain:5s' for '--rssi-filter <filter>': expected one of \(RSSIFilterKind.forms). Did you mean 'median'?"),
        (["range", "--uuid", "E2C56DB5-DFFB-48D2-B060-D0F5A71096E0", "--distance-model", "altbecon"],
         "Error: Invalid value 'altbecon' for '--distance-model <model>': expected one of \(DistanceModel.forms). Did you mean 'altbeacon'?"),
        (["scan", "--format", "ibeaconn"],
         "Error: Invalid value 'ibeaconn' for '--format <format>': expected one of \(ScanOptions.formatWords.joined(separator: ", ")). Did you mean 'ibeacon'?"),
        (["advertise", "--hci", "hci0", "--format", "altbaecon"],
         "Error: Invalid value 'altbaecon' for '--format <format>': expected ibeacon, altbeacon, eddystone-uid, eddystone-url. Did you mean 'altbeacon'?"),
        (["simulate", "--scene", "desk", "--out", "x", "--reports", "legasy"],
         "Error: Invalid value 'legasy' for '--reports <kind>': expected legacy, extended or mixed. Did you mean 'legacy'?"),
        (["scan", "--format", "zigbee"],
         "Error: Invalid value 'zigbee' for '--format <format>': expected one of \(ScanOptions.formatWords.joined(separator: ", "))"),
    ])
    func valueSuggestions(arguments: [String], error: String) {
        let io = CapturedConsole()
        #expect(io.run(arguments) == 64)
        #expect(io.stderr.first == error)
    }

    @Test("a count says 1 line, not 1 lines", arguments: [(0, "0 lines"), (1, "1 line"), (2, "2 lines")])
    func counts(count: Int, text: String) {
        #expect(count.counted("line") == text)
        #expect(1.counted("readings message") == "1 readings message")
    }

    @Test("the nearest word: abbreviations, one typo in short words, two in long ones")
    func nearest() {
        #expect(NearestMatch.suggestion(for: "devcies", among: ["devices", "range"]) == "devices")
        #expect(NearestMatch.suggestion(for: "rang", among: ["devices", "range"]) == "range")
        #expect(NearestMatch.suggestion(for: "xyz", among: ["devices", "range"]) == nil)
        #expect(NearestMatch.suggestion(for: "--m", among: ["--major", "--minor"]) == nil)
        #expect(NearestMatch.editDistance(Array("ab"), Array("ba")) == 1)
    }

    @Test("each command's help lists only the exit codes it can produce")
    func exitCodes() {
        let expected: [String: [Int32]] = [
            // 73 only where an output file is created (--record, simulate's outputs); 65 and 66 only where a file is read.
            "range": [0, 64, 65, 66, 69, 70, 73, 74, 75, 76, 77], "advertise": [0, 64, 69, 70, 73, 74, 75, 76, 77],
            "calibrate": [0, 64, 65, 66, 69, 70, 73, 74, 75, 76, 77], "devices": [0, 64, 69, 70, 74, 77],
            "simulate": [0, 64, 65, 66, 70, 73, 74], "version": [0, 64, 74],
        ]
        for (command, codes) in expected {
            let io = CapturedConsole()
            #expect(io.run([command, "--help"]) == 0)
            let text = io.stdout.joined(separator: "\n")
            let listed = text.split(separator: "\n").drop { $0 != "EXIT CODES:" }.dropFirst()
                .compactMap { Int32($0.split(separator: " ").first ?? "") }
            #expect(listed == codes, "\(command)")
        }
    }

    @Test("help points at no repository file an install does not carry")
    func helpFitsAnInstall() {
        for subcommand in BeaconTool.subcommands {
            let text = subcommand.help.render()
            #expect(!text.contains("docs/") && !text.contains("README") && !text.contains(".md"), "\(subcommand.help.name)")
        }
        #expect(!BeaconTool.overview.contains("docs/"))
    }

    @Test("an invalid or failing controller from BEACON_HCI names the variable")
    func hciEnvironment() {
        let bad = CapturedConsole()
        #expect(bad.run(["range", "--uuid", appleUUID], environment: ["BEACON_HCI": "bogus"]) == 64)
        #expect(bad.stderr.first?.hasPrefix("Error: Invalid controller 'bogus' (from BEACON_HCI=bogus): ") == true, "\(bad.stderr)")
        let missing = CapturedConsole()
        #expect(missing.run(["range", "--uuid", appleUUID], environment: ["BEACON_HCI": "btsnoop:/nonexistent/x.btsnoop"]) == 66)
        #expect(missing.stderr.first?.hasSuffix("(controller from BEACON_HCI=btsnoop:/nonexistent/x.btsnoop)") == true, "\(missing.stderr)")
        let given = CapturedConsole()
        #expect(given.run(["range", "--uuid", appleUUID, "--hci", "btsnoop:/nonexistent/x.btsnoop"], environment: ["BEACON_HCI": "hci0"]) == 66)
        #expect(given.stderr.first?.contains("BEACON_HCI") == false, "--hci wins, and the message says nothing of the variable")
    }

    @Test("MQTT options: usage errors", arguments: [
        (["--room", "hall"], "'--room' needs '--mqtt'"),
        (["--mqtt", "http://h"], "Invalid value for '--mqtt <url>': 'http://h' does not start with mqtt://"),
        (["--mqtt", "mqtt://h", "--mqtt-ca", "/x.pem"], "'--mqtt-ca' applies only to an mqtts:// broker"),
        (["--mqtt", "mqtts://h", "--mqtt-ca", "/nonexistent/ca.pem"],
         "Cannot read '--mqtt-ca <file>' /nonexistent/ca.pem: No such file or directory"),
        (["--mqtt", "mqtt://h", "--room", "a/b"], "Invalid value 'a/b' for '--room <room>'"),
        (["--mqtt", "mqtt://h:1883:1883"], "host 'h:1883' has a ':'"),
        (["--mqtt", "mqtt://u%00@h"], "the user name has the control character U+0000"),
        (["--mqtt", "mqtt://h/a\u{1}b"], "the topic prefix has the control character U+0001"),
        (["--mqtt", "mqtt://h/" + String(repeating: "p", count: 65_536)], "the topic prefix is 65536 bytes"),
        (["--mqtt", "mqtt://h", "--name", "a" + String(Unicode.Scalar(0xFFFE)!) + "=" + appleUUID], "noncharacters"),
        (["--mqtt", "mqtt://h", "--name", "a" + String(Unicode.Scalar(0xFDD0)!) + "=" + appleUUID], "noncharacters"),
        (["--mqtt", "mqtt://h", "--room", "a" + String(Unicode.Scalar(0xFFFF)!)], "Invalid value"),
    ])
    func mqttUsage(arguments: [String], fragment: String) {
        let io = CapturedConsole()
        #expect(io.run(["range", "--uuid", appleUUID] + arguments) == 64)
        #expect(io.stderr.first?.contains(fragment) == true, "\(io.stderr)")
    }

    @Test("--advertise-self needs --gateway and an iBeacon region", arguments: [
        (["range", "--uuid", "E2C56DB5-DFFB-48D2-B060-D0F5A71096E0", "--advertise-self"],
         "Error: '--advertise-self' needs '--gateway <name>' (and '--mqtt')"),
        (["range", "--region", "altbeacon:E2C56DB5-DFFB-48D2-B060-D0F5A71096E0", "--mqtt", "mqtt://127.0.0.1/site", "--gateway", "gw1", "--advertise-self"],
         "Error: '--advertise-self' needs an iBeacon region ('--uuid'): the gateway's beacon advertises its UUID"),
    ])
    func advertiseSelfUsage(arguments: [String], error: String) {
        let io = CapturedConsole()
        #expect(io.run(arguments) == 64)
        #expect(io.stderr.first == error)
    }
}
