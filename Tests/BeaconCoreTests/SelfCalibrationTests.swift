import BeaconCore
import Testing
#if canImport(Glibc)
import Glibc
#endif

@Suite("beacon locate --calibrate's memory: the fit in use pools an hour of minutes, the watch its latest 20 minutes")
struct SelfCalibrationTests {
    /// Five gateways 1 m up, every one hearing the others at 3.6 to 10 m.
    static let site = Site(rooms: [Room(name: "hall", polygon: [Point2(x: 0, y: 0), Point2(x: 8, y: 0), Point2(x: 8, y: 6), Point2(x: 0, y: 6)])],
                           gateways: [SiteGateway(name: "gw1", x: 0, y: 0), SiteGateway(name: "gw2", x: 8, y: 0), SiteGateway(name: "gw3", x: 0, y: 6),
                                      SiteGateway(name: "gw4", x: 8, y: 6), SiteGateway(name: "gw5", x: 4, y: 3)])
    static let start = Timestamp(microseconds: 1_767_225_600_000_000)

    /// Feeds one tick a second for `minutes`: every gateway hears every other's beacon as the model says
    /// (power −59 dBm at 1 m, exponent 2, no offset), gw1 `shift(second)` dB louder. The fit in use after the
    /// last due fit, and every report.
    static func run(_ calibration: inout SelfCalibration, minutes: Int, shift: (Int) -> Double) -> [CalibrationReport] {
        var reports: [CalibrationReport] = []
        for second in 0..<(minutes * 60) {
            let time = start + Micros.seconds(Int64(second))
            for receiver in site.gateways.indices {
                for transmitter in site.gateways.indices where transmitter != receiver {
                    let distance = site.gateways[receiver].point.distance(to: site.gateways[transmitter].point)
                    let rssi = -59 - 20 * log10(distance) + (receiver == 0 ? shift(second) : 0)
                    calibration.heard(receiver: receiver, transmitter: transmitter, rssi: rssi, measuredPower: -59, at: time)
                }
            }
            if let report = calibration.fitIfDue(at: time, site: site, exponentPrior: 2) { reports.append(report) }
        }
        return reports
    }

    @Test("a fading that swings ±1.5 dB every 2 minutes: the watch's last 2 minutes are 1.5 dB off, the fit in use pools 10 minutes to within 0.3 dB")
    func poolsMinutes() throws {
        // A swing the watch does not take for a change (3 dB and twice the fits' uncertainty).
        let swing: (Int) -> Double = { second in (second / 120) % 2 == 0 ? 1.5 : -1.5 }
        var pooled = SelfCalibration(memory: 120, pooledMinutes: 10)
        let reports = Self.run(&pooled, minutes: 12, shift: swing)
        #expect(reports.allSatisfy { $0.changed.isEmpty })
        let fit = try #require(pooled.current?.fit(ofGateway: 0))
        #expect(abs(fit.offset) < 0.3, "\(fit)")
        // Without pooling (one minute never holds more than the watch) the fit in use is the watch's.
        var watched = SelfCalibration(memory: 120, pooledMinutes: 1)
        _ = Self.run(&watched, minutes: 12, shift: swing)
        let watch = try #require(watched.current?.fit(ofGateway: 0))
        #expect(abs(abs(watch.offset) - 1.5) < 0.3, "\(watch)")
    }

    @Test("a gateway reading 8 dB louder from minute 10: the watch reports it and the fit in use forgets the pooled minutes before, following at once")
    func forgetsOnChange() throws {
        var calibration = SelfCalibration(memory: 120, pooledMinutes: 60)
        let reports = Self.run(&calibration, minutes: 14, shift: { $0 >= 600 ? 8 : 0 })
        let changed = try #require(reports.firstIndex { $0.changed == [0] }, "\(reports.map(\.json))")
        #expect(reports.filter { !$0.changed.isEmpty }.count == 1, "reported once")
        // From the report on, the fit in use is of what the watch holds, not of the 10 pooled minutes before.
        for report in reports[changed...] {
            let fit = try #require(report.calibration.fit(ofGateway: 0))
            #expect(fit.offset > 5, "\(report.json)")
        }
        let latest = try #require(reports.last?.calibration.fit(ofGateway: 0))
        #expect(abs(latest.offset - 8) < 0.5, "\(latest)")
    }
}
