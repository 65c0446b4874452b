import BeaconCore
import BeaconSimulation
import Foundation
import Testing

/// `beacon scan` and `beacon range` over a replayed capture of every format with noise.
@Suite struct ScanReplayTests {
    static func lines(_ out: [String]) throws -> [[String: Any]] {
        try out.map { try #require(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
    }

    static func write(seconds: Int, in directory: TemporaryDirectory) throws -> String {
        let path = directory.path("mixed.btsnoop")
        try Data(MixedFormatsCapture.capture(seconds: seconds)).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test("every beacon exactly once per interval, with the right identity; noise and malformed frames are no beacons")
    func everyBeaconOncePerInterval() throws {
        let directory = try TemporaryDirectory()
        let path = try Self.write(seconds: 5, in: directory)
        let io = CapturedConsole()
        #expect(io.run(["scan", "--hci", "btsnoop:\(path)"]) == 0)
        let lines = try Self.lines(io.stdout)
        let whole = lines.filter { $0["partial"] == nil }
        // The last slot's advertisements (4.9 s) fall in the last, partial interval.
        let times = Set(whole.map { $0["time"] as! String })
        #expect(times.count == 4)
        for time in times {
            let interval = whole.filter { $0["time"] as! String == time }
            #expect(interval.map { $0["format"] as! String } == ["ibeacon", "altbeacon", "eddystone-uid", "eddystone-url", "eddystone-eid"])
        }
        let first = lines.prefix(5)
        #expect(first[0]["uuid"] as? String == "E2C56DB5-DFFB-48D2-B060-D0F5A71096E0")
        #expect(first[0]["major"] as? Int == 1 && first[0]["minor"] as? Int == 2 && first[0]["samples"] as? Int == 10)
        #expect(first[1]["id1"] as? String == "2F234454-CF6D-4A0F-ADF2-F4911BA9FFA6")
        #expect(first[1]["companyId"] as? Int == 0x0118 && first[1]["measuredPower"] as? Int == -59)
        #expect(first[2]["namespace"] as? String == "00010203040506070809" && first[2]["instance"] as? String == "0A0B0C0D0E0F")
        #expect(first[2]["txPowerAt0m"] as? Int == -20 && first[2]["measuredPower"] as? Int == -61)
        // Three of ten frames from the Eddystone beacon's address were TLM: they ride on its UID line.
        #expect(first[2]["samples"] as? Int == 7)
        let telemetry = try #require(first[2]["telemetry"] as? [String: Any])
        #expect(telemetry["batteryMillivolts"] as? Int == 3000 && telemetry["temperature"] as? Double == 24.5)
        #expect(first[3]["url"] as? String == "https://goo.gl/a")
        #expect(first[4]["eid"] as? String == "0123456789ABCDEF")
        #expect(io.stderr.isEmpty)
        // The partial interval lists what the last slot heard.
        #expect(lines.filter { $0["partial"] as? Bool == true }.count == 5)
    }

    @Test("filters: format, RSSI floor, UUID and namespace prefixes; --each prints every advertisement")
    func filters() throws {
        let directory = try TemporaryDirectory()
        let path = try Self.write(seconds: 2, in: directory)
        func formats(_ arguments: [String]) throws -> Set<String> {
            let io = CapturedConsole()
            #expect(io.run(["scan", "--hci", "btsnoop:\(path)"] + arguments) == 0, "\(io.stderr)")
            return Set(try Self.lines(io.stdout).map { $0["format"] as! String })
        }
        #expect(try formats(["--format", "altbeacon"]) == ["altbeacon"])
        // Every Eddystone frame; the TLM frames ride on the UID beacon's line.
        #expect(try formats(["--format", "eddystone"]) == ["eddystone-uid", "eddystone-url", "eddystone-eid"])
        #expect(try formats(["--format", "eddystone-tlm"]) == ["eddystone-tlm"])
        #expect(try formats(["--min-rssi", "-60"]) == ["ibeacon", "altbeacon"])
        #expect(try formats(["--uuid", "e2c56db5-dff"]) == ["ibeacon"])
        #expect(try formats(["--uuid", "2F23"]) == ["altbeacon"])
        #expect(try formats(["--namespace", "0001", "--uuid", "E2"]) == ["ibeacon", "eddystone-uid"])
        let io = CapturedConsole()
        #expect(io.run(["scan", "--hci", "btsnoop:\(path)", "--each", "--format", "ibeacon"]) == 0)
        let each = try Self.lines(io.stdout)
        #expect(each.count == 20 && each.allSatisfy { $0["event"] as? String == "advertisement" && $0["rssi"] as? Int == -50 })
    }

    @Test("bad scan options are usage errors")
    func usageErrors() {
        for (arguments, message) in [
            (["--format", "eddystone-foo"], "Invalid value 'eddystone-foo' for '--format <format>'"),
            (["--min-rssi", "-200"], "Invalid value '-200' for '--min-rssi <dBm>'"),
            (["--uuid", "XYZ"], "Invalid value 'XYZ' for '--uuid <prefix>'"),
            (["--namespace", String(repeating: "0", count: 21)], "for '--namespace <prefix>'"),
            (["--each", "--interval", "2s"], "'--each' prints every advertisement"),
        ] {
            let io = CapturedConsole()
            #expect(io.run(["scan", "--hci", "btsnoop:/nonexistent"] + arguments) == 64)
            #expect(io.stderr.first?.contains(message) == true, "\(io.stderr)")
        }
    }

    @Test("range: AltBeacon and Eddystone-UID regions, with the Eddystone beacon's telemetry on its entry")
    func rangeOtherFormats() throws {
        let directory = try TemporaryDirectory()
        let path = try Self.write(seconds: 3, in: directory)
        let io = CapturedConsole()
        #expect(io.run(["range", "--hci", "btsnoop:\(path)", "--region", "alt=altbeacon:2F234454-CF6D-4A0F-ADF2-F4911BA9FFA6:1",
                        "--region", "eddystone:00010203040506070809:0A0B0C0D0E0F", "--region", "altbeacon:2F234454-CF6D-4A0F-ADF2-F4911BA9FFA6:0"]) == 0)
        let lines = try Self.lines(io.stdout)
        let ranges = lines.filter { $0["event"] as? String == "range" && $0["partial"] == nil }
        #expect(ranges.count == 4)
        let alt = try #require(ranges.first { ($0["region"] as? [String: Any])?["name"] as? String == "alt" })
        let altBeacon = try #require((alt["beacons"] as? [[String: Any]])?.first)
        #expect(altBeacon["format"] as? String == "altbeacon" && altBeacon["id3"] as? Int == 2 && altBeacon["samples"] as? Int == 10)
        let eddystone = try #require(ranges.first { ($0["region"] as? [String: Any])?["format"] as? String == "eddystone-uid" })
        let uid = try #require((eddystone["beacons"] as? [[String: Any]])?.first)
        #expect(uid["instance"] as? String == "0A0B0C0D0E0F" && uid["measuredPower"] as? Int == -61 && uid["txPowerAt0m"] as? Int == -20)
        #expect((uid["telemetry"] as? [String: Any])?["uptime"] as? Double == 360)
        // ID2 0 is a value: that region is never entered.
        let zero = lines.filter { ($0["region"] as? [String: Any])?["id2"] as? Int == 0 }
        #expect(zero.map { $0["event"] as! String } == ["state"])
        #expect(io.stderr.isEmpty)
    }

    @Test("range hears beacons but none in its regions: one warning on stderr after 3 s, nothing more on stdout")
    func noMatchHint() throws {
        let directory = try TemporaryDirectory()
        let path = try Self.write(seconds: 5, in: directory)
        let io = CapturedConsole()
        // The iBeacon's UUID as btmon shows it: byte-reversed.
        #expect(io.run(["range", "--hci", "btsnoop:\(path)", "--uuid", "E09610A7-F5D0-60B0-D248-FBDFB56DC5E2"]) == 0)
        #expect(io.stdout.count == 1)
        #expect(io.stderr == ["Warning: heard 5 beacons for 3s, none in the regions; closest: E2C56DB5-DFFB-48D2-B060-D0F5A71096E0 (the region's E09610A7-F5D0-60B0-D248-FBDFB56DC5E2 is it byte-reversed, as btmon shows it); `beacon scan` lists every beacon heard"])
        let matched = CapturedConsole()
        #expect(matched.run(["range", "--hci", "btsnoop:\(path)", "--uuid", "E2C56DB5-DFFB-48D2-B060-D0F5A71096E0"]) == 0)
        #expect(matched.stderr.isEmpty)
    }

    @Test("a flood of more new identities than the table keeps: the least recently heard evicted, counted in one warning at the end")
    func floodOfIdentities() throws {
        let uuid = BeaconUUID("E2C56DB5-DFFB-48D2-B060-D0F5A71096E0")!
        let start = Timestamp(microseconds: 1_800_000_000_000_000)
        // A new identity every microsecond, then one more report 2 s later that ends the --duration.
        let reports = (0..<BeaconMemory.maximumBeacons + 1_000).map { (beacon: $0, time: start + Micros(Int64($0))) }
            + [(beacon: 0, time: start + .seconds(2))]
        var file = BtsnoopWriter(datalink: .h4).header
        for (beacon, time) in reports {
            BtsnoopWriter(datalink: .h4).appendRecord(SimulatedAir.extendedReport(SimulatedAir.beacon(beacon, uuid: uuid), rssi: -60),
                                                      direction: .received, timestamp: time, to: &file)
        }
        let directory = try TemporaryDirectory()
        let path = directory.path("flood.btsnoop")
        try Data(file).write(to: URL(fileURLWithPath: path))
        let io = CapturedConsole()
        // No interval ends within the run: nothing printed, only the table's bound at work.
        #expect(io.run(["scan", "--hci", "btsnoop:\(path)", "--interval", "1h", "--duration", "1s"]) == 0)
        #expect(io.stdout.isEmpty)
        // The table went past its limit once, at 65 537 beacons, and evicted an eighth of them.
        #expect(io.stderr == [BeaconMemory.evictionWarning(8_192)])
    }
}
