@testable import BeaconCore
import SchemaValidation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// LocatorFixture's two rooms, each gateway also advertising its own beacon, each hearing with its own
/// offset and exponent.
private enum Calibrated {
    typealias F = LocatorFixture
    static let site = Site(rooms: F.site.rooms, gateways: F.site.gateways.enumerated().map { index, gateway in
        var gateway = gateway
        gateway.beacon = "gateway-\(index + 1)"
        return gateway
    })
    static let offsets = [-6.0, 5, 2, -3]
    static let exponents = [1.6, 3.2, 2.0, 2.9]

    static func rssi(receiver: Int, from point: Point2, offsets: [Double]) -> Double {
        let gateway = site.gateways[receiver]
        let distance = max(gateway.point.distance(to: point), 0.1)
        return Double(F.measuredPower) + offsets[receiver] - 10 * exponents[receiver] * log10(distance)
    }

    /// Once a second for `seconds`: every gateway hears the others' beacons and the beacon at `point`;
    /// from `shiftAt` on, gateway 2 (index) reads `shift` dB louder.
    static func run(_ locator: inout Locator, seconds: Int, beaconAt point: Point2, shiftAt: Int = .max, shift: Double = 0) -> [LocateOutput] {
        var outputs: [LocateOutput] = []
        for second in 1...seconds {
            let time = F.at(seconds: Double(second))
            var offsets = offsets
            if second >= shiftAt { offsets[2] += shift }
            for receiver in site.gateways.indices {
                var readings = site.gateways.indices.filter { $0 != receiver }.map { transmitter in
                    F.reading(rssi: rssi(receiver: receiver, from: site.gateways[transmitter].point, offsets: offsets),
                              id: site.gateways[transmitter].beacon!)
                }
                readings.append(F.reading(rssi: rssi(receiver: receiver, from: point, offsets: offsets)))
                _ = locator.receive(GatewayReadings(gateway: site.gateways[receiver].name, time: time, sequence: second, readings: readings),
                                    arrival: time)
            }
            locator.advance(arrival: time) { outputs.append($0) }
        }
        return outputs
    }

    static func settings(calibrate: Bool, memory: Int = SelfCalibration.defaultMemory) -> Locator.Settings {
        var settings = Locator.Settings()
        if calibrate { settings.calibration = SelfCalibration(memory: memory) }
        return settings
    }
}

extension LocateOutput {
    var calibration: CalibrationReport? { if case .calibration(let report) = self { report } else { nil } }
}

@Suite("beacon locate --calibrate: the gateways' own beacons fit each gateway, and the fit places beacons")
struct LocatorCalibrationTests {
    @Test("the first fit comes 30 s after the first pair has 20 readings, then every 60 s; gateways' own beacons are never located")
    func schedule() throws {
        var locator = Locator(site: Calibrated.site, settings: Calibrated.settings(calibrate: true))
        let outputs = Calibrated.run(&locator, seconds: 200, beaconAt: Point2(x: 1.5, y: 2))
        let reports = outputs.compactMap(\.calibration)
        #expect(reports.map { $0.time } == [50, 110, 170].map { LocatorFixture.at(seconds: $0) }, "\(reports.map(\.json))")
        #expect(!outputs.contains { $0.beacon?.id.hasPrefix("gateway-") == true })
        let first = try #require(reports.first)
        #expect(first.json.hasPrefix(#"{"event":"gatewayCalibration","time":"#), "\(first.json)")
        for fit in first.calibration.gateways {
            // Noise-free readings but three pairs each: the weak prior pulls a little, within the fit's own error.
            #expect(abs(fit.offset - Calibrated.offsets[fit.gateway]) < min(1, fit.offsetError), "\(fit)")
            #expect(abs(fit.exponent - Calibrated.exponents[fit.gateway]) < min(0.15, fit.exponentError), "\(fit)")
        }
        #expect(locator.signal.receivers.count == 4)
        #expect(abs(locator.signal.receivers[1].exponent - 3.2) < 0.15)
        #expect(reports.allSatisfy { $0.changed.isEmpty })
        for (line, problem) in zip(reports.map(\.json), try SchemaValidator.problems(reports.map(\.json))) {
            #expect(problem == nil, "\(line)")
        }
    }

    @Test("without --calibrate no fit is made, and the gateways' own beacons are still not located")
    func withoutCalibrate() {
        var locator = Locator(site: Calibrated.site)
        let outputs = Calibrated.run(&locator, seconds: 100, beaconAt: Point2(x: 1.5, y: 2))
        #expect(outputs.compactMap(\.calibration).isEmpty)
        #expect(!outputs.contains { $0.beacon?.id.hasPrefix("gateway-") == true })
        #expect(locator.signal.receivers.isEmpty)
    }

    @Test("a gateway that starts reading 8 dB louder is reported changed by a later fit, and only it")
    func contradicted() throws {
        // A 10-minute memory, so the readings before the shift leave it within the run.
        var locator = Locator(site: Calibrated.site, settings: Calibrated.settings(calibrate: true, memory: 600))
        let outputs = Calibrated.run(&locator, seconds: 800, beaconAt: Point2(x: 1.5, y: 2), shiftAt: 120, shift: 8)
        let reports = outputs.compactMap(\.calibration)
        let changed = try #require(reports.first { !$0.changed.isEmpty }, "\(reports.map(\.json))")
        #expect(changed.changed == [2])
        #expect(changed.json.contains(#""name":"gw3","offset":"#))
        let latest = try #require(reports.last?.calibration.fit(ofGateway: 2))
        // Once the readings before the shift have left the pair's memory.
        #expect(abs(latest.offset - 10) < 1, "\(latest)")
        #expect(reports.filter { !$0.changed.isEmpty }.count == 1, "reported once")
    }

    @Test("receivers 11 dB apart with exponents 1.6–3.2: the calibrated fuser places a beacon nearer the truth than the uncalibrated")
    func calibrationPlacesBetter() throws {
        let truth = Point2(x: 4.5, y: 1)
        func error(calibrate: Bool) throws -> Double {
            var locator = Locator(site: Calibrated.site, settings: Calibrated.settings(calibrate: calibrate))
            let outputs = Calibrated.run(&locator, seconds: 120, beaconAt: truth)
            let point = try #require(outputs.compactMap(\.located).last?.fix?.point)
            return point.distance(to: truth)
        }
        let calibrated = try error(calibrate: true), uncalibrated = try error(calibrate: false)
        #expect(calibrated < 0.5 && calibrated < uncalibrated / 2, "calibrated \(calibrated) m, uncalibrated \(uncalibrated) m")
    }
}
