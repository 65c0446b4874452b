import BeaconCore
import BeaconSimulation
import Foundation
import Testing

@Suite("beacon calibrate")
struct CalibrateCommandTests {
    static let uuid = BadCaptureTests.uuid

    /// `seconds` of beacons advertising every 100 ms, RSSI cycling around `rssi` by ±1 dB.
    static func capture(seconds: Int, rssi: Int8 = -62, beacons: Int = 1) -> [UInt8] {
        let writer = BtsnoopWriter(datalink: .h4)
        var out = writer.header
        for n in 0..<(seconds * 10) {
            for b in 0..<beacons {
                let time = BadCaptureTests.start + Micros.milliseconds(Int64(n) * 100 + Int64(b))
                writer.appendRecord(SimulatedAir.extendedReport(SimulatedAir.beacon(b, uuid: uuid), rssi: rssi + Int8(n % 3 - 1)),
                                    direction: .received, timestamp: time, to: &out)
            }
        }
        return out
    }

    func replay(_ bytes: [UInt8], _ arguments: [String]) throws -> (exitCode: Int32, stdout: [String], stderr: [String]) {
        let directory = try TemporaryDirectory()
        let path = directory.path("calibration.btsnoop")
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let io = CapturedConsole()
        let code = io.run(["calibrate", "--hci", "btsnoop:\(path)", "--uuid", Self.uuid.description] + arguments)
        return (code, io.stdout, io.stderr)
    }

    @Test("a beacon held at 1 m: the median RSSI is the measured power to configure")
    func measuresAtOneMetre() throws {
        let io = try replay(Self.capture(seconds: 40), [])
        #expect(io.exitCode == 0, "\(io.stderr)")
        #expect(io.stdout.count == 1)
        let line = io.stdout.first ?? ""
        #expect(line.contains(#""distance":1.00,"#) && line.contains(#""rssi":-62.0,"#) && line.contains(#""spread":2.00,"#), "\(line)")
        #expect(line.contains(#""measuredPower":-62,"flags":"--measured-power -62"}"#), "\(line)")
        // 30 s by default, from the first report: 300 readings, not the capture's 400.
        #expect(line.contains(#""samples":301,"#) || line.contains(#""samples":300,"#), "\(line)")
    }

    @Test("too short a measurement, several matching beacons, or none: an Error line and exit 65")
    func refusals() throws {
        let short = try replay(Self.capture(seconds: 1), [])
        #expect(short.exitCode == 65 && short.stdout.isEmpty)
        #expect(short.stderr.last?.contains("at least 20 are needed") == true, "\(short.stderr)")
        let two = try replay(Self.capture(seconds: 5, beacons: 2), [])
        #expect(two.exitCode == 65 && two.stderr.last?.contains("2 beacons match") == true, "\(two.stderr)")
        let none = try replay(Self.capture(seconds: 5), ["--major", "9"])
        #expect(none.exitCode == 65 && none.stderr.last?.contains("no beacon matching") == true, "\(none.stderr)")
    }

    /// `events` scannable advertisements 100 ms apart from one phone whose random address changes after
    /// `rotateAfter` of them; every `responseEvery`-th is answered by a scan response carrying the iBeacon again.
    static func phoneCapture(events: Int, rotateAfter: Int, responseEvery: Int) -> [UInt8] {
        let writer = BtsnoopWriter(datalink: .h4)
        var out = writer.header
        let data = SimulatedAir.beacon(0, uuid: uuid).beacon.advertisingData
        for n in 0..<events {
            let address = DeviceAddress(value: n < rotateAfter ? 0x4A_00_00_00_00_01 : 0x5B_00_00_00_00_02)
            let time = BadCaptureTests.start + Micros.milliseconds(Int64(n) * 100)
            writer.appendRecord(SimulatedAir.report(.scannable, data: data, address: address, addressType: .randomDevice, rssi: -62, extended: true),
                                direction: .received, timestamp: time, to: &out)
            if n % responseEvery == 0 {
                writer.appendRecord(SimulatedAir.report(.scanResponse, data: data, address: address, addressType: .randomDevice, rssi: -90, extended: true),
                                    direction: .received, timestamp: time + Micros(500), to: &out)
            }
        }
        return out
    }

    @Test("a phone that answers scan requests and rotates its address mid-measurement: one reading per advertisement, one beacon")
    func phoneWithScanResponsesAndRotation() throws {
        // 288 advertisements and 29 scan responses in 28.8 s, the address changing half way.
        let io = try replay(Self.phoneCapture(events: 288, rotateAfter: 144, responseEvery: 10), ["--active"])
        #expect(io.exitCode == 0, "\(io.stderr)")
        let line = io.stdout.first ?? ""
        #expect(line.contains(#""address":"5B:00:00:00:00:02","distance":1.00,"samples":288,"rssi":-62.0,"spread":0.00,"#), "\(line)")
    }

    @Test("19 advertisements with a scan response each are 19 readings, not 38: too few")
    func scanResponsesDoNotMakeUpTheMinimum() throws {
        let io = try replay(Self.phoneCapture(events: 19, rotateAfter: 19, responseEvery: 1), ["--active"])
        #expect(io.exitCode == 65 && io.stdout.isEmpty)
        #expect(io.stderr.last?.contains("only 19 readings with an RSSI; at least 20 are needed") == true, "\(io.stderr)")
    }

