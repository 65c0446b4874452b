@testable import BeaconCLI
import BeaconCore
import Foundation
import Testing

/// `--speed`: a replay paced by the capture's own times prints what a replay at full speed prints.
@Suite struct ReplaySpeedTests {
    @Test("range and scan print the same lines at --speed 200 as at full speed", arguments: [
        ["scan"],
        ["scan", "--each"],
        ["range", "--region", "altbeacon:2F234454-CF6D-4A0F-ADF2-F4911BA9FFA6", "--uuid", "E2C56DB5-DFFB-48D2-B060-D0F5A71096E0"],
    ])
    func sameLines(command: [String]) throws {
        let directory = try TemporaryDirectory()
        let path = try ScanReplayTests.write(seconds: 2, in: directory)
        let full = CapturedConsole()
        #expect(full.run(command + ["--hci", "btsnoop:\(path)"]) == 0)
        let paced = CapturedConsole()
        #expect(paced.run(command + ["--hci", "btsnoop:\(path)", "--speed", "200"]) == 0)
        #expect(!full.stdout.isEmpty)
        #expect(paced.stdout == full.stdout)
        #expect(paced.stderr == full.stderr)
    }

    @Test("--speed is a usage error with a live controller or a value out of range", arguments: [
        (["range", "--uuid", "E2C56DB5-DFFB-48D2-B060-D0F5A71096E0", "--hci", "hci0", "--speed", "1"],
         "'--speed' paces the replay of a btsnoop: capture; a live controller runs in real time"),
        (["scan", "--hci", "tcp:127.0.0.1:1", "--speed", "10"],
         "'--speed' paces the replay of a btsnoop: capture; a live controller runs in real time"),
        (["scan", "--hci", "btsnoop:x", "--speed", "0"],
         "Invalid value '0' for '--speed <multiplier>': expected a number in 0.001...1000000 such as 1 (real time) or 10"),
        (["scan", "--hci", "btsnoop:x", "--speed", "fast"],
         "Invalid value 'fast' for '--speed <multiplier>': expected a number in 0.001...1000000 such as 1 (real time) or 10"),
    ])
    func usageErrors(arguments: [String], message: String) {
        let io = CapturedConsole()
        #expect(io.run(arguments) == 64)
        #expect(io.stderr.first == "Error: \(message)")
    }

    @Test("advertise and calibrate take no --speed")
    func otherCommands() {
        #expect(!AdvertiseOptions.help.options.contains { $0.name == "speed" })
        #expect(!CalibrateOptions.help.options.contains { $0.name == "speed" })
    }
}
