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
    /// `share`: what of each message the locator is given (a shard's share).
    static func run(_ locator: inout Locator, seconds: Int, beaconAt point: Point2, shiftAt: Int = .max, shift: Double = 0,
                    share: (GatewayReadings) -> GatewayReadings = { $0 }) -> [LocateOutput] {
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
                _ = locator.receive(share(GatewayReadings(gateway: site.gateways[receiver].name, time: time, sequence: second, readings: readings)),
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

@Suite("beacon locate --calibrate restarted: the retained calibration read back and continued from")
struct ResumedCalibrationTests {
    /// The last fit of two minutes of the gateways hearing each other, and its line.
    private static func earlierReport() throws -> CalibrationReport {
        var locator = Locator(site: Calibrated.site, settings: Calibrated.settings(calibrate: true))
        return try #require(Calibrated.run(&locator, seconds: 120, beaconAt: Point2(x: 1.5, y: 2)).compactMap(\.calibration).last)
    }

    @Test("the line read back gives every gateway's fit to its rounding, and the same level at any distance")
    func roundTrip() throws {
        let report = try Self.earlierReport()
        let read = try CalibrationReport.decode(Array(report.json.utf8), site: Calibrated.site)
        #expect(read.time == report.time && read.calibration.pairs == report.calibration.pairs && read.changes.isEmpty)
        #expect(read.calibration.gateways.map(\.gateway) == report.calibration.gateways.map(\.gateway))
        for (fit, back) in zip(report.calibration.gateways, read.calibration.gateways) {
            #expect(abs(fit.offset - back.offset) <= 0.005 && abs(fit.exponent - back.exponent) <= 0.005, "\(fit) \(back)")
            #expect(abs(fit.covariance - back.covariance) <= 0.00005 && abs(fit.centre - back.centre) <= 0.005, "\(fit) \(back)")
            #expect(fit.outliers == back.outliers && fit.pairs == back.pairs)
            for distance in [1.0, back.centre, 10] {
                #expect(abs(fit.level(at: distance).value - back.level(at: distance).value) < 0.05)
                // Away from 1 m the level's error is what is left of the errors' squares (two decimals each)
                // once the covariance takes its share: a few tenths of a dB, against the 3 dB a change must show.
                #expect(abs(fit.level(at: distance).error - back.level(at: distance).error) < 0.25)
            }
        }
        #expect(read.json == report.json, "read back, it writes the same line")
    }

    @Test("resumed, a locator places the beacon with the earlier fit from its first windows, better than cold")
    func resumedLocatesCalibrated() throws {
        let earlier = try CalibrationReport.decode(Array(Self.earlierReport().json.utf8), site: Calibrated.site)
        let truth = Point2(x: 4.5, y: 1)
        func error(resume: Bool) throws -> Double {
            var locator = Locator(site: Calibrated.site, settings: Calibrated.settings(calibrate: true))
            if resume {
                let resumed = locator.resumeCalibration(from: earlier.calibration)
                #expect(resumed)
            }
            // 20 s: well before this run's own first fit.
            let outputs = Calibrated.run(&locator, seconds: 20, beaconAt: truth)
            #expect(outputs.compactMap(\.calibration).isEmpty)
            return try #require(outputs.compactMap(\.located).last?.fix?.point).distance(to: truth)
        }
        let resumed = try error(resume: true), cold = try error(resume: false)
        #expect(resumed < 0.5 && resumed < cold / 2, "resumed \(resumed) m, cold \(cold) m")
    }

    @Test("a gateway that moved while locate was stopped is reported changed by the first fit of the resumed run, not by a cold one")
    func movedWhileStopped() throws {
        let earlier = try CalibrationReport.decode(Array(Self.earlierReport().json.utf8), site: Calibrated.site)
        func firstFit(resume: Bool) throws -> CalibrationReport {
            var locator = Locator(site: Calibrated.site, settings: Calibrated.settings(calibrate: true))
            if resume {
                let resumed = locator.resumeCalibration(from: earlier.calibration)
                #expect(resumed)
            }
            return try #require(Calibrated.run(&locator, seconds: 60, beaconAt: Point2(x: 1.5, y: 2), shiftAt: 0, shift: 8)
                .compactMap(\.calibration).first)
        }
        #expect(try firstFit(resume: true).changed == [2])
        #expect(try firstFit(resume: false).changed.isEmpty)
    }

    @Test("with --shard every fuser hears every gateway's own beacon: each makes the fits one fuser makes")
    func shardsFitAlike() throws {
        func fits(_ shard: BeaconShard?) -> [String] {
            var locator = Locator(site: Calibrated.site, settings: Calibrated.settings(calibrate: true))
            return Calibrated.run(&locator, seconds: 120, beaconAt: Point2(x: 1.5, y: 2)) { shard?.share(of: $0, site: Calibrated.site) ?? $0 }
                .compactMap(\.calibration).map(\.json)
        }
        let whole = fits(nil)
        #expect(whole.count == 2)
        for index in 1...3 { #expect(fits(BeaconShard("\(index)/3")) == whole, "shard \(index)/3") }
    }

    /// A survey of the field as it is, every gateway's offset and exponent in it: every metre of both rooms.
    private static let survey: [SurveyPoint] = stride(from: 0.5, through: 5.5, by: 1).flatMap { x in
        stride(from: 0.5, through: 3.5, by: 1).flatMap { y in
            Calibrated.site.gateways.indices.map { index in
                SurveyPoint(point: Point2(x: x, y: y), gateway: Calibrated.site.gateways[index].name,
                            rssi: Calibrated.rssi(receiver: index, from: Point2(x: x, y: y), offsets: Calibrated.offsets),
                            samples: 30, spread: 1)
            }
        }
    }

    @Test("a surveyed gateway keeps the radio map: a calibration neither adds its fit to the map's correction nor sets it learning")
    func surveyedGatewaysKeepTheMap() throws {
        let earlier = try CalibrationReport.decode(Array(Self.earlierReport().json.utf8), site: Calibrated.site)
        let radio = RadioMap(site: Calibrated.site, survey: Self.survey, model: SignalModel())
        let truth = Point2(x: 4.5, y: 1)
        func placed(resume: Bool) throws -> Point2 {
            var locator = Locator(site: Calibrated.site, settings: Calibrated.settings(calibrate: true), radio: radio)
            if resume {
                let resumed = locator.resumeCalibration(from: earlier.calibration)
                #expect(resumed)
            }
            #expect(Calibrated.site.gateways.indices.allSatisfy { !locator.offsets.learns($0) })
            // 20 s: before this run's own first fit.
            return try #require(Calibrated.run(&locator, seconds: 20, beaconAt: truth).compactMap(\.located).last?.fix?.point)
        }
        let resumed = try placed(resume: true), surveyed = try placed(resume: false)
        #expect(resumed == surveyed)
        #expect(surveyed.distance(to: truth) < 0.5, "\(surveyed)")
    }

    @Test("a gateway a calibration leaves out learns its offset, unless a survey covers it")
    func leftOutGatewayLearns() throws {
        let earlier = try CalibrationReport.decode(Array(Self.earlierReport().json.utf8), site: Calibrated.site)
        let partial = SiteCalibration(gateways: earlier.calibration.gateways.filter { $0.gateway != 3 },
                                      scatter: earlier.calibration.scatter, pairs: earlier.calibration.pairs)
        var plain = Locator(site: Calibrated.site, settings: Calibrated.settings(calibrate: true))
        let plainResumed = plain.resumeCalibration(from: partial)
        #expect(plainResumed)
        #expect((0..<3).allSatisfy { !plain.offsets.learns($0) } && plain.offsets.learns(3))
        var surveyed = Locator(site: Calibrated.site, settings: Calibrated.settings(calibrate: true),
                               radio: RadioMap(site: Calibrated.site, survey: Self.survey, model: SignalModel()))
        let surveyedResumed = surveyed.resumeCalibration(from: partial)
        #expect(surveyedResumed)
        #expect(Calibrated.site.gateways.indices.allSatisfy { !surveyed.offsets.learns($0) })
    }

    @Test("only before the run's own first fit, and only with --calibrate")
    func resumedOnlyOnce() throws {
        let earlier = try CalibrationReport.decode(Array(Self.earlierReport().json.utf8), site: Calibrated.site)
        var uncalibrated = Locator(site: Calibrated.site)
        let uncalibratedResumed = uncalibrated.resumeCalibration(from: earlier.calibration)
        #expect(!uncalibratedResumed)
        #expect(uncalibrated.signal.receivers.isEmpty)
        var locator = Locator(site: Calibrated.site, settings: Calibrated.settings(calibrate: true))
        _ = Calibrated.run(&locator, seconds: 60, beaconAt: Point2(x: 1.5, y: 2))
        let fitted = locator.signal
        let resumedAfterFit = locator.resumeCalibration(from: earlier.calibration)
        #expect(!resumedAfterFit)
        #expect(locator.signal.receivers.map(\.offset) == fitted.receivers.map(\.offset))
    }

    @Test("a line that is not a calibration of this site's gateways is refused with its reason, malformed or foreign")
    func refused() throws {
        let line = try Self.earlierReport().json
        func edited(_ from: String, _ to: String) -> String {
            guard let range = line.range(of: from) else { Issue.record("\(from) not in \(line)"); return line }
            return line.replacingCharacters(in: range, with: to)
        }
        let covariance = try #require(line.range(of: #","covariance":[-0-9.]+"#, options: .regularExpression))
        let cases: [(String, String, Bool)] = [
            ("{not json", "not a calibration line", false),
            (#"{"event":"location"}"#, "event", false),
            (line.replacingCharacters(in: covariance, with: ""), "gateways[0].covariance: expected a number", false),
            (edited(#""exponent":"#, #""exponent":1e300,"x":"#), "gateways[0].exponent", false),
            (edited(#""covariance":"#, #""covariance":900,"c":"#), "gateways[0].covariance", false),
            (edited(#""time":""#, #""time":"yesterday","t":""#), "time", false),
            (edited(#""name":"gw2""#, #""name":"gw1""#), "gateways[1].name: gw1 fitted twice", false),
            (edited(#""name":"gw1""#, #""name":"attic""#), #"gateways[0].name: "attic" is not a gateway of the site"#, true),
            (edited(#""outliers":[]"#, #""outliers":["attic"]"#), #"outliers[0]: "attic" is not a gateway of the site"#, true),
        ]
        for (payload, reason, foreign) in cases {
            do {
                _ = try CalibrationReport.decode(Array(payload.utf8), site: Calibrated.site)
                Issue.record("accepted: \(payload)")
            } catch {
                #expect(error.description.contains(reason), "\(error) for \(payload)")
                if case .foreign = error { #expect(foreign, "\(error)") } else { #expect(!foreign, "\(error)") }
            }
        }
        // A site with fewer gateways than the line fits.
        let smaller = Site(rooms: Calibrated.site.rooms, gateways: Array(Calibrated.site.gateways.prefix(2)))
        #expect(throws: CalibrationReport.DecodingError.self) { try CalibrationReport.decode(Array(line.utf8), site: smaller) }
    }
}

@Suite("a calibration line's covariance, rounded")
struct RoundedCovarianceTests {
    private static let site = Site(rooms: [], gateways: [SiteGateway(name: "gw1", x: 0, y: 0), SiteGateway(name: "gw2", x: 5, y: 0)])

    private static func line(offsetError: String, exponentError: String, covariance: String) -> [UInt8] {
        Array(#"""
            {"event":"gatewayCalibration","time":"2026-01-01T00:00:50.000Z","pairs":1,"scatter":0.50,"gateways":[{"name":"gw1",\#
            "offset":1.00,"offsetError":\#(offsetError),"exponent":2.00,"exponentError":\#(exponentError),"pairs":1,"residual":0.10,\#
            "changed":false,"outliers":[],"covariance":\#(covariance),"centre":8.00}]}
            """#.utf8)
    }

    @Test("a fit whose offset and exponent are almost fully correlated is read back: the rounding of its errors is allowed for, the covariance held within them")
    func nearlyFullCorrelation() throws {
        // Errors 9.994 and 0.994 (the priors decided) with correlation 0.999 (covariance 9.924), written as
        // 9.99, 0.99 and 9.9240: past the product of the errors as written (9.8901).
        let read = try CalibrationReport.decode(Self.line(offsetError: "9.99", exponentError: "0.99", covariance: "9.9240"), site: Self.site)
        let fit = try #require(read.calibration.fit(ofGateway: 0))
        #expect(abs(fit.covariance - 9.99 * 0.99) < 1e-12)
        #expect(fit.level(at: fit.centre).error.isFinite)
        #expect(try CalibrationReport.decode(Array(read.json.utf8), site: Self.site).json == read.json)
        #expect(throws: CalibrationReport.DecodingError.self) {
            try CalibrationReport.decode(Self.line(offsetError: "9.99", exponentError: "0.99", covariance: "10.0000"), site: Self.site)
        }
    }
}
