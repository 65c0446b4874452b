import BeaconCore
import BeaconSimulation
import Testing

/// Inputs the fuzz targets in fuzz/ found breaking the library, kept so the bugs stay fixed.
@Suite("fuzz regressions")
struct FuzzRegressionTests {
    /// fuzz/FuzzTransportSpec.swift: U+070F (a prepended-concatenation mark) before the "," joins both into one
    /// character, so the canonical "serial:DEV\u{70F},115200" did not parse back (the baud became part of the device).
    @Test("transport spec separators are found after a character that joins the next one")
    func separatorAfterPrependCharacter() throws {
        // The failing input: "serial:/v", 0x01, a lead byte without its continuation, then U+070F twice.
        let input: [UInt8] = [0x73, 0x65, 0x72, 0x69, 0x61, 0x6C, 0x3A, 0x2F, 0x76, 0x01, 0xC5, 0xDC, 0x8F, 0xDC, 0x8F]
        let text = String(decoding: input, as: UTF8.self)
        let spec = try TransportSpec.parse(text)
        #expect(spec == .serial(device: "/v\u{01}\u{FFFD}\u{070F}\u{070F}", baud: 115200, rtscts: false))
        #expect(try TransportSpec.parse(spec.description) == spec)

        #expect(try TransportSpec.parse("serial:/dev/x\u{070F},9600,rtscts") == .serial(device: "/dev/x\u{070F}", baud: 9600, rtscts: true))
        #expect(try TransportSpec.parse("tcp:host\u{070F}:9001") == .tcp(host: "host\u{070F}", port: 9001))
        #expect(throws: TransportSpecError(text: "unix\u{070F}:/run/h4", problem: .unknownForm)) {
            try TransportSpec.parse("unix\u{070F}:/run/h4")
        }
    }

    /// fuzz/FuzzRangeSession.swift: a session starting near Int64.max µs (a capture can hold any 64-bit time)
    /// wrapped its next ranging tick around to a negative time, so every later sighting ran ticks without
    /// end (the fuzz run ran out of memory collecting the range lines).
    @Test("a session at the end of the 64-bit time range clamps its times instead of wrapping around",
          .timeLimit(.minutes(1)))
    func sessionAtTheEndOfTime() throws {
        let uuid = BeaconUUID(high: 0xE2C5_6DB5_DFFB_48D2, low: 0xB060_D0F5_A710_96E0)
        let region = BeaconRegion(uuid: uuid)
        let beacon = SimulatedAir.beacon(1, uuid: uuid)
        let end = Timestamp.supportedRange.upperBound
        // The failing input's shape: exit after 0 s, range every 10 ms, reports at and after Int64.max µs.
        // With exit-after 0 each report enters the region and the next instant processed exits it again.
        let expected: [(Micros, [MonitorOutput])] = [
            (Micros(0), [.state(region, .unknown, end), .state(region, .outside, end), .enter(region, end), .state(region, .inside, end)]
                + Array(repeating: [.exit(region, end), .state(region, .outside, end), .enter(region, end), .state(region, .inside, end)],
                        count: 2).joined()
                + [.exit(region, end), .state(region, .outside, end)]),
            (Micros.seconds(1), [.state(region, .unknown, end), .enter(region, end), .state(region, .inside, end)]),
        ]
        for (exitAfter, expectedOutputs) in expected {
            var session = RangeSession(monitor: RegionMonitor(regions: [region], exitAfter: exitAfter, interval: .milliseconds(10),
                                                              hashKey: MultilinearHash(seed: 0)),
                                       duration: nil)
            var outputs: [MonitorOutput] = []
            for time in [Int64.max - 1000, Int64.max, Int64.min] {
                try session.packet(SimulatedAir.extendedReport(beacon, rssi: -60), direction: .received,
                                    at: Timestamp(microseconds: time)) { outputs.append($0) }
            }
            session.advance(to: Timestamp(microseconds: Int64.max)) { outputs.append($0) }
            // All three reports are taken at the latest supported time, which no deadline passes. Each exit
            // comes after a partial range of the report that entered (no tick came between them).
            let partials = outputs.indices.filter { if case .partialRange = outputs[$0] { true } else { false } }
            #expect(outputs.indices.filter { if case .exit = outputs[$0] { true } else { false } } == partials.map { $0 + 1 })
            #expect(partials.allSatisfy { outputs[$0].time == end }, "exit after \(exitAfter)")
            let others = outputs.filter { if case .partialRange = $0 { false } else { true } }
            #expect(others == expectedOutputs, "exit after \(exitAfter)")
        }
    }

    /// Found with the session above: formatting Int64.min µs overflowed while rounding down.
    @Test("ISO-8601 formatting covers the whole 64-bit range")
    func iso8601AtTheEnds() {
        #expect(Timestamp(microseconds: Int64.min).iso8601 == "0000-01-01T00:00:00.000Z")
        #expect(Timestamp(microseconds: Int64.max).iso8601 == "9999-12-31T23:59:59.999Z")
        #expect(Timestamp(microseconds: -1).iso8601 == "1969-12-31T23:59:59.999Z")
        #expect(Timestamp(microseconds: -1001).iso8601 == "1969-12-31T23:59:59.998Z")
        #expect(Timestamp.supportedRange.upperBound.iso8601 == "9999-12-31T23:59:59.999Z")
        #expect(Timestamp.printableRange.lowerBound.iso8601 == "0000-01-01T00:00:00.000Z")
        #expect(Timestamp(microseconds: Timestamp.printableRange.lowerBound.microseconds - 1).iso8601 == "0000-01-01T00:00:00.000Z")
        #expect(Timestamp(microseconds: Timestamp.printableRange.upperBound.microseconds + 1).iso8601 == "9999-12-31T23:59:59.999Z")
    }
}
