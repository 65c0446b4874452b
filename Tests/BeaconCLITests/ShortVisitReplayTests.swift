import BeaconCore
import BeaconSimulation
import Foundation
import Testing

/// A visit shorter than `--interval`, and scan responses, replayed end to end from a capture.
@Suite struct ShortVisitReplayTests {
    static let uuid = BadCaptureTests.uuid
    static let start = BadCaptureTests.start

    /// A beacon every 100 ms from 0.1 s through 30 s, and another device every second from 0 to 45 s.
    static func shortVisit() -> [UInt8] {
        let writer = BtsnoopWriter(datalink: .h4)
        var out = writer.header
        var records: [(Int64, HCIPacket)] = (1...300).map { n in
            (Int64(n) * 100, SimulatedAir.extendedReport(SimulatedAir.beacon(0, uuid: uuid), rssi: -60))
        }
        records += (0...45).map { s in (Int64(s) * 1_000 + 50, SimulatedAir.otherAdvertisement(address: DeviceAddress(value: 0xD0_01), rssi: -80)) }
        for (ms, packet) in records.sorted(by: { $0.0 < $1.0 }) {
            writer.appendRecord(packet, direction: .received, timestamp: start + Micros.milliseconds(ms), to: &out)
        }
        return out
    }

    static func replay(_ bytes: [UInt8], _ arguments: [String]) throws -> CapturedConsole {
        let directory = try TemporaryDirectory()
        let path = directory.path("capture.btsnoop")
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let io = CapturedConsole()
        #expect(io.run([arguments[0], "--hci", "btsnoop:\(path)"] + arguments.dropFirst()) == 0, "\(io.stderr)")
        return io
    }

    @Test("heard 0.1–30 s with --interval 60s and --exit-after 10s: a partial range line of the 300 advertisements at 40 s, then the exit")
    func shortVisitIsRangedBeforeItsExit() throws {
        let io = try Self.replay(Self.shortVisit(), ["range", "--uuid", Self.uuid.description, "--interval", "60s", "--exit-after", "10s"])
        let lines = try ScanReplayTests.lines(io.stdout)
        #expect(lines.map { $0["event"] as? String } == ["state", "enter", "state", "range", "exit", "state"], "\(io.stdout)")
        let exitTime = try #require(lines[4]["time"] as? String)
        #expect(TimestampText.parse(exitTime) == Self.start + Micros.seconds(40))
        #expect(lines[3]["time"] as? String == exitTime && lines[3]["partial"] as? Bool == true)
        let beacons = try #require(lines[3]["beacons"] as? [[String: Any]])
        #expect(beacons.count == 1 && beacons.first?["samples"] as? Int == 300)
        #expect(TimestampText.parse(beacons.first?["lastSeen"] as? String ?? "") == Self.start + Micros.seconds(30))
    }

    @Test("scan --each --active marks the scan response, and only it, with scanResponse")
    func eachMarksScanResponses() throws {
        let io = try Self.replay(CalibrateCommandTests.phoneCapture(events: 2, rotateAfter: 2, responseEvery: 2),
                                 ["scan", "--each", "--active"])
        let lines = try ScanReplayTests.lines(io.stdout)
        #expect(lines.map { $0["rssi"] as? Int } == [-62, -90, -62])
        #expect(lines.map { $0["scanResponse"] as? Bool } == [nil, true, nil])
    }

    @Test("range --ignore-address lists a phone that changes its random address once per tick; by default both addresses")
    func ignoreAddress() throws {
        let capture = CalibrateCommandTests.phoneCapture(events: 30, rotateAfter: 15, responseEvery: 100)
        func counts(_ options: [String]) throws -> [Int] {
            let io = try Self.replay(capture, ["range", "--uuid", Self.uuid.description] + options)
            return try ScanReplayTests.lines(io.stdout).compactMap { ($0["beacons"] as? [[String: Any]])?.count }
        }
        // Ticks at 1 and 2 s, then the capture's last part (2.0–2.9 s); the address changes at 1.5 s.
        #expect(try counts([]) == [1, 2, 1])
        #expect(try counts(["--ignore-address"]) == [1, 1, 1])
    }
}