    @Test("samples at several distances fit the path-loss exponent and print the flags")
    func fits() {
        let io = CapturedConsole()
        #expect(io.run(["calibrate", "--sample", "1=-60", "--sample", "2=-68", "--sample", "4=-76"]) == 0, "\(io.stderr)")
        let line = io.stdout.first ?? ""
        // 8 dB per doubling: n = 8 / (10 log10 2) = 2.66
        #expect(line.contains(#""pathLossExponent":2.66,"exponentDeviation":1.99,"measuredPower":-60,"measuredPowerDeviation":4.47,"#), "\(line)")
        // Three points on one line: each left out is ranged best with the fit of the other two at full weight.
        #expect(line.hasSuffix(#""residual":0.00,"priorWeight":1.0000,"flags":"--path-loss-exponent 2.66 --measured-power -60"}"#), "\(line)")
    }

    @Test("a fitted exponent below 1.5, as high-mounted receivers show, is printed with a warning saying what it usually means")
    func lowExponentIsWarnedAbout() {
        let io = CapturedConsole()
        // 3 dB per doubling: n = 3 / (10 log10 2) = 1.00
        #expect(io.run(["calibrate", "--sample", "1=-60", "--sample", "2=-63", "--sample", "4=-66"]) == 0, "\(io.stderr)")
        #expect(io.stdout.first?.hasSuffix(#""flags":"--path-loss-exponent 1.00 --measured-power -60"}"#) == true, "\(io.stdout)")
        #expect(io.stderr == ["Warning: the fitted path-loss exponent 1 is below 1.5: usual for a receiver mounted high or a corridor that guides the signal; elsewhere check the distances and that nothing stood in the way at the far ones"])
    }

    @Test("bad calibrate arguments: Error line, Usage line, exit 64", arguments: [
        (["--sample", "1"], "Invalid value '1' for '--sample <metres=rssi>'"),
        (["--sample", "1=-60", "--uuid", "E2C56DB5-DFFB-48D2-B060-D0F5A71096E0"], "cannot be combined with '--uuid'"),
        ([], "Missing expected argument '--uuid <uuid>' (or '--sample' to fit)"),
        (["--uuid", "E2C56DB5-DFFB-48D2-B060-D0F5A71096E0", "--distance", "0"], "Invalid value '0' for '--distance <metres>'"),
    ])
    func usageErrors(arguments: [String], fragment: String) {
        let io = CapturedConsole()
        #expect(io.run(["calibrate"] + arguments) == 64)
        #expect(io.stderr.first?.contains(fragment) == true, "\(io.stderr)")
        #expect(io.stderr.last?.hasPrefix("Usage: beacon calibrate") == true)
    }

    @Test("samples too close together cannot be fitted: exit 65")
    func unfittable() {
        let io = CapturedConsole()
        #expect(io.run(["calibrate", "--sample", "1=-60", "--sample", "1.2=-61"]) == 65)
        #expect(io.stderr.first?.hasPrefix("Error: cannot fit:") == true, "\(io.stderr)")
    }

    /// Each fitted RSSI at 1 m rounds to a --measured-power outside what beacon range accepts (-100...-1):
    /// 122, -169 and 0 dBm, from samples within --sample's -127...20 dBm.
    @Test("a fit whose 1 m power beacon range would refuse is refused: exit 65, naming the power and the range", arguments: [
        (["50=20", "100=2"], "122"),
        (["0.1=-109", "0.2=-127"], "-169"),
        (["1=-0.3", "2=-6.3"], "0"),
    ])
    func fitsOutsideTheMeasuredPowerRange(samples: [String], power: String) {
        let io = CapturedConsole()
        #expect(io.run(["calibrate"] + samples.flatMap { ["--sample", $0] }) == 65)
        #expect(io.stdout.isEmpty, "\(io.stdout)")
        #expect(io.stderr.count == 1, "\(io.stderr)")
        #expect(io.stderr.first?.hasPrefix("Error: cannot fit: the fitted RSSI at 1 m gives --measured-power \(power), outside -100...-1") == true,
                "\(io.stderr)")
    }

    /// Readings of 18, 19 and 20 dBm (20 is the highest RSSI HCI reports).
    @Test("a beacon read at +19 dBm at 1 m gives no --measured-power beacon range would refuse: exit 65")
    func measurementOutsideTheMeasuredPowerRange() throws {
        let io = try replay(Self.capture(seconds: 40, rssi: 19), [])
        #expect(io.exitCode == 65, "\(io.stderr)")
        #expect(io.stdout.isEmpty, "\(io.stdout)")
        #expect(io.stderr.last?.contains("the median RSSI at 1 m gives --measured-power 19, outside -100...-1") == true, "\(io.stderr)")
    }

    @Test("--measured-power accepts exactly the range calibrate checks its 1 m power against")
    func measuredPowerOptionBounds() {
        let range = RangingEstimator.plausibleMeasuredPower
        for (value, accepted) in [(range.lowerBound, true), (range.upperBound, true), (range.lowerBound - 1, false), (range.upperBound + 1, false)] {
            let io = CapturedConsole()
            let code = io.run(["range", "--hci", "btsnoop:/nonexistent", "--uuid", Self.uuid.description, "--measured-power", "\(value)"])
            #expect((code != 64) == accepted, "\(value): \(io.stderr)")
        }
    }
}
